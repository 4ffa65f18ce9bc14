import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// One tab's rows damaged (by a bad page, or an outside writer with `sqlite3`)
/// cost that tab or that link, never the window: the list loads, the repair is
/// reported, and the first write puts the rows right again.
@Suite struct DamagedRowsTests {
    /// Above the size from which a list's pages are read by a scan of `tab_pages`.
    static let tabCount = 2_500
    static let damaged = 500

    enum Damage: String, CaseIterable, CustomStringConvertible {
        case malformedIdentifier, unreadableDate, pinnedInTheMiddle, missingGroup, danglingOpener, missingHistory
        var description: String { rawValue }

        /// The SQL that damages tab `id`'s rows (run with foreign keys off, as `sqlite3` does).
        func sql(_ id: String) -> String {
            switch self {
            case .malformedIdentifier:
                "UPDATE tabs SET id = 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz' WHERE id = '\(id)'"
            case .unreadableDate:
                "UPDATE tabs SET created_at = x'ff00' WHERE id = '\(id)'"
            case .pinnedInTheMiddle:
                "UPDATE tabs SET is_pinned = 1 WHERE id = '\(id)'"
            case .missingGroup:
                "UPDATE tabs SET group_id = '\(UUID().uuidString.lowercased())' WHERE id = '\(id)'"
            case .danglingOpener:
                "INSERT INTO tab_openers (tab_id, opener_tab_id) VALUES ('\(id)', '\(UUID().uuidString.lowercased())')"
            case .missingHistory:
                "DELETE FROM navigation_entries WHERE tab_id = '\(id)'"
            }
        }

        var repair: StoreRepair.Kind {
            switch self {
            case .malformedIdentifier, .unreadableDate: .tabSkipped
            case .pinnedInTheMiddle: .tabUnpinned
            case .missingGroup: .tabUngrouped
            case .danglingOpener: .openerDropped
            case .missingHistory: .pageSkipped
            }
        }

        /// Tabs still in the list once the damage is repaired.
        var tabsKept: Int { repair == .tabSkipped ? DamagedRowsTests.tabCount - 1 : DamagedRowsTests.tabCount }
    }

    @Test(arguments: Damage.allCases)
    func oneTabDamaged_costsThatTabAtMost_isReported_andRepairedByTheNextWrite(damage: Damage) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let (browser, damagedID) = try Self.makeStore(atPath: path)
        try PlainSQLite.execute(damage.sql(damagedID.uuidString), atPath: path)

        let database = try SessionDatabase.open(atPath: path)
        let tabs = SQLiteWebStateListRepository(database: database)
        let snapshot = try tabs.snapshot(of: browser)
        #expect(snapshot.list.count == damage.tabsKept)
        #expect(snapshot.pages.count >= Self.tabCount - 1)
        #expect(database.repairs().map(\.kind) == [damage.repair], "\(database.repairs())")

        // A write takes the repaired list and writes it back.
        try tabs.activate(in: browser, at: 0)
        try database.close()
        // A tab whose history rows are gone keeps its place and shows no page;
        // its history stays for `check` to report.
        if damage != .missingHistory {
            let problems = try SessionStoreFile.check(atPath: path)
            #expect(problems.isEmpty, "\(problems)")
        }
        let reopened = try SessionDatabase.open(atPath: path)
        #expect(try SQLiteWebStateListRepository(database: reopened).webStateList(in: browser).count == damage.tabsKept)
        #expect(reopened.repairs().filter { $0.kind != .pageSkipped }.isEmpty)
        try reopened.close()
    }

    @Test func largeBrowser_pagesReadByScan_matchTheJoin_andAMissingPageIsReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let (browser, damagedID) = try Self.makeStore(atPath: path)
        // Derived data gone stale (an outside writer): the tab has a current entry but no page row.
        try PlainSQLite.execute("DELETE FROM tab_pages WHERE tab_id = '\(damagedID.uuidString)'", atPath: path)

        let database = try SessionDatabase.open(atPath: path)
        defer { try? database.close() }
        let snapshot = try SQLiteWebStateListRepository(database: database).snapshot(of: browser)
        #expect(snapshot.list.count == Self.tabCount)
        #expect(snapshot.pages.count == Self.tabCount - 1)
        for (index, webState) in snapshot.list.webStates.enumerated() where webState.id != damagedID {
            #expect(snapshot.pages[webState.id]?.title == "Page \(index)")
            #expect(snapshot.pages[webState.id]?.url == "https://example.org/\(index)")
        }
        #expect(snapshot.pages[damagedID] == nil)
        #expect(database.repairs().map(\.kind) == [.pageSkipped])
        #expect(database.repairs().first?.subject == damagedID.uuidString)
    }

    @Test func soundStore_reportsNoRepair() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("a | b* [ 0 c d ] e", openers: ["e": "b"])
        _ = try store.tabs.snapshot(of: browser)
        try store.tabs.activate(in: browser, at: 0)
        #expect(store.database.repairs().isEmpty)
    }

    /// A store of one browser with `tabCount` tabs, each on one page, the ones
    /// around ``damaged`` in a group; returns the browser and the tab to damage.
    static func makeStore(atPath path: String) throws -> (BrowserID, WebStateID) {
        let database = try SessionDatabase.open(atPath: path)
        defer { try? database.close() }
        let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
        let tabs = SQLiteWebStateListRepository(database: database)
        let webStates = (0..<tabCount).map { _ in WebState() }
        try tabs.update(browser) { list in
            list = try WebStateList(
                webStates: webStates, pinnedCount: 0, groupIDs: Array(repeating: nil, count: tabCount), groups: [],
                activeIndex: 0)
            _ = try list.createGroup(at: [damaged - 2, damaged - 1], visualData: TabGroupVisualData(title: "G", color: .red))
        }
        let histories = SQLiteNavigationHistoryRepository(database: database)
        for (index, webState) in webStates.enumerated() {
            try histories.commit(NavigationItem(url: "https://example.org/\(index)", title: "Page \(index)"), in: webState.id)
        }
        return (browser, webStates[damaged].id)
    }
}
