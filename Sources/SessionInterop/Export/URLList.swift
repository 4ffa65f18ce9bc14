import Foundation
import SessionStorage

/// `title<TAB>url` lines, one per tab, browsers separated by a blank line.
///
/// Tabs, carriage returns and line feeds inside a title become spaces, so every
/// line splits at its one tab; a URL holds none of them.
enum URLList {
    static func write(_ browsers: [SessionArchive.Browser], to write: (String) throws -> Void) throws {
        for (number, browser) in browsers.enumerated() {
            if number > 0 { try write("\n") }
            var text = ""
            for tab in browser.tabs {
                let page = TabListExport.currentPage(of: tab)
                text += flattened(page.title) + "\t" + flattened(page.url) + "\n"
                if text.utf8.count >= 64 * 1024 {
                    try write(text)
                    text = ""
                }
            }
            if !text.isEmpty { try write(text) }
        }
    }

    /// `text` on one line with no tab: control characters that would break a line become spaces.
    static func flattened(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0.isNewline }) else { return text }
        return String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }
}
