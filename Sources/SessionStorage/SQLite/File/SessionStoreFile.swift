import Foundation
internal import GRDB

/// Operations on a store file as a whole: migrate, status, check.
///
/// These are what the `sessionstore` command runs, and what
/// ``SessionDatabase/open(atPath:configuration:)`` runs before it opens a file.
/// Read-only operations never create, migrate or otherwise change the file.
///
/// ## Topics
/// - ``migrate(atPath:configuration:dryRun:)``
/// - ``status(atPath:configuration:)``
/// - ``check(atPath:configuration:)``
public enum SessionStoreFile {
    /// What a migration did, or would do.
    public struct MigrationReport: Sendable, Hashable {
        /// Whether the file did not exist before (with `dryRun`, would be created).
        public var created: Bool
        /// The migrations applied (with `dryRun`, pending), in order.
        public var migrations: [String]
        /// Where the backup copy was written, if one was.
        public var backupPath: String?
    }

    /// Applies pending migrations to the file at `path`, creating it if allowed.
    ///
    /// Checks the file first and refuses, without changing it, a non-SQLite file,
    /// another application's database, a newer schema, or altered migrations.
    /// Before migrating a non-empty database it writes a backup copy
    /// (`VACUUM INTO`) next to it, unless the configuration says not to.
    ///
    /// - Parameter dryRun: Only report what would be applied; create and change nothing.
    /// - Throws: ``StorageError``.
    @discardableResult
    public static func migrate(
        atPath path: String, configuration: SessionDatabase.Configuration = .init(), dryRun: Bool = false
    ) throws -> MigrationReport {
        defer { LockAudit.after(#function, onFileAt: path) }
        return try migrate(atPath: path, configuration: configuration, dryRun: dryRun, migrator: SchemaMigrator(configuration))
    }

    @discardableResult
    /// ``migrate(atPath:configuration:dryRun:)`` with a given set of migrations (tests use broken ones).
    static func migrate(
        atPath path: String, configuration: SessionDatabase.Configuration, dryRun: Bool, migrator: SchemaMigrator
    ) throws -> MigrationReport {
        let all = migrator.migrations.map(\.identifier)
        let state = try DatabaseFile.state(atPath: path)
        if state == .missing {
            guard configuration.createIfMissing else { throw StorageError.fileNotFound(path: path) }
            if dryRun {
                return MigrationReport(created: true, migrations: all)
            }
        }
        let schema: SchemaStatus
        var identity: String?
        if state == .missing {
            schema = SchemaStatus(applied: [], pending: all)
        } else {
            (schema, identity) = try readOnly(atPath: path, configuration: configuration, operation: "reading the schema") {
                (try migrator.status($0, path: path), try StoreIdentity.read($0))
            }
        }
        if dryRun || schema.isCurrent {
            return MigrationReport(created: false, migrations: schema.pending)
        }

        if state == .missing {
            // A symbolic link to no file yet: the store is made where it points (SQLite follows it too).
            let target = DatabaseFile.followingSymbolicLinks(path)
            if let report = try createAtomically(atPath: target, configuration: configuration, migrator: migrator) {
                return report
            }
            // Another process created the file meanwhile: migrate what it made, as any existing file.
            guard try DatabaseFile.state(atPath: path) != .missing else {
                throw StorageError.readOnly(path: path, reason: "the path names something that is not a file")
            }
            return try migrate(atPath: path, configuration: configuration, dryRun: false, migrator: migrator)
        }
        var backupPath: String?
        if configuration.backupBeforeMigrating && !schema.applied.isEmpty {
            backupPath = try backup(atPath: path, version: schema.version ?? "empty", configuration: configuration)
        }
        if !schema.applied.isEmpty {
            snapshotBeforeMigrating(atPath: path, identity: identity, configuration: configuration)
        }
        do {
            let applied = try migrateInPlace(atPath: path, configuration: configuration, migrator: migrator)
            if state == .empty {
                // An empty file made into a store gets a new store's mode: the store holds browsing history.
                for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                    chmod(path + suffix, 0o600)
                }
            }
            return MigrationReport(created: false, migrations: applied, backupPath: backupPath)
        } catch {
            throw StorageError(error, path: path, operation: "migrating")
        }
    }

    /// Applies pending migrations to the file itself, each in its own transaction:
    /// a kill leaves the file at the last migration that committed.
    ///
    /// A single connection, not a pool: opening a GRDB pool on a file whose WAL
    /// is empty commits a dummy schema change, and a refused or failed migration
    /// must leave the file byte for byte as it was. Closing the last connection
    /// folds the WAL back into the file.
    private static func migrateInPlace(
        atPath path: String, configuration: SessionDatabase.Configuration, migrator: SchemaMigrator,
        reportingAs reportedPath: String? = nil
    ) throws -> [String] {
        let queue = try DatabaseQueue(path: path, configuration: configuration.grdb(readonly: false))
        defer { try? queue.close() }
        try queue.writeWithoutTransaction { db in
            if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
        }
        return try migrator.migrate(queue, path: reportedPath ?? path)
    }

    /// Creates a new store at `path` all at once: the store is made and migrated
    /// in a file beside it (`PATH.creating-PID-UUID`), which is closed, synced, and
    /// then linked to `path`. `link(2)` never replaces a file, and a process
    /// killed at any instant leaves either no store at `path` or a complete one
    /// (and at worst a leftover `.creating` file, claimed while it is made
    /// (``TemporaryClaim``) and removed by the next open or creation at `path`
    /// once its maker is gone).
    ///
    /// - Returns: The report, or `nil` when another process created `path` first.
    private static func createAtomically(
        atPath path: String, configuration: SessionDatabase.Configuration, migrator: SchemaMigrator
    ) throws -> MigrationReport? {
        removeStaleCreations(of: path)
        // Unique per call: two creations of one path, in one process or two, never share a file.
        let temporary = "\(path).creating-\(getpid())-\(UUID().uuidString.prefix(8))"
        let claim: TemporaryClaim
        do {
            claim = try TemporaryClaim(on: temporary)
            try DatabaseFile.createPrivate(atPath: temporary)
        } catch StorageError.directoryNotFound {
            throw StorageError.directoryNotFound(path: path)
        } catch StorageError.readOnly(_, let reason) {
            throw StorageError.readOnly(path: path, reason: reason)
        }
        defer { claim.release() }
        do {
            let applied = try migrateInPlace(
                atPath: temporary, configuration: configuration, migrator: migrator, reportingAs: path)
            try DatabaseFile.synchronize(atPath: temporary)
            guard link(temporary, path) == 0 else {
                let code = errno
                DatabaseFile.removeWithCompanions(temporary)
                if code == EEXIST { return nil }
                throw StorageError.readOnly(path: path, reason: String(cString: strerror(code)))
            }
            unlink(temporary)
            DatabaseFile.synchronizeDirectory(of: path)
            return MigrationReport(created: true, migrations: applied)
        } catch {
            DatabaseFile.removeWithCompanions(temporary)
            throw StorageError(error, path: path, operation: "creating")
        }
    }

    /// Removes `PATH.creating-PID-…` files (with their `-journal`, `-wal`, `-shm`
    /// and lock file) whose maker is gone (``TemporaryClaim``): what a creation
    /// killed before it linked its store left behind. Runs at each creation, and
    /// at each open of the store for writing.
    static func removeStaleCreations(of path: String) {
        removeLitter(beside: path, infix: ".creating-")
    }

    /// Removes the temporaries named `PATH` + `infix` + `PID-…` beside `path` whose maker is gone.
    static func removeLitter(beside path: String, infix: String) {
        let url = URL(fileURLWithPath: path)
        let prefix = url.lastPathComponent + infix
        TemporaryClaim.removeLitter(in: url.deletingLastPathComponent().path, where: { $0.hasPrefix(prefix) }) { name in
            // An older version's temporary, without a lock file: the PID in its name.
            name.dropFirst(prefix.count).split(separator: "-").first ?? ""
        }
    }

    /// Writes a compact copy of the database next to it, mode 0600, and returns its path.
    private static func backup(
        atPath path: String, version: String, configuration: SessionDatabase.Configuration
    ) throws -> String {
        let stamp = ISO8601DateFormatter.string(
            from: Date(), timeZone: TimeZone(identifier: "UTC")!,
            formatOptions: [.withYear, .withMonth, .withDay, .withTime])
        var backupPath = "\(path).\(version).\(stamp).backup"
        var attempt = 1
        while FileManager.default.fileExists(atPath: backupPath) {
            attempt += 1
            backupPath = "\(path).\(version).\(stamp)-\(attempt).backup"
        }
        do {
            try DatabaseFile.writeCopy(ofStoreAt: path, to: backupPath, configuration: configuration)
            // On the disk, name and content, before the migration starts (VACUUM INTO does not sync its output).
            try DatabaseFile.synchronize(atPath: backupPath)
            DatabaseFile.synchronizeDirectory(of: backupPath)
        } catch {
            throw StorageError(error, path: path, operation: "writing a backup")
        }
        return backupPath
    }

    /// Runs `body` in a read transaction on a read-only connection to `path`.
    static func readOnly<T>(
        atPath path: String, configuration: SessionDatabase.Configuration, operation: String,
        _ body: (Database) throws -> T
    ) throws -> T {
        let connection = try ReadOnlyConnection(atPath: path, configuration: configuration)
        defer { connection.close() }
        do {
            return try connection.queue.read(body)
        } catch {
            throw StorageError(error, path: path, operation: operation)
        }
    }
}
