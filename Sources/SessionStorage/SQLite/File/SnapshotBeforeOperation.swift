import Foundation
internal import GRDB

extension SnapshotKeeper {
    /// Takes a snapshot before an operation that removes most of the store's tabs
    /// (an `import --replace` with fewer tabs, a migration), unless it is not needed:
    /// the newest of the store's own snapshots already holds the last change, or a
    /// snapshot was taken before an operation less than ``SnapshotPolicy/interval``
    /// ago (a `VACUUM INTO` of a large store costs seconds: a script replacing the
    /// store in a loop pays it once an interval).
    ///
    /// Runs on the keeper's queue, never on the store's writer: the copy is read on
    /// a reader of its own, so writers go on meanwhile.
    ///
    /// - Returns: The snapshot, or `nil` when none was needed.
    @discardableResult
    func takeBeforeOperation(now: Date = Date()) throws -> StoreSnapshot? {
        try queue.sync {
            let own = ownSnapshots()
            if own.contains(where: { $0.isBeforeOperation && abs(now.timeIntervalSince($0.takenAt)) < policy.interval }) {
                return nil
            }
            // Only a snapshot that counts its tabs (this version's) stands for the last change:
            // an older version's may be the one that rotation would let go.
            if let newest = own.first(where: { $0.tabCount != nil }), let changed = Self.lastChange(ofStoreAt: storePath),
               changed < newest.takenAt.addingTimeInterval(-Self.clockSlack)
            {
                return nil
            }
            return try takeOnQueue(beforeOperation: true)
        }
    }

    /// How much earlier than a snapshot's time a change must be to count as in it: a
    /// file's time comes from a coarser clock than `Date()`, and a commit made just as
    /// the snapshot began may or may not be in it. Too early only costs a snapshot.
    static let clockSlack: TimeInterval = 1

    /// When the store last changed: the later modification time of the file and its
    /// WAL, read with `stat(2)`, never a descriptor. A checkpoint counts as a change.
    static func lastChange(ofStoreAt path: String) -> Date? {
        ["", "-wal"].compactMap { suffix in
            (try? FileManager.default.attributesOfItem(atPath: path + suffix))?[.modificationDate] as? Date
        }.max()
    }
}

extension SessionDatabase {
    /// Before a write that replaces the store's content with `tabs` open tabs (`nil`:
    /// not known before it is read): a snapshot when that is fewer than the store holds
    /// now, as ``SnapshotKeeper/takeBeforeOperation(now:)`` decides. Call it off the
    /// writer, before the write.
    func snapshotBeforeReplacing(withTabs tabs: Int?) throws {
        guard let snapshotKeeper else { return }
        let current = try read { try StoreIdentity.openTabCount($0) }
        guard current > 0, tabs.map({ $0 < current }) ?? true else { return }
        try snapshotKeeper.takeBeforeOperation()
    }
}

extension SessionStoreFile {
    /// Before migrating the store at `path` that has `identity`: a snapshot in its
    /// folder when the configuration keeps them, as ``SnapshotKeeper/takeBeforeOperation(now:)``
    /// decides. Best effort: the migration's own backup is what it relies on.
    static func snapshotBeforeMigrating(atPath path: String, identity: String?, configuration: SessionDatabase.Configuration) {
        guard let policy = configuration.snapshots else { return }
        let keeper = SnapshotKeeper(storePath: path, policy: policy, configuration: configuration, storeID: identity)
        _ = try? keeper.takeBeforeOperation()
    }
}

extension SessionStoreFile {
    /// After `recover` kept fewer tabs than the damaged store at `path` held: a snapshot
    /// of what SQLite can still read of it, in its own snapshot folder, before the
    /// recovered store takes its place. Best effort (a damaged page fails `VACUUM INTO`);
    /// the file is only read, and `-wal`/`-shm` that reading made are removed again.
    ///
    /// - Returns: The snapshot's name, or `nil` when none was taken.
    static func snapshotBeforeReplacing(damaged path: String, configuration: SessionDatabase.Configuration) -> String? {
        guard let policy = configuration.snapshots else { return nil }
        let sidecars = WALSidecars(ofStoreAt: path)
        defer { sidecars.removeIfMadeByReading() }
        let keeper = SnapshotKeeper(
            storePath: path, policy: policy, configuration: configuration,
            storeID: storeIdentity(atPath: path, configuration: configuration))
        return (try? keeper.takeBeforeOperation())??.name
    }
}

extension SessionArchive {
    /// The tabs of the document's open windows: what a store holds once it is imported with `replacing`.
    var openTabCount: Int { browsers.filter { $0.closedEntry == nil }.reduce(0) { $0 + $1.tabs.count } }
}
