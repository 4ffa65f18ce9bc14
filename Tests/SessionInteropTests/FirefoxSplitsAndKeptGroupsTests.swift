import Foundation
import SessionInterop
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Firefox's split views, saved groups and closed groups: the files Firefox
/// ESR wrote for `Scripts/fixtures/make-firefox-2026-fixtures.py`
/// (`Fixtures/firefox-2026/`), checked against its `expected.json`, and
/// hand-built session JSON for the cases a browser does not write.
@Suite struct FirefoxSplitsAndKeptGroupsTests {
    // MARK: - Real fixtures

    @Test(arguments: ["recovery.jsonlz4", "sessionstore.jsonlz4"])
    func read_fixture_splitsMatchWhatTheScriptDid(name: String) throws {
        let result = try FirefoxSessionReader.read(at: Self.fixture(name))
        try result.archive.check()
        let open = result.archive.browsers.filter { $0.closedEntry == nil }
        try #require(open.count == Self.expected.windows.count)
        for (browser, window) in zip(open, Self.expected.windows) {
            #expect(browser.tabs.map(\.history.entries.last?.url) == window.tabs.map(\.url))
            #expect(browser.splits.count == window.splits.count)
            for (split, want) in zip(browser.splits, window.splits) {
                #expect(split.ratio == 0.5 && split.layout == .vertical)
                let members = browser.tabs.indices.filter { browser.tabs[$0].split == split.id }
                #expect(members == want.tabs)
            }
            // Every tab the script did not split has no split.
            let splitTabs = Set(window.splits.flatMap(\.tabs))
            #expect(browser.tabs.indices.filter { !splitTabs.contains($0) }.allSatisfy { browser.tabs[$0].split == nil })
            // The second window's split sits inside the "Pair" group, both tabs in it.
            for (tab, want) in zip(browser.tabs, window.tabs) {
                #expect(tab.group.flatMap { id in browser.groups.first { $0.id == id }?.title } == want.group?.title)
                #expect((tab.id == browser.activeTab) == want.selected)
            }
        }
    }

    @Test(arguments: ["recovery.jsonlz4", "sessionstore.jsonlz4"])
    func read_fixture_savedAndClosedGroupsAreParsed(name: String) throws {
        let result = try FirefoxSessionReader.read(at: Self.fixture(name))
        #expect(result.skipped.isEmpty)

        try #require(result.savedGroups.count == Self.expected.savedGroups.count)
        for (group, want) in zip(result.savedGroups, Self.expected.savedGroups) {
            Self.expectGroup(group, matches: want)
            #expect(group.saved)
            #expect(group.browser == nil)
        }

        let open = result.archive.browsers.filter { $0.closedEntry == nil }
        var closed = result.closedGroups
        for (browser, window) in zip(open, Self.expected.windows) {
            for want in window.closedGroups {
                let group = try #require(closed.first)
                closed.removeFirst()
                Self.expectGroup(group, matches: want)
                #expect(!group.saved)
                #expect(group.browser == browser.id)
            }
        }
        #expect(closed.isEmpty)
    }

    @Test func read_fixture_keptGroupsHaveTheirOwnIdentifiers() throws {
        let result = try FirefoxSessionReader.read(at: Self.fixture("sessionstore.jsonlz4"))
        let documentGroups = Set(result.archive.browsers.flatMap { $0.groups.map(\.id) })
        let kept = result.savedGroups + result.closedGroups
        #expect(Set(kept.map(\.id)).count == kept.count)
        #expect(kept.allSatisfy { !documentGroups.contains($0.id) })
        #expect(kept.allSatisfy { group in group.tabs.allSatisfy { $0.group == group.id } })
    }

    /// `sessionstore import --from firefox` keeps them: after an import into a store, its
    /// saved groups and recently closed group entries hold what the script made.
    @Test(arguments: ["recovery.jsonlz4", "sessionstore.jsonlz4"])
    func import_fixture_savedAndClosedGroupsAreInTheStore(name: String) throws {
        let result = try FirefoxSessionReader.read(at: Self.fixture(name))
        try result.archive.check()
        let store = try TemporaryStore.onDisk()
        try store.database.importArchive(result.archive)

        let saved = try SQLiteSavedTabGroupRepository(database: store.database).savedGroups()
        try #require(saved.count == Self.expected.savedGroups.count)
        for want in Self.expected.savedGroups {
            let group = try #require(saved.first { $0.visualData.title == want.title })
            #expect(FirefoxSessionReaderTests.firefoxName(group.visualData.color) == want.color)
            #expect(group.tabs.map(\.url) == want.tabs.map(\.url))
            #expect(group.tabs.map(\.title) == want.tabs.map(\.title))
            #expect(group.sourceBrowser == nil)
        }
        #expect(try store.browsers.browsers().count == Self.expected.windows.count)

        let closed = try SQLiteRecentlyClosedRepository(database: store.database).entries().filter { $0.kind == .group }
        let wanted = Self.expected.windows.flatMap(\.closedGroups)
        try #require(closed.count == wanted.count)
        for want in wanted {
            let entry = try #require(closed.first { $0.group?.visualData.title == want.title })
            #expect(entry.group.map { FirefoxSessionReaderTests.firefoxName($0.visualData.color) } == want.color)
            #expect(entry.tabs.map(\.page?.url) == want.tabs.map(\.url))
            #expect(entry.tabs.map(\.page?.title) == want.tabs.map(\.title))
        }
        // The window a closed group came from is the imported window.
        let windows = Set(try store.browsers.browsers().map(\.id))
        #expect(closed.allSatisfy { $0.browser.map(windows.contains) == true })

        // After the first import, export, import and export again is byte-identical.
        let first = try store.database.exportArchive()
        #expect(first.savedGroups.count == saved.count)
        let again = try TemporaryStore.inMemory()
        try again.database.importArchive(first)
        let encoder = SessionArchive.encoder()
        #expect(try encoder.encode(again.database.exportArchive()) == encoder.encode(first))
        let path = try #require(store.path)
        try store.database.close()
        #expect(try SessionStoreFile.check(atPath: path) == [])
    }

    // MARK: - Hand-built sessions

    /// A hand-built window of plain tabs: `tabs` gives each tab's
    /// `(splitViewId, pinned, groupId)`; every tab has one page.
    static func handBuiltSession(
        _ tabs: [(split: Any?, pinned: Bool, group: String?)], splitViews: [[String: Any]], groups: [String] = []
    ) -> [String: Any] {
        let tabObjects: [[String: Any]] = tabs.enumerated().map { offset, tab in
            var object: [String: Any] = [
                "entries": [["url": "https://example.com/\(offset)", "title": "Tab \(offset)"]], "index": 1,
                "pinned": tab.pinned,
            ]
            if let split = tab.split { object["splitViewId"] = split }
            if let group = tab.group { object["groupId"] = group }
            return object
        }
        let window: [String: Any] = [
            "tabs": tabObjects, "selected": 1, "splitViews": splitViews,
            "groups": groups.map { ["id": $0, "name": $0, "color": "blue", "collapsed": false] },
        ]
        return ["version": ["sessionrestore", 1], "windows": [window], "maxSplitViewId": 9]
    }

    static func readHandBuilt(_ session: [String: Any]) throws -> BrowserImport {
        try TemporaryDirectory.with { directory in
            let path = directory.file("sessionstore.json")
            try JSONSerialization.data(withJSONObject: session).write(to: URL(fileURLWithPath: path))
            return try FirefoxSessionReader.read(at: path)
        }
    }

    @Test func read_handBuiltSplits_keepsOnlyTwoNeighbouringTabsAlike() throws {
        // Hand-built: split 1 is good; 2 has one tab; 3 straddles a group boundary; 4 mixes pinned and
        // not; 5 has three tabs; "old-6" is a string id (older files) and good.
        let session = Self.handBuiltSession(
            [
                (4, true, nil), (nil, true, nil), (4, false, nil),
                (1, false, nil), (1, false, nil), (2, false, nil),
                (3, false, "g"), (3, false, nil),
                (5, false, nil), (5, false, nil), (5, false, nil),
                ("old-6", false, nil), ("old-6", false, nil),
            ],
            splitViews: [
                ["id": 1, "numberOfTabs": 2], ["id": 2, "numberOfTabs": 2], ["id": 3, "numberOfTabs": 2],
                ["id": 4, "numberOfTabs": 2], ["id": 5, "numberOfTabs": 2], ["id": "old-6", "numberOfTabs": 2],
            ],
            groups: ["g"])
        let result = try Self.readHandBuilt(session)
        try result.archive.check()
        let browser = try #require(result.archive.browsers.first)
        #expect(browser.splits.count == 2)
        let splitTabs = browser.tabs.compactMap { tab in tab.split.map { (tab.history.entries[0].url, $0) } }
        #expect(splitTabs.map(\.0) == [3, 4, 11, 12].map { "https://example.com/\($0)" })
        #expect(splitTabs.map(\.1) == [browser.splits[0].id, browser.splits[0].id, browser.splits[1].id, browser.splits[1].id])
        #expect(result.skipped.contains(
            "dropped 4 split views that are not two neighbouring tabs, both pinned or neither, in one group "
                + "(their tabs kept as single tabs)"))
    }

    @Test func read_handBuiltSplitMissingFromSplitViews_isDroppedAndCounted() throws {
        // Hand-built: Firefox restores a split view only when its window lists it with that many tabs.
        let session = Self.handBuiltSession(
            [(7, false, nil), (7, false, nil), (8, false, nil), (8, false, nil)],
            splitViews: [["id": 8, "numberOfTabs": 3]])
        let result = try Self.readHandBuilt(session)
        #expect(result.archive.browsers.first?.splits.isEmpty == true)
        #expect(result.archive.browsers.first?.tabs.allSatisfy { $0.split == nil } == true)
        #expect(result.skipped == [
            "dropped 2 split views that their window's splitViews list lacks or gives other than two tabs "
                + "(their tabs kept as single tabs)",
        ])
    }

    @Test func read_handBuiltClosedWindowAndClosedGroup_keepTheirSplits() throws {
        // Hand-built: the open window's session moved to _closedWindows, and a closed group whose two
        // tabs were a split view (TabGroupState.closed lists it in the group's splitViews).
        var session = Self.handBuiltSession(
            [(nil, false, nil), (3, false, nil), (3, false, nil)], splitViews: [["id": 3, "numberOfTabs": 2]])
        var windows = session["windows"] as! [[String: Any]]
        var closedWindow = windows[0]
        closedWindow["closedAt"] = 1_700_000_000_000
        windows[0]["splitViews"] = []
        windows[0]["tabs"] = [["entries": [["url": "https://example.com/open", "title": "Open"]], "index": 1]]
        let closedTab: (Int) -> [String: Any] = { number in
            ["state": ["entries": [["url": "https://example.com/g\(number)", "title": "G\(number)"]], "index": 1,
                       "splitViewId": 5, "groupId": "gone"]]
        }
        windows[0]["closedGroups"] = [[
            "id": "gone", "name": "Gone", "color": "cyan", "tabs": [closedTab(1), closedTab(2)],
            "splitViews": [["id": 5, "numberOfTabs": 2]],
        ]]
        session["windows"] = windows
        session["_closedWindows"] = [closedWindow]
        let result = try Self.readHandBuilt(session)
        try result.archive.check()
        let closed = try #require(result.archive.browsers.first { $0.closedEntry != nil })
        #expect(closed.splits.count == 1)
        #expect(closed.tabs.map { $0.split != nil } == [false, true, true])
        let group = try #require(result.closedGroups.first)
        #expect(group.splits.count == 1)
        #expect(group.tabs.allSatisfy { $0.split == group.splits.first?.id && $0.group == group.id })
        #expect(result.skipped == [
            "dropped 1 split view of saved or closed tab groups (a saved or recently closed group keeps none; "
                + "its tabs kept as single tabs)",
        ])
        // The document's closed group entry holds the tabs, without the split.
        let entry = try #require(result.archive.closedEntries.first { $0.kind == .group })
        #expect(entry.group?.title == "Gone" && entry.group?.color == .cyan)
        #expect(entry.tabs.map { $0.history.entries.map(\.url) } == [["https://example.com/g1"], ["https://example.com/g2"]])
        #expect(entry.tabs.allSatisfy { $0.split == nil && $0.group == nil })
    }

    @Test func read_handBuiltOddClosedGroup_isCountedAndTheRestRead() throws {
        // Hand-built: a closed group that is not an object, and one with a tab without history.
        var session = Self.handBuiltSession([(nil, false, nil)], splitViews: [])
        var windows = session["windows"] as! [[String: Any]]
        windows[0]["closedGroups"] = [
            "not a group",
            ["id": "x", "name": "Kept", "color": "purple", "closedAt": 1_700_000_000_000,
             "tabs": [["state": ["entries": []]],
                      ["state": ["entries": [["url": "https://example.com/kept", "title": "Kept"]], "index": 1]]]],
        ]
        session["windows"] = windows
        let result = try Self.readHandBuilt(session)
        try result.archive.check()
        #expect(result.closedGroups.count == 1)
        let group = try #require(result.closedGroups.first)
        #expect(group.title == "Kept" && group.color == .purple && !group.saved)
        #expect(group.closedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(group.tabs.map { $0.history.entries.map(\.url) } == [["https://example.com/kept"]])
        #expect(result.skipped == [
            "skipped 1 closed tab with no history entry the store accepts", "skipped 1 saved or closed tab group (not an object)",
        ])
    }

    // MARK: - Expected state

    /// What the fixture script did (`expected.json` beside the fixtures).
    struct Expected: Decodable {
        typealias Group = FirefoxSessionReaderTests.Expected.Group
        typealias Page = FirefoxSessionReaderTests.Expected.Page

        struct Tab: Decodable {
            var url: String
            var title: String
            var group: Group?
            var selected: Bool
            var history: [Page]
            var currentIndex: Int
        }

        struct Split: Decodable {
            var tabs: [Int]
        }

        struct KeptGroup: Decodable {
            var title: String
            var color: String
            var tabs: [Tab]
        }

        struct Window: Decodable {
            var tabs: [Tab]
            var splits: [Split]
            var closedGroups: [KeptGroup]
        }

        var windows: [Window]
        var savedGroups: [KeptGroup]
    }

    static let expected: Expected = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        // The file ships with the tests; a missing or changed one is a broken checkout.
        return try! decoder.decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: fixture("expected.json"))))
    }()

    static func expectGroup(_ group: ImportedTabGroup, matches want: Expected.KeptGroup) {
        #expect(group.title == want.title)
        #expect(FirefoxSessionReaderTests.firefoxName(group.color) == want.color)
        #expect(group.closedAt != nil)
        #expect(group.splits.isEmpty)
        #expect(group.tabs.count == want.tabs.count)
        for (tab, wantTab) in zip(group.tabs, want.tabs) {
            #expect(tab.history.entries.map { Expected.Page(url: $0.url, title: $0.title) } == wantTab.history)
            #expect(tab.history.currentIndex == wantTab.currentIndex)
            #expect(tab.group == group.id)
        }
    }

    static func fixture(_ name: String) -> String {
        // The resource folder is declared in Package.swift (`.copy("Fixtures")`).
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
            .appendingPathComponent("firefox-2026/\(name)").path
    }
}
