import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Tests that the search index follows every tab's current page through the
/// repositories, finds open and closed tabs with their place, and fills itself
/// for a store made before it existed.
@Suite struct TabSearchTests {
    private func item(_ title: String, _ url: String) -> NavigationItem {
        NavigationItem(url: url, title: title)
    }

    @Test func search_findsOpenTabsByWordPrefix_withBrowserAndIndex() throws {
        let store = try TemporaryStore.onDisk()
        let search = SQLiteTabSearchRepository(database: store.database)
        let (browser, names) = try store.seed("| a b* c")
        try store.histories.commit(item("GitHub Docs", "https://docs.github.com/en"), in: names.webStateID("a"))
        try store.histories.commit(item("Crème brûlée recipe", "https://cooking.example/creme"), in: names.webStateID("c"))
        try store.histories.commit(item("Weather", "https://weather.example/"), in: names.webStateID("b"))

        let hub = try search.searchTabs("git doc", includingClosed: false, limit: 10)
        #expect(hub.map(\.tab) == [names.webStateID("a")])
        #expect(hub.first?.browser == browser && hub.first?.index == 0 && hub.first?.closedEntry == nil)
        #expect(hub.first?.title == "GitHub Docs" && hub.first?.url == "https://docs.github.com/en")
        // Case and diacritics are ignored; a URL's words count; a word must start a word.
        #expect(try search.searchTabs("CREME", includingClosed: false, limit: 10).map(\.index) == [2])
        #expect(try search.searchTabs("cooking", includingClosed: false, limit: 10).map(\.index) == [2])
        #expect(try search.searchTabs("eather", includingClosed: false, limit: 10).isEmpty)
        // No character a person types is FTS5 syntax.
        for query in ["\"", "a*b(", "NEAR(", "-x", "title:weather", "   ", ""] {
            #expect(throws: Never.self) { try search.searchTabs(query, includingClosed: true, limit: 10) }
        }
        // Punctuation separates words, as in the index: "docs.github" is two words.
        #expect(try search.searchTabs("docs.github", includingClosed: false, limit: 10).map(\.index) == [0])
    }

    @Test func index_followsNavigationBackAndForward_andMoves() throws {
        let store = try TemporaryStore.onDisk()
        let search = SQLiteTabSearchRepository(database: store.database)
        let (_, names) = try store.seed("| a* b")
        let tab = names.webStateID("b")
        try store.histories.commit(item("First page", "https://one.example/"), in: tab)
        try store.histories.commit(item("Second page", "https://two.example/"), in: tab)
        #expect(try search.searchTabs("first", includingClosed: true, limit: 10).isEmpty)
        #expect(try search.searchTabs("second", includingClosed: false, limit: 10).map(\.tab) == [tab])
        try store.histories.goBack(in: tab)
        #expect(try search.searchTabs("first", includingClosed: false, limit: 10).map(\.tab) == [tab])
        #expect(try search.searchTabs("second", includingClosed: true, limit: 10).isEmpty)
        try store.tabs.move(in: try #require(store.browsers.browsers().first).id, from: 1, to: 0)
        #expect(try search.searchTabs("first", includingClosed: false, limit: 10).map(\.index) == [0])
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
    }

    @Test func closedTabs_areFoundOnlyWhenAsked_andOpenAgainOnceRestored() throws {
        let store = try TemporaryStore.onDisk()
        let search = SQLiteTabSearchRepository(database: store.database)
        let (browser, names) = try store.seed("| a* b")
        let tab = names.webStateID("b")
        try store.histories.commit(item("Quarterly report", "https://files.example/q3"), in: tab)
        try store.tabs.close(in: browser, at: 1)
        #expect(try search.searchTabs("quarterly", includingClosed: false, limit: 10).isEmpty)
        let closed = try search.searchTabs("quarterly", includingClosed: true, limit: 10)
        let entry = try #require(SQLiteRecentlyClosedRepository(database: store.database).entries().first)
        #expect(closed.map(\.tab) == [tab])
        #expect(closed.first?.closedEntry == entry.id && closed.first?.browser == nil && closed.first?.index == nil)
        _ = try SQLiteRecentlyClosedRepository(database: store.database).restore(entry.id)
        let reopened = try search.searchTabs("quarterly", includingClosed: false, limit: 10)
        #expect(reopened.map(\.tab) == [tab] && reopened.first?.browser == browser)
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
    }

    @Test func limit_andRanking_titleWordsWeighMore() throws {
        let store = try TemporaryStore.onDisk()
        let search = SQLiteTabSearchRepository(database: store.database)
        let (_, names) = try store.seed("| a* b c")
        try store.histories.commit(item("Unrelated", "https://kiwi.example/"), in: names.webStateID("a"))
        try store.histories.commit(item("Kiwi", "https://fruit.example/"), in: names.webStateID("b"))
        try store.histories.commit(item("Other", "https://other.example/"), in: names.webStateID("c"))
        let matches = try search.searchTabs("kiwi", includingClosed: false, limit: 10)
        #expect(matches.map(\.tab) == [names.webStateID("b"), names.webStateID("a")])
        #expect(matches[0].rank <= matches[1].rank)
        #expect(try search.searchTabs("kiwi", includingClosed: false, limit: 1).count == 1)
        #expect(try search.searchTabs("kiwi", includingClosed: false, limit: 0).isEmpty)
    }

    /// A store made by the first schema only is indexed whole by the search migration.
    @Test func migration_indexesAStoreMadeBeforeIt() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("old.sqlite")
            let first = Array(EmbeddedMigration.all.prefix(1))
            try SessionStoreFile.migrate(
                atPath: path, configuration: .init(), dryRun: false, migrator: SchemaMigrator(migrations: first))
            let tabID = UUID().uuidString.lowercased(), browserID = UUID().uuidString.lowercased()
            try PlainSQLite.execute("""
                INSERT INTO browsers (id, created_at, last_active_at) VALUES ('\(browserID)', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000');
                INSERT INTO tabs (id, browser_id, sort_key, current_entry_index, created_at, last_active_at)
                    VALUES ('\(tabID)', '\(browserID)', 0, 1, '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000');
                INSERT INTO navigation_entries (tab_id, sequence, url, title, timestamp) VALUES
                    ('\(tabID)', 0, 'https://old.example/', 'Older page', '2026-01-01 00:00:00.000'),
                    ('\(tabID)', 1, 'https://new.example/', 'Pelican briefing', '2026-01-01 00:00:01.000');
                """, atPath: path)
            let database = try SessionDatabase.open(atPath: path)
            defer { try? database.close() }
            let search = SQLiteTabSearchRepository(database: database)
            #expect(try search.searchTabs("pelican", includingClosed: false, limit: 10).map(\.tab.uuidString) == [tabID])
            #expect(try search.searchTabs("older", includingClosed: true, limit: 10).isEmpty)
            #expect(try SessionStoreFile.check(atPath: path) == [])
        }
    }

    /// `INSERT OR REPLACE INTO tabs` for an existing tab (a REPLACE deletes the old row
    /// without firing delete triggers) leaves the content table and the FTS5 index in step.
    @Test func replaceIntoTabs_byAPlainWriter_keepsTheFullTextIndexInStep() throws {
        let store = try TemporaryStore.onDisk()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        try store.histories.commit(item("Osprey nest", "https://osprey.example/"), in: tab)
        let path = try #require(store.path)
        try store.database.close()
        try PlainSQLite.execute("""
            INSERT OR REPLACE INTO tabs (id, browser_id, sort_key, is_pinned, group_id, current_entry_index, history_start, created_at, last_active_at)
            SELECT id, browser_id, sort_key, is_pinned, group_id, current_entry_index, history_start, created_at, last_active_at
            FROM tabs WHERE id = '\(tab.uuidString)'
            """, atPath: path)
        #expect(try PlainSQLite.strings("SELECT count(*) FROM tab_search_docsize", atPath: path) == ["1"])
        #expect(try SessionStoreFile.check(atPath: path) == [])
        try store.reopen()
        let search = SQLiteTabSearchRepository(database: store.database)
        #expect(try search.searchTabs("osprey", includingClosed: false, limit: 10).map(\.tab) == [tab])
    }

    /// A writer that bypasses the library (here `sqlite3`-style SQL) keeps the index
    /// right through the triggers; a row removed behind the triggers' back is named by `check`.
    @Test func plainSQLWriters_keepTheIndex_andCheckNamesAGap() throws {
        let store = try TemporaryStore.onDisk()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        try store.histories.commit(item("Before", "https://before.example/"), in: tab)
        let path = try #require(store.path)
        try store.database.close()
        try PlainSQLite.execute(
            "UPDATE navigation_entries SET title = 'Renamed by hand' WHERE tab_id = '\(tab.uuidString)'", atPath: path)
        try store.reopen()
        let search = SQLiteTabSearchRepository(database: store.database)
        #expect(try search.searchTabs("renamed", includingClosed: false, limit: 10).map(\.tab) == [tab])
        #expect(try SessionStoreFile.check(atPath: path) == [])
        try store.database.close()
        try PlainSQLite.execute("DROP TRIGGER tab_search_after_tab_delete; DELETE FROM tab_search_pages", atPath: path)
        let problems = try SessionStoreFile.check(atPath: path)
        #expect(problems.contains { $0.check == "search" && $0.message == "is missing from the search index." })
    }
}
