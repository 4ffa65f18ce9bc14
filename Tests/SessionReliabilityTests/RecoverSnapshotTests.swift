import Foundation
import GRDB
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// `recover` that keeps fewer tabs than the damaged store held snapshots what
/// SQLite still reads of it first, in the store's own folder (issue 35).
@Suite struct RecoverSnapshotTests {
    @Test func recoverKeepingFewerTabs_snapshotsTheOriginal_andLeavesNoFileBesideIt() throws {
        try TemporaryDirectory.with { directory in
            let source = directory.file("s.sqlite")
            let database = try SessionDatabase.open(atPath: source)
            let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
            let tabs = SQLiteWebStateListRepository(database: database)
            for _ in 0..<4 { _ = try tabs.insert(in: browser, params: .automatic().activate()) }
            try database.close()
            // A tab row whose identifier breaks the schema's rule: recover cannot keep it.
            try DatabaseQueue(path: source).writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA ignore_check_constraints = ON; PRAGMA foreign_keys = OFF")
                try db.execute(sql: "UPDATE tabs SET id = 'bad' WHERE rowid = (SELECT min(rowid) FROM tabs)")
            }
            let beside = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))

            let report = try SessionStoreFile.recover(from: source, to: directory.file("r.sqlite"))
            #expect(report.tabsRecovered == 3)
            let name = try #require(report.sourceSnapshot)
            let snapshot = try #require(try SessionStoreFile.snapshots(atPath: source).first { $0.name == name })
            #expect(snapshot.tabCount == 4 && snapshot.isBeforeOperation && !snapshot.isForeign)
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) == beside.union(["r.sqlite"]))

            // The output is the same store: it keeps the source's identity, so the snapshot is its own.
            let identity = try #require(SessionStoreFile.storeIdentity(atPath: source))
            #expect(SessionStoreFile.storeIdentity(atPath: directory.file("r.sqlite")) == identity)
            #expect(snapshot.storeID == identity)

            // Within the snapshot interval, a second recover takes none.
            let again = try SessionStoreFile.recover(from: source, to: directory.file("r2.sqlite"))
            #expect(again.sourceSnapshot == nil)
        }
    }
}
