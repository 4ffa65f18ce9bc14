import Foundation
internal import GRDB
import SessionModel

// MARK: - Snapshots

extension SessionDatabase {
    /// The store's snapshots, newest first; empty in memory or with snapshots off.
    ///
    /// - Throws: ``StorageError/closed(path:)``.
    public func snapshots() throws -> [StoreSnapshot] {
        try checkOpen()
        defer { LockAudit.after(#function, on: self) }
        guard let snapshotKeeper else { return [] }
        return (try? SnapshotKeeper.list(in: snapshotKeeper.directory)) ?? []
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
    public func restoreSnapshot(named name: String) async throws {
        try await handedOff { try self.restoreSnapshot(named: name) }
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
    /// - Throws: ``StorageError/unknownSnapshot(_:)``; ``StorageError/corrupt(path:reason:)``,
    ///   ``StorageError/notASessionStore(path:reason:)`` or ``StorageError/migrationsPending(path:pending:)``
    ///   for a snapshot that cannot be restored as it is; ``StorageError/busy(path:)``.
    public func restoreSnapshot(named name: String) throws {
        try checkOpen()
        try refuseInsideWritingTogether()
        defer { LockAudit.after(#function, on: self) }
        try ReentrancyGuard.check()
        guard let snapshotKeeper, let pool = writer as? DatabasePool,
              let snapshot = try snapshots().first(where: { $0.name == name })
        else { throw StorageError.unknownSnapshot(name) }
        try SessionStoreFile.checkRestorable(snapshot, configuration: configuration)
        let sidecars = WALSidecars(ofStoreAt: snapshot.path)
        let source = try SessionStoreFile.readOnlyQueue(atPath: snapshot.path, configuration: configuration)
        defer {
            try? source.close()
            sidecars.removeIfMadeByReading()
        }
        do {
            try snapshotKeeper.take()
            defer {
                lists.removeAll()
                histories.removeAll()
            }
            try pool.writeWithoutTransaction { destination in
                try source.inDatabase { snapshotDB in try snapshotDB.backup(to: destination) }
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
    /// Refuses a snapshot that could not be restored as it is: not a session store,
    /// another schema version, or one that `check` finds a problem in (a restored
    /// store must pass `check`). Reads it only; leaves no file beside it.
    ///
    /// - Throws: ``StorageError/corrupt(path:reason:)``, ``StorageError/notASessionStore(path:reason:)``,
    ///   ``StorageError/migrationsPending(path:pending:)`` or ``StorageError/databaseNewerThanBinary(path:applied:known:)``.
    public static func checkRestorable(_ snapshot: StoreSnapshot, configuration: SessionDatabase.Configuration) throws {
        if try DatabaseFile.state(atPath: snapshot.path) != .sqlite {
            throw StorageError.notASessionStore(path: snapshot.path, reason: "it is empty")
        }
        let problems = try check(atPath: snapshot.path, configuration: configuration)
        if let first = problems.first {
            throw StorageError.corrupt(
                path: snapshot.path, reason: "`check` finds \(problems.count) problem(s) in it, the first: \(first)")
        }
    }

    /// The snapshots of the store at `path`, newest first, without opening it
    /// for writing (the folder named by the configuration's ``SnapshotPolicy``).
    ///
    /// - Throws: ``StorageError`` when the folder cannot be read.
    public static func snapshots(
        atPath path: String, configuration: SessionDatabase.Configuration = .init()
    ) throws -> [StoreSnapshot] {
        defer { LockAudit.after(#function, onFileAt: path) }
        guard let policy = configuration.snapshots else { return [] }
        do {
            return try SnapshotKeeper.list(in: policy.directory ?? path + ".snapshots")
        } catch {
            throw StorageError.readOnly(path: path + ".snapshots", reason: "the snapshot folder cannot be read")
        }
    }
}
