import Foundation
import SessionModel
import SessionStorage

/// The open tabs of a document as text that other programs read: a list of
/// titles and URLs, or a bookmarks file that every browser imports.
///
/// Only open browsers are written (a window in recently closed is not), in the
/// document's order, each tab by its current page. A tab with no page yet is
/// written as `about:blank`. Text is made a part at a time (``Writer``), so an
/// export of any size streams to its file.
///
/// ## Topics
/// - ``Format``
/// - ``Writer``
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
        _ archive: SessionArchive, as format: Format, to write: @escaping (String) throws -> Void
    ) throws {
        let writer = Writer(format: format, output: write)
        for part in archive.parts { try writer.write(part) }
        try writer.finish()
    }

    /// Renders the open tabs of `archive` in `format` as one string.
    public static func string(_ archive: SessionArchive, as format: Format) -> String {
        var text = ""
        try? write(archive, as: format) { text += $0 }
        return text
    }

    /// Writes the tab list a document part at a time, handing its text to
    /// `output` in pieces of about 64 KiB.
    ///
    /// ```swift
    /// let writer = TabListExport.Writer(format: .urls) { print($0, terminator: "") }
    /// try database.exportArchive { try writer.write($0) }
    /// try writer.finish()
    /// ```
    public final class Writer {
        private let format: Format
        private let output: (String) throws -> Void
        private var text = ""
        /// Open browsers written so far.
        private var browsers = 0
        /// Whether the tabs coming belong to an open browser.
        private var inOpenBrowser = false
        private var groups: [TabGroupID: SessionArchive.Group] = [:]
        /// The group whose folder is open (bookmarks).
        private var openGroup: TabGroupID?
        private var started = false

        /// A writer of `format` text that hands it to `output`.
        public init(format: Format, output: @escaping (String) throws -> Void) {
            self.format = format
            self.output = output
        }

        /// Writes the next part (closed entries, archived tabs and saved groups write nothing).
        ///
        /// - Throws: Whatever `output` throws.
        public func write(_ part: SessionArchive.Part) throws {
            start()
            switch part {
            case .browser(let browser, let tabCount):
                endBrowser()
                guard browser.closedEntry == nil else { break }
                inOpenBrowser = true
                browsers += 1
                groups = Dictionary(browser.groups.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                switch format {
                case .urls: if browsers > 1 { text += "\n" }
                case .html: text += BookmarksFile.folder(number: browsers, createdAt: browser.createdAt, tabCount: tabCount)
                }
            case .tab(let tab):
                guard inOpenBrowser else { break }
                switch format {
                case .urls: text += URLList.line(tab)
                case .html: text += BookmarksFile.bookmark(tab, groups: groups, openGroup: &openGroup)
                }
            case .closedEntry, .archivedTab, .savedGroup:
                endBrowser()
            }
            if text.utf8.count >= 1 << 16 { try flush() }
        }

        /// Ends the text and hands over the rest of it.
        ///
        /// - Throws: Whatever `output` throws.
        public func finish() throws {
            start()
            endBrowser()
            if format == .html { text += BookmarksFile.footer }
            try flush()
        }

        private func start() {
            guard !started else { return }
            started = true
            if format == .html { text += BookmarksFile.header }
        }

        private func endBrowser() {
            guard inOpenBrowser else { return }
            inOpenBrowser = false
            if format == .html { text += BookmarksFile.endFolder(openGroup: &openGroup) }
        }

        private func flush() throws {
            guard !text.isEmpty else { return }
            try output(text)
            text = ""
        }
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
