import Foundation
import SessionStorage

/// `title<TAB>url` lines, one per tab, browsers separated by a blank line.
///
/// Tabs, carriage returns and line feeds inside a title become spaces, so every
/// line splits at its one tab; a URL holds none of them.
enum URLList {
    /// A tab's line.
    static func line(_ tab: SessionArchive.Tab) -> String {
        let page = TabListExport.currentPage(of: tab)
        return flattened(page.title) + "\t" + flattened(page.url) + "\n"
    }

    /// `text` on one line with no tab: control characters that would break a line become spaces.
    static func flattened(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0.isNewline }) else { return text }
        return String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }
}
