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
    static let header = """
        <!DOCTYPE NETSCAPE-Bookmark-file-1>
        <!-- Written by sessionstore: the open tabs, one folder per window and per tab group. -->
        <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
        <TITLE>Bookmarks</TITLE>
        <H1>Bookmarks</H1>
        <DL><p>

        """

    static let footer = "</DL><p>\n"

    /// The start of a browser's folder.
    static func folder(number: Int, createdAt: Date, tabCount: Int) -> String {
        "    <DT><H3 ADD_DATE=\"\(seconds(createdAt))\">Window \(number) (\(tabCount) tab\(tabCount == 1 ? "" : "s"))</H3>\n    <DL><p>\n"
    }

    /// A tab's bookmark, opening or closing its group's folder first.
    static func bookmark(
        _ tab: SessionArchive.Tab, groups: [TabGroupID: SessionArchive.Group], openGroup: inout TabGroupID?
    ) -> String {
        var text = ""
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
        return text + "\(indent)<DT><A HREF=\"\(escaped(page.url))\" ADD_DATE=\"\(seconds(tab.createdAt))\">\(escaped(title))</A>\n"
    }

    /// The end of a browser's folder (and of its last group's).
    static func endFolder(openGroup: inout TabGroupID?) -> String {
        defer { openGroup = nil }
        return (openGroup != nil ? "        </DL><p>\n" : "") + "    </DL><p>\n"
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
