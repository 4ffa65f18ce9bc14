import Foundation
import SessionTestSupport
import Testing

/// `import --from firefox|chromium` on the fixtures the real browsers wrote
/// (`Scripts/fixtures/`), run as the built binary: `ls` shows the windows, tabs,
/// pinned state, groups, active tab and current pages the scripts made; `check`
/// is clean; `search` finds a tab by a word of its title. (Bad browser files:
/// `BadBrowserFileTests` in the reliability suite.)
@Suite struct BrowserImportCommandTests {
    let binary = SessionStoreBinary()

    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SessionInteropTests/Fixtures")

    /// One expected window: its tabs (url, title, pinned, group title and colour) and the selected index.
    struct Window: Equatable, CustomStringConvertible {
        var tabs: [[String]]
        var selected: Int?
        var description: String { "selected \(selected.map(String.init) ?? "none"): \(tabs)" }
    }

    /// The open windows of a fixture's `expected.json`, as the script recorded them.
    static func expectedWindows(_ browser: String) throws -> [Window] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("\(browser)/expected.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (object?["windows"] as? [[String: Any]] ?? []).map { window in
            let tabs = window["tabs"] as? [[String: Any]] ?? []
            let selected = window["selected_index"] as? Int ?? tabs.firstIndex { $0["selected"] as? Bool == true }
            return Window(tabs: tabs.map(tabFields), selected: selected)
        }
    }

    private static func tabFields(_ tab: [String: Any]) -> [String] {
        let group = tab["group"] as? [String: Any]
        return [
            tab["url"] as? String ?? "", tab["title"] as? String ?? "", (tab["pinned"] as? Bool ?? false) ? "pinned" : "",
            // Firefox spells the store's grey "gray".
            group?["title"] as? String ?? "", (group?["color"] as? String ?? "").replacingOccurrences(of: "gray", with: "grey"),
        ]
    }

    /// The open windows `ls --json` prints, in the same form.
    private func listedWindows(_ path: String, in dir: TemporaryDirectory) throws -> [Window] {
        let ls = try binary.run(["ls", "--json", "--db", path], in: dir.path)
        #expect(ls.status == 0, "\(ls)")
        let object = try JSONSerialization.jsonObject(with: Data(ls.stdout.utf8)) as? [String: Any]
        return (object?["browsers"] as? [[String: Any]] ?? []).map { browser in
            let tabs = browser["tabs"] as? [[String: Any]] ?? []
            // As in the export: a tab names its group by id, among the browser's `groups`.
            let groups = browser["groups"] as? [[String: Any]] ?? []
            return Window(
                tabs: tabs.map { tab in
                    var tab = tab
                    tab["group"] = groups.first { $0["id"] as? String == tab["group"] as? String }
                    return Self.tabFields(tab)
                },
                selected: tabs.firstIndex { $0["id"] as? String == browser["active_tab"] as? String })
        }
    }

    /// Every expected window is listed (the store orders windows by last activity, so
    /// they are matched by their tabs' URLs). With `emptyTitles`, a title may be empty
    /// where Chromium's `Session_*` wrote the entry before the page's title was known
    /// (read with its `Tabs_*`, the importer takes the title from there).
    private func expectSameWindows(_ listed: [Window], _ expected: [Window], _ label: String, emptyTitles: Bool) {
        #expect(listed.count == expected.count, "\(label): \(listed.count) windows listed, \(expected.count) made")
        for window in expected {
            guard let match = listed.first(where: { $0.tabs.map { $0[0] } == window.tabs.map { $0[0] } }) else {
                Issue.record("\(label): no listed window has the tabs \(window.tabs.map { $0[0] })")
                continue
            }
            #expect(match.selected == window.selected, "\(label): selected tab")
            for (got, made) in zip(match.tabs, window.tabs) {
                #expect(got[0] == made[0] && got[2...] == made[2...], "\(label): \(got) vs \(made)")
                #expect(got[1] == made[1] || (emptyTitles && got[1].isEmpty), "\(label): title \(got[1]) vs \(made[1])")
            }
        }
    }

    static let firefoxFiles = ["sessionstore.jsonlz4", "recovery.jsonlz4", "previous.jsonlz4"]

    @Test(arguments: firefoxFiles)
    func importFirefox_fixture_lsShowsWhatTheScriptMade(_ file: String) throws {
        let source = Self.fixtures.appendingPathComponent("firefox/\(file)").path
        try #require(FileManager.default.fileExists(atPath: source), "missing fixture \(file)")
        try importAndCompare(from: "firefox", source: source, expected: try Self.expectedWindows("firefox"), label: file)
    }

    @Test func importChromium_sessionFile_andSessionsDirectory_lsShowsWhatTheScriptMade() throws {
        let directory = Self.fixtures.appendingPathComponent("chromium")
        let session = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix("Session_") })
        let expected = try Self.expectedWindows("chromium")
        try importAndCompare(
            from: "chromium", source: directory.appendingPathComponent(session).path, expected: expected, label: session,
            emptyTitles: true)
        try importAndCompare(from: "chromium", source: directory.path, expected: expected, label: "the directory")
    }

    private func importAndCompare(
        from browser: String, source: String, expected: [Window], label: String, emptyTitles: Bool = false
    ) throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("imported.sqlite")
            let result = try binary.run(["import", "--from", browser, source, "--db", path], in: dir.path)
            #expect(result.status == 0, "\(label): \(result)")
            let listed = try listedWindows(path, in: dir)
            expectSameWindows(listed, expected, label, emptyTitles: emptyTitles)
            let check = try binary.run(["check", "--db", path], in: dir.path)
            #expect(check.status == 0, "\(label): \(check)")
            // A word of a title, found among the imported tabs.
            let title = try #require(listed.flatMap(\.tabs).map { $0[1] }.last { !$0.isEmpty })
            let word = try #require(title.split(separator: " ").last.map(String.init))
            let search = try binary.run(["search", word, "--db", path], in: dir.path)
            #expect(search.status == 0 && search.stdout.contains(title), "\(label): \(search)")
        }
    }
}
