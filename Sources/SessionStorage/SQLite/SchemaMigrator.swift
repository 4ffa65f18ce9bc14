import Foundation
internal import GRDB

/// Applies `Migrations/` to a database and checks where its schema stands.
///
/// Wraps GRDB's `DatabaseMigrator`: each migration runs in one transaction that
/// executes its SQL, sets `PRAGMA application_id`, and records the SQL's checksum
/// in `schema_migrations`. A failing migration rolls back and leaves the file as
/// it was. Before anything is applied, ``status(_:path:)`` refuses a database of
/// another application, a newer one, and one whose applied SQL was altered:
/// GRDB's migrator alone would treat a newer database as "nothing to do".
struct SchemaMigrator: Sendable {
    /// `PRAGMA application_id` of every session store: "SESS" in ASCII.
    static let applicationID: Int32 = 0x5345_5353

    /// The bookkeeping table that records each applied migration's checksum.
    static let checksumTable = "schema_migrations"

    let migrations: [EmbeddedMigration]

    /// A migrator for the given migrations (by default, every embedded one).
    init(migrations: [EmbeddedMigration] = EmbeddedMigration.all) {
        self.migrations = migrations
    }

    private var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            let checksum = migration.checksum
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: migration.sql)
                // The value is this package's constant, never user input.
                try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        identifier TEXT PRIMARY KEY NOT NULL,
                        checksum TEXT NOT NULL,
                        applied_at TEXT NOT NULL)
                    """)
                try db.execute(
                    sql: """
                        INSERT INTO schema_migrations (identifier, checksum, applied_at)
                        VALUES (?, ?, strftime('%Y-%m-%d %H:%M:%f', 'now'))
                        """,
                    arguments: [migration.identifier, checksum])
            }
        }
        return migrator
    }

    /// Reads where the schema stands, refusing a database this binary must not touch.
    ///
    /// - Throws: ``StorageError/notASessionStore(path:reason:)`` for another
    ///   application's database, ``StorageError/databaseNewerThanBinary(path:applied:known:)``
    ///   when a migration unknown to this binary was applied, and
    ///   ``StorageError/migrationChecksumMismatch(path:identifier:)`` when an applied
    ///   migration's SQL differs from this binary's.
    func status(_ db: Database, path: String) throws -> SchemaStatus {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if applicationID != 0 && applicationID != Self.applicationID {
            throw StorageError.notASessionStore(
                path: path, reason: "its application id \(applicationID) belongs to another application")
        }
        let tables = try String.fetchSet(
            db, sql: "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        let hasRecords = tables.contains("grdb_migrations") && tables.contains(Self.checksumTable)
        guard hasRecords else {
            if tables.isEmpty && applicationID == 0 {
                return SchemaStatus(applied: [], pending: migrations.map(\.identifier))
            }
            // A store of ours that was killed while being made: GRDB's migrator creates
            // its empty `grdb_migrations` table before, and outside, the first migration's
            // transaction. Nothing else was written: finish it as a new store.
            if tables == ["grdb_migrations"], applicationID == 0,
               try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") == 0
            {
                return SchemaStatus(applied: [], pending: migrations.map(\.identifier))
            }
            throw StorageError.notASessionStore(
                path: path, reason: "it holds tables but no record of session store migrations")
        }

        let appliedIdentifiers = try migrator.appliedIdentifiers(db)
        let known = migrations.map(\.identifier)
        if let unknown = appliedIdentifiers.subtracting(known).sorted().last {
            throw StorageError.databaseNewerThanBinary(path: path, applied: unknown, known: known.last ?? "none")
        }
        let recorded = try Row.fetchAll(
            db, sql: "SELECT identifier, checksum, applied_at FROM schema_migrations ORDER BY applied_at, identifier")
        var checksums: [String: SchemaStatus.AppliedMigration] = [:]
        for row in recorded {
            let migration = SchemaStatus.AppliedMigration(
                identifier: try row.decode(forColumn: "identifier"), checksum: try row.decode(forColumn: "checksum"), appliedAt: try row.decode(forColumn: "applied_at"))
            checksums[migration.identifier] = migration
        }
        var applied: [SchemaStatus.AppliedMigration] = []
        var pending: [String] = []
        for migration in migrations {
            guard appliedIdentifiers.contains(migration.identifier) else {
                pending.append(migration.identifier)
                continue
            }
            guard let record = checksums[migration.identifier], record.checksum == migration.checksum else {
                throw StorageError.migrationChecksumMismatch(path: path, identifier: migration.identifier)
            }
            applied.append(record)
        }
        return SchemaStatus(applied: applied, pending: pending)
    }

    /// Applies every pending migration, each in its own transaction.
    ///
    /// - Returns: The identifiers applied, in order.
    /// - Throws: What ``status(_:path:)`` throws, checked first, and
    ///   ``StorageError/migrationFailed(path:identifier:reason:)`` naming the
    ///   migration that failed (earlier ones stay applied; the failing one leaves nothing).
    @discardableResult
    func migrate(_ writer: any DatabaseWriter, path: String) throws -> [String] {
        let pending = try writer.read { try status($0, path: path).pending }
        guard !pending.isEmpty else { return [] }
        let migrator = self.migrator
        for identifier in pending {
            do {
                try migrator.migrate(writer, upTo: identifier)
            } catch let error as DatabaseError {
                if [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode.primaryResultCode) {
                    throw StorageError.busy(path: path)
                }
                throw StorageError.migrationFailed(
                    path: path, identifier: identifier, reason: error.message ?? "\(error.resultCode)")
            }
        }
        return pending
    }
}
