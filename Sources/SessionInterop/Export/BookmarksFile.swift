import Foundation
import SessionModel
import SessionStorage

/// A Netscape bookmark file (`<!DOCTYPE NETSCAPE-Bookmark-file-1>`), the format
/// every browser's "Import bookmarks from HTML" reads.
///
/// One folder per browser, named "Window N (M tabs)"; inside it the tabs in
/// order, with each tab group as a sub-folder named by its title (or "Group"
/// when it has none). Text and attributes are HTML-escaped; `ADD_DATE` is the
/// tab's creation time in seconds.
enum BookmarksFile {
    static func write(_ browsers: [SessionArchive.Browser], to write: (String) throws -> Void) throws {
        try write("""
            <!DOCTYPE NETSCAPE-Bookmark-file-1>
            <!-- Written by sessionstore: the open tabs, one folder per window and per tab group. -->
            <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
            <TITLE>Bookmarks</TITLE>
            <H1>Bookmarks</H1>
            <DL><p>

            """)
        for (number, browser) in browsers.enumerated() {
            let groups = Dictionary(browser.groups.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var text = "    <DT><H3 ADD_DATE=\"\(seconds(browser.createdAt))\">Window \(number + 1) (\(browser.tabs.count) tab\(browser.tabs.count == 1 ? "" : "s"))</H3>\n    <DL><p>\n"
            var openGroup: TabGroupID?
            for tab in browser.tabs {
                if tab.group != openGroup {
                    if openGroup != nil { text += "        </DL><p>\n" }
                    openGroup = tab.group
                    if let id = tab.group {
                        let title = groups[id].map(\.title).flatMap { $0.isEmpty ? nil : $0 } ?? "Group"
                        text += "        <DT><H3>\(escaped(title))</H3>\n        <DL><p>\n"
                    }
                }
                var page = TabListExport.currentPage(of: tab)
                // A bookmark runs its URL when opened: only pages, never scripts or inline data.
                if !isPage(page.url) { page.url = "about:blank" }
                let indent = openGroup == nil ? "        " : "            "
                let title = page.title.isEmpty ? page.url : page.title
                text += "\(indent)<DT><A HREF=\"\(escaped(page.url))\" ADD_DATE=\"\(seconds(tab.createdAt))\">\(escaped(title))</A>\n"
                if text.utf8.count >= 64 * 1024 {
                    try write(text)
                    text = ""
                }
            }
            if openGroup != nil { text += "        </DL><p>\n" }
            text += "    </DL><p>\n"
            try write(text)
        }
        try write("</DL><p>\n")
    }

    /// `text` with `&`, `<`, `>` and `"` escaped, for element content and attributes alike.
    static func escaped(_ text: String) -> String {
        guard text.contains(where: { "&<>\"".contains($0) }) else { return text }
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    private static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    /// Whether `url` is a page a bookmark may open: http, https, ftp, file or about.
    /// A `javascript:` or `data:` URL from an imported session would become a bookmarklet.
    static func isPage(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":") else { return false }
        return ["http", "https", "ftp", "file", "about"].contains(url[..<colon].lowercased())
    }
}
