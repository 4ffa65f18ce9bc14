import Foundation
internal import GRDB

/// What a deletion a person asked for (clearing browsing data, pruning recently
/// closed entries) did beyond the store's rows: to its WAL and its snapshots.
package struct StoreClearing: Sendable, Hashable {
    /// How many history entries were cleared, or recently closed entries pruned.
    package var removed: Int
    /// The snapshots deleted because they held cleared data (their names in the
    /// snapshot folder), whatever retention would have kept.
    package var removedSnapshots: [String] = []
    /// The snapshot taken once they were deleted, which holds the store as
    /// cleared; `nil` when none was deleted (or it could not be taken).
    package var freshSnapshot: String?
    /// Whether the WAL was folded into the file and truncated. `false` when another
    /// connection's read transaction kept it from that past the busy timeout: the
    /// WAL still holds the cleared data until that reader ends.
    package var walTruncated = true

    /// Nothing done beyond removing `removed` rows.
    package init(removed: Int) {
        self.removed = removed
    }
}

extension SessionDatabase {
    /// After a deletion a person asked for has committed: folds the WAL back and
    /// truncates it, so that no frame keeps the deleted rows (`secure_delete`
    /// zeroed them in the pages themselves); then deletes every snapshot in which
    /// `holdsClearedData` finds cleared data, and takes a fresh one if any went.
    ///
    /// The WAL goes first: its checkpoint waits for other processes' read
    /// transactions (up to the busy timeout, or `checkpointWait` seconds), a
    /// snapshot being taken among them, so a snapshot begun before the deletion
    /// is in the folder by the time the folder is read. Nothing is done in memory,
    /// or inside `writingTogether`, where nothing has committed yet.
    func clearedEverywhere(
        removed: Int, checkpointWait: TimeInterval? = nil, holding holdsClearedData: (Database) throws -> Bool
    ) -> StoreClearing {
        var clearing = StoreClearing(removed: removed)
        guard path != nil, HeldTransaction.writing?.store != ObjectIdentifier(self) else { return clearing }
        defer { LockAudit.after("clearing the WAL and the snapshots", on: self) }
        let busyMilliseconds = Int(min(max(configuration.busyTimeout, 0), 86_400) * 1_000)
        clearing.walTruncated = (try? writer.writeWithoutTransaction { db -> Bool in
            // Both values are this package's numbers, never user input.
            if let checkpointWait { try db.execute(sql: "PRAGMA busy_timeout = \(Int(checkpointWait * 1_000))") }
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(busyMilliseconds)") }
            _ = try db.checkpoint(.truncate)
            return true
        }) ?? false
        guard let snapshotKeeper else { return clearing }
        clearing.removedSnapshots = snapshotKeeper.removeSnapshots(configuration: configuration, holding: holdsClearedData)
        if !clearing.removedSnapshots.isEmpty { clearing.freshSnapshot = (try? snapshotKeeper.take())?.name }
        return clearing
    }
}

extension SnapshotKeeper {
    /// Deletes every snapshot in which `holdsClearedData` finds cleared data, and
    /// every one it cannot read (which could not be restored either), with the
    /// `-wal`, `-shm` and `-journal` beside it.
    ///
    /// The snapshots are found by listing the folder, subfolders included, not
    /// through the retention policy: one that retention keeps (the last good one)
    /// goes too. A snapshot being taken by this process is waited for first.
    ///
    /// - Returns: The deleted snapshots' paths relative to the folder.
    func removeSnapshots(
        configuration: SessionDatabase.Configuration, holding holdsClearedData: (Database) throws -> Bool
    ) -> [String] {
        drain()
        var removed: [String] = []
        for name in Self.snapshotFiles(in: directory) {
            let path = directory + "/" + name
            let holds = (try? SessionStoreFile.readOnly(
                atPath: path, configuration: configuration, operation: "reading a snapshot", holdsClearedData)) ?? true
            guard holds, unlink(path) == 0 else { continue }
            for suffix in ["-wal", "-shm", "-journal"] { unlink(path + suffix) }
            DatabaseFile.synchronizeDirectory(of: path)
            removed.append(name)
        }
        return removed
    }

    /// Every SQLite file below `directory` but SQLite's companions and the
    /// temporaries of snapshots being written, as paths relative to it, sorted.
    static func snapshotFiles(in directory: String) -> [String] {
        let skipped = [".tmp", "-journal", "-wal", "-shm"]
        return (FileManager.default.subpaths(atPath: directory) ?? [])
            .filter { name in
                !skipped.contains(where: name.hasSuffix)
                    && (try? DatabaseFile.state(atPath: directory + "/" + name)) == .sqlite
            }
            .sorted()
    }
}
