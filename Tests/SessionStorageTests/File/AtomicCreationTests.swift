import Dispatch
import Foundation
import SessionModel
@testable import SessionStorage
import SessionTestSupport
import Testing

/// A new store appears all at once, and a store of ours left half-made by an
/// older version is finished rather than refused.
@Suite struct AtomicCreationTests {
    /// GRDB's migrator creates `grdb_migrations` in autocommit, before the first
    /// migration's transaction: a process killed in between left this file.
    @Test func halfMadeStore_holdingOnlyAnEmptyGRDBTable_isFinishedByOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("half.sqlite")
        try PlainSQLite.execute(
            "PRAGMA journal_mode=WAL; CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
            atPath: path)
        #expect(try SessionStoreFile.status(atPath: path).pending == EmbeddedMigration.all.map(\.identifier))
        let database = try SessionDatabase.open(atPath: path)
        let browser = try SQLiteBrowserRepository(database: database).createBrowser()
        try database.close()
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
        let reopened = try SessionDatabase.open(atPath: path)
        #expect(try SQLiteBrowserRepository(database: reopened).browsers().map(\.id) == [browser.id])
        try reopened.close()
    }

    /// A table of someone else's next to `grdb_migrations` is still not ours.
    @Test func foreignDatabase_withAGRDBTable_isStillRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("foreign.sqlite")
        try PlainSQLite.execute(
            "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY); CREATE TABLE notes (x)",
            atPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StorageError.self) { try SessionDatabase.open(atPath: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// Two creations of one new path at once (two threads of one process): both open the same sound store.
    @Test func twoCreationsOfOnePath_atOnce_bothOpenOneSoundStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("both.sqlite")
        let failures = Protected<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let database = try SessionDatabase.open(atPath: path)
                    _ = try SQLiteBrowserRepository(database: database).createBrowser()
                    try database.close()
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
        let database = try SessionDatabase.openReadOnly(atPath: path)
        #expect(try SQLiteBrowserRepository(database: database).browsers().count == 2)
        try database.close()
        #expect(try filesBelow(directory.path).filter { $0.contains(".creating-") }.isEmpty)
    }

    /// The store is made beside the path and linked into place: nothing is left
    /// beside it, and a leftover from a creator that died is cleared.
    @Test func create_leavesOnlyTheStore_andClearsADeadCreatorsLeftover() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("new.sqlite")
        // A process that no longer exists: a PID above the kernel's maximum.
        let leftover = path + ".creating-99999999"
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data("half".utf8)))
        let report = try SessionStoreFile.migrate(atPath: path)
        #expect(report.created)
        #expect(report.migrations == EmbeddedMigration.all.map(\.identifier))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["new.sqlite"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
    }
}
