import Foundation
internal import GRDB
import SessionModel

// MARK: - Snapshots

extension SessionDatabase {
    /// The store's snapshots, newest first, each marked foreign or kept as the last
    /// good session; empty in memory or with snapshots off.
    ///
    /// - Throws: ``StorageError/closed(path:)``.
    public func snapshots() throws -> [StoreSnapshot] {
        try checkOpen()
        defer { LockAudit.after(#function, on: self) }
        guard let snapshotKeeper else { return [] }
        return (try? snapshotKeeper.annotatedSnapshots()) ?? []
    }

    /// Takes a snapshot now, whatever the schedule, and prunes the old ones, on
    /// a background thread; see the synchronous form.
    ///
    /// - Returns: The snapshot, or `nil` in memory or with snapshots off.
    /// - Throws: ``StorageError`` when the snapshot cannot be written.
    @discardableResult
    public func takeSnapshot() async throws -> StoreSnapshot? {
        try await handedOff { try self.takeSnapshot() }
    }

    /// Takes a snapshot now, whatever the schedule, and prunes the old ones.
    ///
    /// Runs on the caller's thread and blocks it while the store is copied; it reads the store in one read transaction
    /// (`VACUUM INTO`), so writers go on meanwhile.
    ///
    /// - Returns: The snapshot, or `nil` in memory or with snapshots off.
    /// - Throws: ``StorageError`` when the snapshot cannot be written.
    @discardableResult
    public func takeSnapshot() throws -> StoreSnapshot? {
        try checkOpen()
        defer { LockAudit.after(#function, on: self) }
        return try snapshotKeeper?.take()
    }

    /// Puts the content of snapshot `name` back into the store, as the
    /// synchronous form does, on a background thread: the caller only hands it
    /// over, even while another process holds the write lock.
    ///
    /// - Throws: As the synchronous form.
    public func restoreSnapshot(named name: String, allowingForeign: Bool = false) async throws {
        try await handedOff { try self.restoreSnapshot(named: name, allowingForeign: allowingForeign) }
    }

    /// Puts the content of snapshot `name` back into the store, after taking a
    /// snapshot of the current content (so the restore can be undone).
    ///
    /// This form blocks the caller's thread, while another process holds the
    /// write lock too: an app awaits the `async` form.
    ///
    /// The snapshot is copied into the open file through SQLite's backup API,
    /// under the write lock: other connections, in this process or another, see
    /// the restored content at their next read (the file is never swapped, so
    /// none keeps reading a file that is gone). Every browser's revision moves
    /// to a new random value, so no cache takes the restored lists for the ones
    /// it holds, and observations deliver the restored state.
    ///
    /// A snapshot of another store that was at this path before is refused unless
    /// `allowingForeign`; restored, its content takes this store's identity.
    ///
    /// - Throws: ``StorageError/unknownSnapshot(_:)``; ``StorageError/foreignSnapshot(_:)``; ``StorageError/corrupt(path:reason:)``,
    ///   ``StorageError/notASessionStore(path:reason:)`` or ``StorageError/migrationsPending(path:pending:)``
    ///   for a snapshot that cannot be restored as it is; ``StorageError/busy(path:)``.
    public func restoreSnapshot(named name: String, allowingForeign: Bool = false) throws {
        try checkOpen()
        try refuseInsideWritingTogether()
        defer { LockAudit.after(#function, on: self) }
        try ReentrancyGuard.check()
        guard let snapshotKeeper, let pool = writer as? DatabasePool,
              let snapshot = try snapshots().first(where: { $0.name == name })
        else { throw StorageError.unknownSnapshot(name) }
        let restorable = try SessionStoreFile.restorable(snapshot, configuration: configuration)
        defer { restorable.remove() }
        let connection = try ReadOnlyConnection(atPath: restorable.path, configuration: configuration)
        defer { connection.close() }
        let source = connection.queue
        // Read in the file itself: the name of one taken by an older version does not tell.
        let taken = (try? source.read { try StoreIdentity.read($0) }) ?? nil
        let foreign = taken != nil && snapshotKeeper.storeID != nil && taken != snapshotKeeper.storeID
        if foreign, !allowingForeign { throw StorageError.foreignSnapshot(name) }
        do {
            try snapshotKeeper.take()
            defer {
                lists.removeAll()
                histories.removeAll()
            }
            try pool.writeWithoutTransaction { destination in
                let identity = try StoreIdentity.firstMigration(destination)
                try source.inDatabase { snapshotDB in try snapshotDB.backup(to: destination) }
                if foreign, let identity { try StoreIdentity.restore(identity, in: destination) }
                // Revisions the restored lists never had: a cache anywhere that holds a
                // list at a revision the store had before sees a mismatch, and reloads.
                try destination.execute(sql: "UPDATE browsers SET revision = abs(random() % 4611686018427387904)")
                // The restored rows are older than what this device uploaded since: sync compares them all again.
                try SyncRows.rowsReplaced(destination)
                // Still under the write lock: no write queued behind this one may find a cached list or history.
                lists.removeAll()
                histories.removeAll()
            }
        } catch {
            throw StorageError(error, path: displayPath, operation: "restoring a snapshot")
        }
    }

}

extension SessionStoreFile {
    /// Refuses a snapshot that could not be restored: not a session store, a
    /// newer schema this binary cannot write, or one that `check` finds a
    /// problem in (a restored store must pass `check`). A snapshot an older
    /// binary took is checked as it would be restored: migrated, on a copy in a
    /// temporary folder. Leaves no file beside the snapshot.
    ///
    /// - Throws: ``StorageError/corrupt(path:reason:)``, ``StorageError/notASessionStore(path:reason:)``
    ///   or ``StorageError/databaseNewerThanBinary(path:applied:known:)``.
    public static func checkRestorable(_ snapshot: StoreSnapshot, configuration: SessionDatabase.Configuration) throws {
        try restorable(snapshot, configuration: configuration).remove()
    }

    /// A snapshot ready to be copied into a store: the snapshot itself, or a migrated copy of one an older binary took.
    struct RestorableSnapshot {
        var path: String
        /// The claimed temporary folder of a migrated copy: litter for the next restore if this process dies.
        var folder: TemporaryClaim?

        func remove() {
            folder?.removeAndRelease()
        }
    }

    /// Checks `snapshot` as ``checkRestorable(_:configuration:)`` says, and returns what to restore from.
    static func restorable(
        _ snapshot: StoreSnapshot, configuration: SessionDatabase.Configuration
    ) throws -> RestorableSnapshot {
        if try DatabaseFile.state(atPath: snapshot.path) != .sqlite {
            throw StorageError.notASessionStore(path: snapshot.path, reason: "it is empty")
        }
        var restorable = RestorableSnapshot(path: snapshot.path)
        let problems: [Problem]
        do {
            problems = try check(atPath: snapshot.path, configuration: configuration)
        } catch let error as StorageError {
            guard case .migrationsPending = error else { throw error }
            // Taken before this binary's migrations: snapshots outlive upgrades, and restoring
            // one from before an upgrade is what they are kept for.
            let folder = try TemporaryClaim.privateFolder(prefix: "sessionstore-restore-")
            restorable = RestorableSnapshot(path: folder.path + "/snapshot.sqlite", folder: folder)
            do {
                var copying = configuration
                copying.backupBeforeMigrating = false
                copying.snapshots = nil
                try DatabaseFile.writeCopy(ofStoreAt: snapshot.path, to: restorable.path, configuration: copying)
                try migrate(atPath: restorable.path, configuration: copying)
                problems = try check(atPath: restorable.path, configuration: copying)
            } catch {
                restorable.remove()
                throw error
            }
        }
        if let first = problems.first {
            restorable.remove()
            throw StorageError.corrupt(
                path: snapshot.path, reason: "`check` finds \(problems.count) problem(s) in it, the first: \(first)")
        }
        return restorable
    }

    /// The snapshots of the store at `path`, newest first, each marked foreign or kept
    /// as the last good session, without opening it for writing (the folder named by
    /// the configuration's ``SnapshotPolicy``).
    ///
    /// - Throws: ``StorageError`` when the folder cannot be read.
    public static func snapshots(
        atPath path: String, configuration: SessionDatabase.Configuration = .init()
    ) throws -> [StoreSnapshot] {
        defer { LockAudit.after(#function, onFileAt: path) }
        guard let policy = configuration.snapshots else { return [] }
        do {
            return SnapshotKeeper.annotated(
                try SnapshotKeeper.list(in: policy.directory ?? path + ".snapshots"),
                storeID: storeIdentity(atPath: path, configuration: configuration), policy: policy)
        } catch {
            throw StorageError.readOnly(path: path + ".snapshots", reason: "the snapshot folder cannot be read")
        }
    }
}
