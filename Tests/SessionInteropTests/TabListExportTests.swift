import Foundation
import SessionInterop
import SessionModel
import SessionStorage
import Testing

/// Tests the text forms of the tab list: the `urls` lines and the bookmarks file.
@Suite struct TabListExportTests {
    private let time = Date(timeIntervalSince1970: 1_800_000_000)

    private func tab(_ title: String, _ url: String, group: TabGroupID? = nil, pinned: Bool = false) -> SessionArchive.Tab {
        SessionArchive.Tab(
            pinned: pinned, group: group, createdAt: time,
            history: SessionArchive.History(
                currentIndex: 0, entries: [SessionArchive.Entry(url: url, title: title, timestamp: time)]))
    }

    private var archive: SessionArchive {
        let group = SessionArchive.Group(title: "R&D <tools>", color: .blue)
        let closedWindow = ClosedEntryID()
        return SessionArchive(
            browsers: [
                SessionArchive.Browser(createdAt: time, groups: [group], tabs: [
                    tab("Pinned\tone", "https://pinned.example/", pinned: true),
                    tab("Grouped \"quote\"", "https://a.example/?x=1&y=<2>", group: group.id),
                    tab("", "https://untitled.example/", group: group.id),
                    SessionArchive.Tab(createdAt: time, history: SessionArchive.History(currentIndex: nil, entries: [])),
                ]),
                SessionArchive.Browser(createdAt: time, closedEntry: closedWindow, tabs: [tab("Closed", "https://closed.example/")]),
                SessionArchive.Browser(createdAt: time, tabs: [tab("Line\nbreak", "https://second.example/")]),
            ],
            closedEntries: [SessionArchive.ClosedEntry(id: closedWindow, kind: .window, closedAt: time)])
    }

    @Test func urls_oneLinePerOpenTab_titlesFlattened_blankLineBetweenBrowsers() {
        #expect(TabListExport.string(archive, as: .urls) == """
            Pinned one\thttps://pinned.example/
            Grouped "quote"\thttps://a.example/?x=1&y=<2>
            \thttps://untitled.example/
            \tabout:blank

            Line break\thttps://second.example/

            """)
    }

    @Test func html_isANetscapeBookmarkFile_withAFolderPerBrowserAndGroup_escaped() {
        let html = TabListExport.string(archive, as: .html)
        #expect(html.hasPrefix("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n"))
        #expect(html.contains("<DT><H3 ADD_DATE=\"1800000000\">Window 1 (4 tabs)</H3>"))
        #expect(html.contains("<DT><H3 ADD_DATE=\"1800000000\">Window 2 (1 tab)</H3>"))
        #expect(!html.contains("closed.example"))  // a window in recently closed is not written
        #expect(html.contains("        <DT><H3>R&amp;D &lt;tools&gt;</H3>\n        <DL><p>\n"))
        #expect(html.contains(
            "            <DT><A HREF=\"https://a.example/?x=1&amp;y=&lt;2&gt;\" ADD_DATE=\"1800000000\">Grouped &quot;quote&quot;</A>\n"))
        // An untitled page is named by its URL; the group closes before the next ungrouped tab.
        #expect(html.contains(">https://untitled.example/</A>\n        </DL><p>\n        <DT><A HREF=\"about:blank\""))
        #expect(html.hasSuffix("    </DL><p>\n</DL><p>\n"))
    }

    /// A bookmark runs its URL: a script or inline-data page from an imported session is
    /// written as about:blank, never as a bookmarklet; the urls list keeps it as it is.
    @Test func html_neverWritesAScriptURL() {
        let archive = SessionArchive(browsers: [
            SessionArchive.Browser(createdAt: time, tabs: [
                tab("Run me", "javascript:alert(1)"), tab("Inline", "DATA:text/html,<b>x</b>"), tab("Page", "https://ok.example/"),
            ]),
        ])
        let html = TabListExport.string(archive, as: .html)
        #expect(!html.lowercased().contains("javascript:") && !html.lowercased().contains("data:"))
        #expect(html.contains("<A HREF=\"about:blank\" ADD_DATE=\"1800000000\">Run me</A>"))
        #expect(html.contains("<A HREF=\"https://ok.example/\""))
        #expect(TabListExport.string(archive, as: .urls).contains("Run me\tjavascript:alert(1)\n"))
    }
}
