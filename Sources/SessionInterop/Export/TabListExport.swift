import Foundation
import SessionStorage

/// The open tabs of a document as text that other programs read: a list of
/// titles and URLs, or a bookmarks file that every browser imports.
///
/// Only open browsers are written (a window in recently closed is not), in the
/// document's order, each tab by its current page. A tab with no page yet is
/// written as `about:blank`. Text goes to `write` in pieces as it is made, so a
/// caller can stream it to a file.
///
/// ## Topics
/// - ``Format``
/// - ``write(_:as:to:)``
public enum TabListExport {
    /// A text format for the tab list.
    public enum Format: String, CaseIterable, Sendable {
        /// One `title<TAB>url` line per tab; browsers separated by a blank line.
        case urls
        /// A Netscape bookmark file: one folder per browser, and inside it one per tab group.
        case html
    }

    /// Writes the open tabs of `archive` in `format`, piece by piece, to `write`.
    ///
    /// - Throws: Whatever `write` throws.
    public static func write(
        _ archive: SessionArchive, as format: Format, to write: (String) throws -> Void
    ) throws {
        let browsers = archive.browsers.filter { $0.closedEntry == nil }
        switch format {
        case .urls: try URLList.write(browsers, to: write)
        case .html: try BookmarksFile.write(browsers, to: write)
        }
    }

    /// Renders the open tabs of `archive` in `format` as one string.
    public static func string(_ archive: SessionArchive, as format: Format) -> String {
        var text = ""
        try? write(archive, as: format) { text += $0 }
        return text
    }

    /// The page a tab shows: its current entry's title and URL.
    static func currentPage(of tab: SessionArchive.Tab) -> (title: String, url: String) {
        guard let index = tab.history.currentIndex, tab.history.entries.indices.contains(index) else {
            return ("", "about:blank")
        }
        let entry = tab.history.entries[index]
        return (entry.title, entry.virtualUrl ?? entry.url)
    }
}
