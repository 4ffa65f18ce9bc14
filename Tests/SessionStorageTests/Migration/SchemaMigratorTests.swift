import Foundation
import GRDB
import SessionTestSupport
import Testing
@testable import SessionStorage

@Suite struct SchemaMigratorTests {
    private func permissions(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue
    }

    @Test func migrate_newFile_createsPrivateWALStoreWithApplicationID() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let report = try SessionStoreFile.migrate(atPath: path)
            #expect(report.created)
            #expect(report.migrations == EmbeddedMigration.all.map(\.identifier))
            #expect(report.backupPath == nil)
            #expect(try permissions(path) == 0o600)
            let status = try SessionStoreFile.status(atPath: path)
            #expect(status.applicationID == SchemaMigrator.applicationID)
            #expect(status.journalMode == "wal")
            #expect(status.pending.isEmpty)
            #expect(status.counts?.tabs == 0)
        }
    }

    @Test func migrate_twice_appliesNothingAndWritesNoBackup() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            try SessionStoreFile.migrate(atPath: path)
            let before = fileBytes(path)
            let again = try SessionStoreFile.migrate(atPath: path)
            #expect(!again.created)
            #expect(again.migrations.isEmpty)
            #expect(again.backupPath == nil)
            #expect(fileBytes(path) == before)
        }
    }

    @Test func migrate_dryRun_onMissingFile_createsNothing() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let report = try SessionStoreFile.migrate(atPath: path, dryRun: true)
            #expect(report.created)
            #expect(report.migrations == EmbeddedMigration.all.map(\.identifier))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        }
    }

    @Test func migrate_withoutCreate_onMissingFile_throwsFileNotFound() throws {
        try TemporaryDirectory.with { dir in
            var configuration = SessionDatabase.Configuration()
            configuration.createIfMissing = false
            #expect(throws: StorageError.fileNotFound(path: dir.file("s.sqlite"))) {
                try SessionStoreFile.migrate(atPath: dir.file("s.sqlite"), configuration: configuration)
            }
        }
    }

    /// Each refused file, planted with plain SQL, and the error it must give.
    enum Refusal: String, CaseIterable, CustomStringConvertible {
        case garbage, foreignApplicationID, foreignTables, newerSchema, checksumTampered
        var description: String { rawValue }
    }

    private func plant(_ refusal: Refusal, at path: String) throws {
        switch refusal {
        case .garbage:
            try Data("this is not a database, just text\n".utf8).write(to: URL(fileURLWithPath: path))
        case .foreignApplicationID:
            try PlainSQLite.execute("PRAGMA application_id = 42; CREATE TABLE t(x)", atPath: path)
        case .foreignTables:
            try PlainSQLite.execute("CREATE TABLE contacts(name TEXT); INSERT INTO contacts VALUES ('a')", atPath: path)
        case .newerSchema:
            try SessionStoreFile.migrate(atPath: path)
            try PlainSQLite.execute("INSERT INTO grdb_migrations VALUES ('9999_from_the_future')", atPath: path)
        case .checksumTampered:
            try SessionStoreFile.migrate(atPath: path)
            try PlainSQLite.execute("UPDATE schema_migrations SET checksum = 'bad'", atPath: path)
        }
    }

    private func expectedError(_ refusal: Refusal, path: String) -> StorageError {
        switch refusal {
        case .garbage:
            .notASessionStore(path: path, reason: "it is not a SQLite database")
        case .foreignApplicationID:
            .notASessionStore(path: path, reason: "its application id 42 belongs to another application")
        case .foreignTables:
            .notASessionStore(path: path, reason: "it holds tables but no record of session store migrations")
        case .newerSchema:
            .databaseNewerThanBinary(
                path: path, applied: "9999_from_the_future", known: EmbeddedMigration.all.last!.identifier)
        case .checksumTampered:
            .migrationChecksumMismatch(path: path, identifier: "0001_create_session_schema")
        }
    }

    @Test(arguments: Refusal.allCases)
    func migrateAndOpen_refusedFile_throwsAndLeavesFileByteIdentical(_ refusal: Refusal) throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            try plant(refusal, at: path)
            let before = try #require(fileBytes(path))
            let expected = expectedError(refusal, path: path)
            #expect(throws: expected) { try SessionStoreFile.migrate(atPath: path) }
            #expect(throws: expected) { try SessionStoreFile.migrate(atPath: path, dryRun: true) }
            #expect(throws: expected) { try SessionDatabase.open(atPath: path) }
            if refusal == .newerSchema {
                // A newer schema is refused for writing only: its status is read, and says so.
                #expect(try SessionStoreFile.status(atPath: path).writable == false)
            } else {
                #expect(throws: expected) { try SessionStoreFile.status(atPath: path) }
            }
            #expect(fileBytes(path) == before)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path)
                .filter { $0.hasSuffix(".backup") }
            #expect(leftovers.isEmpty)
        }
    }

    @Test func migrate_pendingOnNonEmptyStore_writesOpenableBackupFirst() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let first = Array(EmbeddedMigration.all.prefix(1))
            let extra = EmbeddedMigration(identifier: "0002_test_extra", sql: "CREATE TABLE test_extra(x);")
            try SessionStoreFile.migrate(
                atPath: path, configuration: .init(), dryRun: false, migrator: SchemaMigrator(migrations: first))
            try PlainSQLite.execute(
                "INSERT INTO browsers(id, created_at, last_active_at) VALUES (?, '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')",
                arguments: [UUID().uuidString.lowercased()], atPath: path)

            let report = try SessionStoreFile.migrate(
                atPath: path, configuration: .init(), dryRun: false,
                migrator: SchemaMigrator(migrations: first + [extra]))
            #expect(report.migrations == ["0002_test_extra"])
            let backup = try #require(report.backupPath)
            #expect(backup.hasPrefix(path + ".0001_create_session_schema."))
            #expect(try permissions(backup) == 0o600)
            #expect(try PlainSQLite.strings("SELECT count(*) FROM browsers", atPath: backup) == ["1"])
            #expect(try PlainSQLite.strings("SELECT identifier FROM grdb_migrations", atPath: backup)
                == ["0001_create_session_schema"])
            #expect(try PlainSQLite.strings("SELECT identifier FROM grdb_migrations ORDER BY 1", atPath: path)
                == ["0001_create_session_schema", "0002_test_extra"])
        }
    }

    @Test func migrate_failingMigration_namesItAndLeavesFileByteIdentical() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            try SessionStoreFile.migrate(atPath: path)
            let before = try #require(fileBytes(path))
            let broken = EmbeddedMigration(
                identifier: "0002_broken",
                sql: "CREATE TABLE half_done(x); INSERT INTO no_such_table VALUES (1);")
            var configuration = SessionDatabase.Configuration()
            configuration.backupBeforeMigrating = false
            #expect {
                try SessionStoreFile.migrate(
                    atPath: path, configuration: configuration, dryRun: false,
                    migrator: SchemaMigrator(migrations: EmbeddedMigration.all + [broken]))
            } throws: { error in
                guard case .migrationFailed(path, "0002_broken", let reason) = error as? StorageError else { return false }
                return reason.contains("no_such_table")
            }
            #expect(fileBytes(path) == before)
            #expect(try PlainSQLite.strings("SELECT name FROM sqlite_master WHERE name = 'half_done'", atPath: path).isEmpty)
        }
    }

    @Test func migrate_failingFirstMigrationOnNewFile_leavesNoFile() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let broken = EmbeddedMigration(identifier: "0001_broken", sql: "CREATE TABLE (")
            try #require(!FileManager.default.fileExists(atPath: path))
            #expect(throws: StorageError.self) {
                try SessionStoreFile.migrate(
                    atPath: path, configuration: .init(), dryRun: false,
                    migrator: SchemaMigrator(migrations: [broken]))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        }
    }

    @Test func open_migratesThroughTheSameCode_andInMemoryTouchesNoFile() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let database = try SessionDatabase.open(atPath: path)
            #expect(database.path == path)
            let applied = try database.writer.read { try SchemaMigrator().status($0, path: path) }
            #expect(applied.isCurrent)
            #expect(try database.writer.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } == true)
            #expect(try database.writer.read { try Int.fetchOne($0, sql: "PRAGMA secure_delete") } == 1)

            let memory = try SessionDatabase.inMemory()
            #expect(memory.path == nil)
            #expect(try memory.writer.read { try SchemaMigrator().status($0, path: ":memory:") }.isCurrent)
        }
    }
}

extension EmbeddedMigration {
    /// A migration made by a test, not by the build plugin: its checksum only has to be its own.
    init(identifier: String, sql: String) {
        self.init(identifier: identifier, checksum: "test-\(identifier)-\(sql.utf8.count)", sql: sql)
    }
}
