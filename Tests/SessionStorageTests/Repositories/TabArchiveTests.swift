import Foundation
import GRDB
import SessionModel
import SessionTestSupport
import Testing

@testable import SessionStorage

/// Archived tabs (issue 38, migration 0009): unused tabs leave their window's list with their
/// histories, are listed, and come back where they were.
@Suite struct TabArchiveTests {
    /// A store with one window, `text`, whose tabs were last active in 1970 except those in `recent`;
    /// each tab has one page.
    private func seeded(
        _ text: String, recent: Set<String> = [], openers: [String: String] = [:],
        groups: [String: TabGroupVisualData] = [:]
    ) throws -> (TemporaryStore, BrowserID, WebStateListNotation) {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed(text, openers: openers, groups: groups)
        let list = try store.tabs.webStateList(in: browser)
        for webState in list.webStates {
            let name = names.name(of: webState.id) ?? "_"
            try store.histories.commit(NavigationItem(url: "https://example.org/\(name)", title: "Page \(name)"), in: webState.id)
        }
        for name in recent {
            try store.tabs.update(browser) { list in
                _ = try list.setLastActiveAt(Date(), forTabAt: list.index(of: names.webStateID(name))!)
            }
        }
        return (store, browser, names)
    }

    @Test func archive_movesUnusedTabsOut_keepsHistories_andTheWindowListStaysClean() throws {
        let (store, browser, names) = try seeded("p | a b* [ 0 c ] d e", recent: ["d"], openers: ["e": "a"])
        let archive = SQLiteTabArchiveRepository(database: store.database)
        let entriesBefore = try Self.historyRows(store)

        let archived = try archive.archive(olderThan: Date(timeIntervalSinceNow: -3600), in: nil, exempting: ArchiveExemptions())
        #expect(archived.archived == 2)  // a and e: p is pinned, b active, c grouped, d recent
        // Per tab: its archived_tabs row, its tabs row, its tab_pages row dropped and the revision that
        // drop's trigger moves on; e's opener link; then the window's row, and the archive made on
        // first use (its browsers and tab_archives rows, its revision).
        #expect(archived.rowsWritten <= 2 * 4 + 1 + 4, "\(archived)")
        #expect(try store.format(browser, names) == "p | b* [ 0 c ] d")
        // e's opener a was archived: e lost it as on a close, and keeps it as data.
        let tabs = try archive.archivedTabs()
        #expect(tabs.map(\.id) == [names.webStateID("a"), names.webStateID("e")])
        #expect(tabs.map(\.formerIndex) == [1, 5])
        #expect(tabs.map(\.formerBrowser) == [browser, browser])
        #expect(tabs[1].formerOpener == names.webStateID("a"))
        #expect(tabs.map(\.title) == ["Page a", "Page e"])
        // No window shows the archive, and no history row was touched.
        #expect(try store.browsers.browsers().map(\.id) == [browser])
        #expect(try Self.historyRows(store) == entriesBefore)
        #expect(try store.histories.history(of: names.webStateID("a")).items.map(\.title) == ["Page a"])
        // The call zeroes less than other writes (it deletes nothing the store does not keep elsewhere);
        // the connection's setting is back on after it.
        #expect(try store.database.mutate { try Int.fetchOne($0, sql: "PRAGMA secure_delete") } == 1)
        try store.reopen()
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
    }

    @Test func restore_putsTabsBackAtTheirFormerPlaces_withoutTheirOpener() throws {
        let (store, browser, names) = try seeded("| a b* c d", openers: ["c": "a"])
        let archive = SQLiteTabArchiveRepository(database: store.database)
        try archive.archive(olderThan: Date(), in: browser, exempting: ArchiveExemptions())
        #expect(try store.format(browser, names) == "| b*")
        try archive.restore([names.webStateID("c"), names.webStateID("a")], to: nil, placement: .formerPosition)
        #expect(try store.format(browser, names) == "| a b* c")
        #expect(try store.tabs.webStateList(in: browser).webStates.allSatisfy { $0.opener == nil })
        try archive.restore([names.webStateID("d")], to: nil, placement: .end)
        #expect(try store.format(browser, names) == "| a b* c d")
        #expect(try archive.archivedTabs().isEmpty)
        #expect(try store.histories.history(of: names.webStateID("c")).items.map(\.title) == ["Page c"])
        #expect(throws: StorageError.unknownTab(names.webStateID("d").uuidString)) {
            try archive.restore([names.webStateID("d")], to: nil, placement: .end)
        }
        try store.reopen()
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
    }

    @Test func groupedTabs_whenNotExempt_takeTheirGroupsLookAndGetItBack() throws {
        let look = TabGroupVisualData(title: "Trip", color: .cyan)
        let (store, browser, names) = try seeded("| a* [ 0 b c ] d", groups: ["0": look])
        let archive = SQLiteTabArchiveRepository(database: store.database)
        try archive.archive(olderThan: Date(), in: nil, exempting: ArchiveExemptions(grouped: false))
        // The emptied group is deleted; the archive keeps its title and colour.
        #expect(try store.format(browser, names) == "| a*")
        #expect(try store.tabs.webStateList(in: browser).groups.isEmpty)
        #expect(try archive.archivedTabs().compactMap(\.formerGroup) == [
            TabGroup(id: names.groupID("0"), visualData: look), TabGroup(id: names.groupID("0"), visualData: look),
        ])
        try archive.restore([names.webStateID("b"), names.webStateID("c")], to: nil, placement: .formerPosition)
        let list = try store.tabs.webStateList(in: browser)
        #expect(names.format(list) == "| a* [ 0 b c ]")
        #expect(list.groups[names.groupID("0")]?.visualData == look)
    }

    @Test func pinnedTabs_whenNotExempt_areArchivedUnpinned() throws {
        let (store, browser, names) = try seeded("p q | a*")
        let archive = SQLiteTabArchiveRepository(database: store.database)
        try archive.archive(olderThan: Date(), in: nil, exempting: ArchiveExemptions(pinned: false))
        #expect(try store.format(browser, names) == "| a*")
        try archive.restore([names.webStateID("q")], to: browser, placement: .end)
        #expect(try store.format(browser, names) == "| a* q")
    }

    @Test func archivedTabs_keepNoPageRow_theListingReadsTheirPages_andARestoreWritesItBack() throws {
        let (store, browser, names) = try seeded("| a b* c")
        let archive = SQLiteTabArchiveRepository(database: store.database)
        try archive.archive(olderThan: Date(), in: browser, exempting: ArchiveExemptions())
        #expect(try Self.pageRows(store) == ["Page b"])
        #expect(try archive.archivedTabs().map(\.title) == ["Page a", "Page c"])
        #expect(try archive.archivedTabs().map(\.url) == ["https://example.org/a", "https://example.org/c"])
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
        try archive.restore([names.webStateID("c")], to: nil, placement: .formerPosition)
        #expect(try Self.pageRows(store) == ["Page b", "Page c"])
        #expect(try store.tabs.snapshot(of: browser).pages[names.webStateID("c")]?.title == "Page c")
        // A row an older binary wrote back (its triggers do, when it navigates the tab) is no problem.
        try store.database.mutate { db in
            try db.execute(sql: """
                INSERT INTO tab_pages (tab_id, title, url) VALUES (?, 'Page a', 'https://example.org/a')
                """, arguments: [names.webStateID("a").uuidString])
        }
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
        try archive.restore([names.webStateID("a")], to: nil, placement: .formerPosition)
        #expect(try store.format(browser, names) == "| a b* c")
        #expect(try Self.pageRows(store) == ["Page a", "Page b", "Page c"])
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
    }

    @Test func archivingMostOfAWindow_gathersItsRemainingRows_inListOrder_afterTheArchivedOnes() throws {
        let (store, browser, names) = try seeded("| a b c d* e f g h", recent: ["c", "g"])
        let archive = SQLiteTabArchiveRepository(database: store.database)
        try archive.archive(olderThan: Date(timeIntervalSinceNow: -3600), in: browser, exempting: ArchiveExemptions())
        #expect(try store.format(browser, names) == "| c d* g")
        let (window, archived) = try store.database.read { db in
            (try Int64.fetchAll(db, sql: "SELECT rowid FROM tabs WHERE browser_id = ? ORDER BY sort_key",
                                arguments: [browser.uuidString]),
             try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM tabs WHERE browser_id <> ?", arguments: [browser.uuidString]))
        }
        #expect(window == window.sorted() && window.first! > archived!, "\(window), archived up to \(archived!)")
        // A small archive leaves the rows where they are.
        try store.tabs.update(browser) { list in _ = try list.setLastActiveAt(Date(timeIntervalSince1970: 0), forTabAt: 2) }
        try archive.archive(olderThan: Date(timeIntervalSinceNow: -3600), in: browser, exempting: ArchiveExemptions())
        #expect(try store.format(browser, names) == "| c d*")
        #expect(try store.database.read { db in
            try Int64.fetchAll(db, sql: "SELECT rowid FROM tabs WHERE browser_id = ? ORDER BY sort_key",
                               arguments: [browser.uuidString])
        } == Array(window.prefix(2)))
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
    }

    @Test func search_findsArchivedAndSavedTabs_andSaysWhereTheyAre() throws {
        let (store, browser, names) = try seeded("| a* b [ 0 c ]", recent: ["a", "c"])
        try store.histories.commit(NavigationItem(url: "https://example.org/heron", title: "Heron b"), in: names.webStateID("b"))
        try store.histories.commit(NavigationItem(url: "https://example.org/heron-c", title: "Heron c"), in: names.webStateID("c"))
        try SQLiteTabArchiveRepository(database: store.database).archive(
            olderThan: Date(timeIntervalSinceNow: -3600), in: browser, exempting: ArchiveExemptions())
        try SQLiteSavedTabGroupRepository(database: store.database).saveAndClose(names.groupID("0"), in: browser)
        #expect(try store.format(browser, names) == "| a*")
        let matches = try SQLiteTabSearchRepository(database: store.database).searchTabs("heron", includingClosed: false, limit: 10)
        #expect(Set(matches.map(\.tab)) == [names.webStateID("b"), names.webStateID("c")])
        let b = try #require(matches.first { $0.tab == names.webStateID("b") })
        #expect(b.isArchived && b.savedGroup == nil && b.browser == nil && b.index == nil && !b.isOpen)
        let c = try #require(matches.first { $0.tab == names.webStateID("c") })
        #expect(!c.isArchived && c.savedGroup == names.groupID("0") && c.browser == nil && !c.isOpen)
    }

    /// The titles in `tab_pages`, in title order.
    private static func pageRows(_ store: TemporaryStore) throws -> [String] {
        try store.database.read { db in try String.fetchAll(db, sql: "SELECT title FROM tab_pages ORDER BY title") }
    }

    /// Every history row, to show archiving writes none.
    private static func historyRows(_ store: TemporaryStore) throws -> [String] {
        try store.database.read { db in
            try String.fetchAll(db, sql: """
                SELECT id || ' ' || tab_id || ' ' || sequence || ' ' || url FROM navigation_entries ORDER BY id
                """)
        }
    }
}
