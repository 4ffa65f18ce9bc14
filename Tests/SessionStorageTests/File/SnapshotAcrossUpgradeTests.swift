import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Snapshots outlive upgrades: one taken by an older binary, before its
/// migrations ran, is restored by a newer one (migrated on a temporary copy).
@Suite struct SnapshotAcrossUpgradeTests {
    @Test func snapshotOfAnOlderSchema_isRestored_afterTheUpgrade() throws {
        try TemporaryDirectory.with { directory in
            let path = directory.file("s.sqlite")
            var older = SessionDatabase.Configuration()
            older.knownMigrationCount = 1
            let before = try SessionDatabase.open(atPath: path, configuration: older)
            let browser = try SQLiteBrowserRepository(database: before).createBrowser()
            let tabs = SQLiteWebStateListRepository(database: before)
            for _ in 0..<3 { try tabs.insert(in: browser.id, params: .automatic().activate()) }
            let snapshot = try #require(try before.takeSnapshot())
            try before.close()

            // The newer binary migrates the store; then the tabs go.
            let database = try SessionDatabase.open(atPath: path)
            let repository = SQLiteWebStateListRepository(database: database)
            for _ in 0..<3 { try repository.close(in: browser.id, at: 0) }
            #expect(try repository.webStateList(in: browser.id).count == 0)
            try SessionStoreFile.checkRestorable(snapshot, configuration: .init())
            try database.restoreSnapshot(named: snapshot.name)
            #expect(try repository.webStateList(in: browser.id).count == 3)
            try database.close()
            #expect(try SessionStoreFile.check(atPath: path).isEmpty)
            // The snapshot itself is untouched: still at the older schema, and nothing lies beside it.
            let folder = try FileManager.default.contentsOfDirectory(atPath: path + ".snapshots")
            #expect(folder.allSatisfy { $0.hasSuffix(".sqlite") }, "\(folder)")
        }
    }
}
