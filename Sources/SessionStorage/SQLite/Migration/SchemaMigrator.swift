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

    /// The migrations a binary with `configuration` knows: all of them, or the
    /// first ``SessionDatabase/Configuration/knownMigrationCount`` (an older binary, in tests).
    init(_ configuration: SessionDatabase.Configuration) {
        self.init(migrations: Array(EmbeddedMigration.all.prefix(configuration.knownMigrationCount ?? Int.max)))
    }

    /// The table recording each applied migration's compatibility, so that an older
    /// binary, which does not know a newer migration, can still tell whether it may
    /// write the store. Made by the migrator (like `schema_migrations`), not by a migration.
    static let compatibilityTable = "schema_compatibility"

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
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS schema_compatibility (
                        identifier TEXT PRIMARY KEY NOT NULL,
                        compatibility TEXT NOT NULL CHECK (compatibility IN ('base', 'additive', 'breaking')))
                    """)
                // This migration's, and those of earlier ones applied before the table existed.
                for known in migrations {
                    try db.execute(
                        sql: """
                            INSERT OR IGNORE INTO schema_compatibility (identifier, compatibility)
                            SELECT identifier, ? FROM schema_migrations WHERE identifier = ?
                            """,
                        arguments: [known.compatibility.rawValue, known.identifier])
                    if known.identifier == migration.identifier { break }
                }
            }
        }
        return migrator
    }

    /// Reads where the schema stands, refusing a database this binary must not touch.
    ///
    /// A store that a newer binary migrated is usable when every migration this
    /// binary does not know was recorded as additive: it reads and writes it,
    /// ignoring what those migrations added. Otherwise it may only read it
    /// (`forWriting: false`), as far as the tables it reads are unchanged.
    ///
    /// - Throws: ``StorageError/notASessionStore(path:reason:)`` for another
    ///   application's database; ``StorageError/databaseNewerThanBinary(path:applied:known:)``
    ///   when, for writing, a migration this binary does not know was not additive
    ///   (`applied` names the oldest schema version a binary must know); and
    ///   ``StorageError/migrationChecksumMismatch(path:identifier:)`` when an applied
    ///   migration's SQL differs from this binary's.
    func status(_ db: Database, path: String, forWriting: Bool = true) throws -> SchemaStatus {
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
        let newer = appliedIdentifiers.subtracting(known).sorted()
        // What each applied migration declared; a newer one recorded without a declaration counts as breaking.
        var declared: [String: EmbeddedMigration.Compatibility] = [:]
        if tables.contains(Self.compatibilityTable) {
            for row in try Row.fetchAll(db, sql: "SELECT identifier, compatibility FROM schema_compatibility") {
                let identifier: String = try row.decode(forColumn: "identifier")
                declared[identifier] = EmbeddedMigration.Compatibility(rawValue: try row.decode(forColumn: "compatibility"))
            }
        }
        for migration in migrations { declared[migration.identifier] = migration.compatibility }
        let oldestCompatible = appliedIdentifiers.sorted().last { (declared[$0] ?? .breaking) != .additive }
        // Known migrations left unapplied beneath newer ones cannot be applied now: not writable either.
        let skipped = !newer.isEmpty && known.contains { !appliedIdentifiers.contains($0) }
        let isWritable = (oldestCompatible.map(known.contains) ?? true) && !skipped
        if forWriting, !newer.isEmpty, !isWritable {
            throw StorageError.databaseNewerThanBinary(
                path: path, applied: oldestCompatible ?? newer.last!, known: known.last ?? "none")
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
        return SchemaStatus(
            applied: applied, pending: newer.isEmpty ? pending : [], newer: newer,
            oldestCompatibleVersion: oldestCompatible, isWritable: isWritable)
    }

    /// Applies every pending migration, each in its own transaction.
    ///
    /// - Returns: The identifiers applied, in order.
    /// - Throws: What ``status(_:path:)`` throws, checked first, and
    ///   ``StorageError/migrationFailed(path:identifier:reason:)`` naming the
    ///   migration that failed (earlier ones stay applied; the failing one leaves nothing).
    @discardableResult
    func migrate(_ writer: any DatabaseWriter, path: String) throws -> [String] {
        let migrator = self.migrator
        var applied: [String] = []
        // Two processes may migrate one file at once (two apps opening a store another
        // program just made empty). Each step is its own transaction, and the row a step
        // adds to `grdb_migrations` is unique: the process that comes second to a step
        // fails it, rolled back whole, reads what is pending again and goes on from there.
        // The migrator runs to its last migration, never `upTo:` one: GRDB traps when the
        // file is already past the target, which another process may have just made it.
        for attempt in 1...5 {
            let pending = try writer.read { try status($0, path: path).pending }
            guard !pending.isEmpty else { return applied }
            do {
                try migrator.migrate(writer)
                return applied + pending
            } catch let error as DatabaseError {
                if [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode.primaryResultCode) {
                    throw StorageError.busy(path: path)
                }
                let left = try writer.read { try status($0, path: path).pending }
                applied += pending.filter { !left.contains($0) }
                // Nothing moved since the last attempt: the migration itself fails.
                if left.count == pending.count || attempt == 5 {
                    if error.resultCode.primaryResultCode == .SQLITE_FULL { throw StorageError.diskFull(path: path) }
                    throw StorageError.migrationFailed(
                        path: path, identifier: left.first ?? pending[0], reason: error.message ?? "\(error.resultCode)")
                }
            }
        }
        return applied
    }
}
