import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Tests that a store migrated by a newer binary stays usable by an older one
/// when the newer migrations are additive, and is refused for writing (but
/// still read) when one is not. An older binary is this one with its migrator
/// cut at N (`Configuration.knownMigrationCount`).
@Suite struct SchemaCompatibilityTests {
    /// Every N at which an older binary can use the newest store: every migration after the N-th is additive.
    static let compatibleCuts: [Int] = (1..<EmbeddedMigration.all.count).filter { cut in
        EmbeddedMigration.all[cut...].allSatisfy { $0.compatibility == .additive }
    }

    private func older(_ cut: Int) -> SessionDatabase.Configuration {
        var configuration = SessionDatabase.Configuration()
        configuration.knownMigrationCount = cut
        return configuration
    }

    @Test func everyMigration_declaresItsCompatibility() {
        let declared = EmbeddedMigration.all.map { ($0.identifier, $0.compatibility) }
        #expect(declared.first?.1 == .base)
        #expect(declared.dropFirst().allSatisfy { $0.1 != .base })
        for migration in EmbeddedMigration.all.dropFirst() {
            #expect(migration.sql.contains("\n-- compatibility: \(migration.compatibility.rawValue)"),
                    "\(migration.identifier) has no `-- compatibility:` line")
        }
        // The first schema is never edited: every store made since its release records this checksum.
        #expect(EmbeddedMigration.all.first?.checksum == "c25e924c4a5c0680ab767de398c6cd01cbc9194bac99fe9ef8f3a06afa06faf1")
        // The migrations so far, and what they declare.
        #expect(declared.map { "\($0.0) \($0.1)" } == [
            "0001_create_session_schema base", "0002_tab_search additive", "0003_tab_pages additive",
            "0004_sync additive", "0005_sync_commands additive", "0006_browser_sources additive",
            "0007_sync_record_floors additive", "0008_tab_splits additive",
            "0009_tab_archive additive", "0010_saved_tab_groups additive", "0011_sync_archived_tabs additive",
            "0012_sync_saved_groups additive",
        ])
        #expect(Self.compatibleCuts == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    }

    /// The newest store, written through a binary that knows only the first `cut` migrations,
    /// then read by the newest binary: the older binary's writes are whole, the derived search
    /// index is in step (its triggers ran whoever wrote), and `check` is clean for both.
    @Test(arguments: compatibleCuts)
    func olderBinary_writesTheNewestStore_andTheNewestBinarySeesItsWrites(cut: Int) throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let newest = try SessionDatabase.open(atPath: path)
            let kept = try SQLiteBrowserRepository(database: newest).createBrowser().id
            try newest.close()

            let status = try SessionStoreFile.status(atPath: path, configuration: older(cut))
            #expect(status.newer == EmbeddedMigration.all[cut...].map(\.identifier))
            #expect(status.writable && status.pending.isEmpty)
            #expect(status.oldestCompatibleVersion == EmbeddedMigration.all[0].identifier)

            // The older binary writes: a window, tabs, histories, a pin, a group, a closed tab.
            let database = try SessionDatabase.open(atPath: path, configuration: older(cut))
            let browsers = SQLiteBrowserRepository(database: database)
            let tabs = SQLiteWebStateListRepository(database: database)
            let histories = SQLiteNavigationHistoryRepository(database: database)
            let browser = try browsers.createBrowser().id
            let a = WebState(), b = WebState(), c = WebState()
            for tab in [a, b, c] { try tabs.insert(tab, in: browser, params: .automatic().activate()) }
            try histories.commit(NavigationItem(url: "https://older.example/one", title: "Pelican one"), in: a.id)
            try histories.commit(NavigationItem(url: "https://older.example/two", title: "Heron two"), in: a.id)
            try histories.goBack(in: a.id)
            try histories.commit(NavigationItem(url: "https://older.example/kite", title: "Kite page"), in: b.id)
            try histories.commit(NavigationItem(url: "https://older.example/gull", title: "Gull page"), in: c.id)
            try tabs.setPinned(true, in: browser, at: 2)
            try tabs.update(browser) { list in _ = try list.createGroup(at: [2], visualData: TabGroupVisualData(title: "Birds", color: .green)) }
            try tabs.close(in: browser, at: 0)  // the pinned gull tab goes to recently closed
            try database.close()
            let problems = try SessionStoreFile.check(atPath: path, configuration: older(cut))
            #expect(problems == [], "\(problems)")

            // The newest binary: everything there, search in step, check clean.
            #expect(try SessionStoreFile.check(atPath: path) == [])
            let reopened = try SessionDatabase.open(atPath: path)
            defer { try? reopened.close() }
            #expect(Set(try SQLiteBrowserRepository(database: reopened).browsers().map(\.id)) == [kept, browser])
            let search = SQLiteTabSearchRepository(database: reopened)
            #expect(try search.searchTabs("pelican", includingClosed: false, limit: 10).map(\.tab) == [a.id])
            #expect(try search.searchTabs("heron", includingClosed: true, limit: 10).isEmpty)  // went back from it
            #expect(try search.searchTabs("kite", includingClosed: false, limit: 10).map(\.tab) == [b.id])
            #expect(try search.searchTabs("gull", includingClosed: false, limit: 10).isEmpty)
            #expect(try search.searchTabs("gull", includingClosed: true, limit: 10).map(\.tab) == [c.id])
        }
    }

    /// Makes the store at `path` as a newer binary would: every migration, then `identifier`.
    private func migrateAsANewerBinary(_ path: String, _ identifier: String, _ sql: String) throws {
        try SessionStoreFile.migrate(
            atPath: path, configuration: .init(), dryRun: false,
            migrator: SchemaMigrator(migrations: EmbeddedMigration.all + [EmbeddedMigration(identifier: identifier, sql: sql)]))
    }

    /// A newer binary's additive migration (a table of its own): this binary reads and
    /// writes the store and its `check` leaves that table alone.
    @Test func newerAdditiveMigration_isReadAndWritten_andCheckLeavesItsObjectsAlone() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            try migrateAsANewerBinary(
                path, "0099_test_future_outbox",
                "-- compatibility: additive\nCREATE TABLE future_outbox (id INTEGER PRIMARY KEY, record TEXT);")
            let status = try SessionStoreFile.status(atPath: path)
            #expect(status.newer == ["0099_test_future_outbox"] && status.writable)
            let database = try SessionDatabase.open(atPath: path)
            let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
            try SQLiteWebStateListRepository(database: database).insert(WebState(), in: browser, params: .automatic())
            try database.close()
            #expect(try SessionStoreFile.check(atPath: path) == [])
        }
    }

    /// A newer binary's breaking migration: writing is refused with a typed error naming
    /// the version needed, the file is left as it was, and reading still works.
    @Test func newerBreakingMigration_refusesWriting_withTheVersionNeeded_butReads() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            try migrateAsANewerBinary(path, "0099_test_breaking", "-- compatibility: breaking\nCREATE TABLE future_rules (x);")
            let made = try SessionDatabase.openReadOnly(atPath: path)
            try made.close()
            let before = fileBytes(path)
            let last = try #require(EmbeddedMigration.all.last).identifier
            #expect(throws: StorageError.databaseNewerThanBinary(path: path, applied: "0099_test_breaking", known: last)) {
                try SessionDatabase.open(atPath: path)
            }
            #expect(throws: StorageError.databaseNewerThanBinary(path: path, applied: "0099_test_breaking", known: last)) {
                try SessionStoreFile.migrate(atPath: path)
            }
            #expect(fileBytes(path) == before)
            let status = try SessionStoreFile.status(atPath: path)
            #expect(!status.writable && status.oldestCompatibleVersion == "0099_test_breaking")
            let reader = try SessionDatabase.openReadOnly(atPath: path)
            defer { try? reader.close() }
            #expect(try SQLiteBrowserRepository(database: reader).browsers().isEmpty)
        }
    }
}
