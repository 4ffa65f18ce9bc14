import Foundation
internal import GRDB
import SessionModel

/// When a store keeps snapshots of itself, and how many.
///
/// A snapshot is a consistent copy of the whole store (`VACUUM INTO` on a
/// reader, which never blocks writers), written to a folder beside the file with
/// mode 0600. It is taken after a commit when the last one is older than
/// ``interval``; after each, the oldest are pruned: the ``keepLatest`` newest
/// stay, and of the older ones the newest of each day, for ``keepDays`` days.
/// Off-the-record stores never snapshot. Clearing browsing data deletes every
/// snapshot that holds a cleared page and takes a fresh one.
public struct SnapshotPolicy: Sendable, Hashable {
    /// The least time between two snapshots, in seconds: one an hour by default.
    public var interval: TimeInterval = 60 * 60
    /// How many of the newest snapshots are kept whatever their age.
    public var keepLatest = 3
    /// For how many days one snapshot a day is kept beyond the newest ones.
    public var keepDays = 7
    /// The folder of the snapshots; `nil` for `FILE.snapshots` beside the store.
    public var directory: String?

    /// The default policy: at most one an hour, the last 3 plus one a day for 7 days.
    public init() {}
}

/// A snapshot of a store: a complete, consistent copy taken at ``takenAt``.
public struct StoreSnapshot: Sendable, Hashable, Codable {
    /// The file's name in the snapshot folder; what `restore-snapshot` takes.
    public var name: String
    /// The snapshot file's path.
    public var path: String
    /// When it was taken.
    public var takenAt: Date
    /// The file's size in bytes.
    public var sizeBytes: Int64
}

/// Takes, lists, prunes and restores one store's snapshots.
final class SnapshotKeeper: Sendable {
    let storePath: String
    let policy: SnapshotPolicy
    let directory: String
    private let configuration: SessionDatabase.Configuration
    private let queue = DispatchQueue(label: "sessionstore.snapshots")
    private struct State {
        /// When the newest snapshot was taken; read from the folder at the first commit, not at open.
        var lastTaken: Date??
        var scheduled = false
        var taking = false
        var stopped = false
    }
    private let state = Protected(State())

    init(storePath: String, policy: SnapshotPolicy, configuration: SessionDatabase.Configuration) {
        self.storePath = storePath
        self.policy = policy
        self.configuration = configuration
        directory = policy.directory ?? storePath + ".snapshots"
    }

    /// After a commit: schedules a snapshot on the keeper's queue when one is due.
    func commitHappened() {
        let due = state.withLock { state -> Bool in
            guard !state.scheduled, !state.stopped else { return false }
            if state.lastTaken == nil { state.lastTaken = .some((try? Self.list(in: directory))?.first?.takenAt) }
            if let last = state.lastTaken ?? nil, Date().timeIntervalSince(last) < policy.interval { return false }
            state.scheduled = true
            return true
        }
        guard due else { return }
        queue.async { [self] in
            _ = try? takeOnQueue()
            state.withLock { $0.scheduled = false }
            LockAudit.after("an automatic snapshot", onFileAt: storePath)
        }
    }

    /// Waits for a snapshot under way to finish.
    func drain() {
        queue.sync {}
    }

    /// The store is closing: no snapshot is scheduled any more; waits for one under way.
    func stop() {
        state.withLock { $0.stopped = true }
        drain()
    }

    /// Takes a snapshot now, then prunes the old ones; waits for one under way first.
    @discardableResult
    func take() throws -> StoreSnapshot {
        try queue.sync { try takeOnQueue() }
    }

    /// Whether a snapshot is being taken now (a long read: WAL checkpoints wait for it).
    var isTaking: Bool { state.withLock { $0.taking } }

    /// Runs on `queue`, so that two snapshots never write the folder at once.
    private func takeOnQueue() throws -> StoreSnapshot {
        state.withLock { $0.taking = true }
        defer { state.withLock { $0.taking = false } }
        try makeDirectory()
        removeLeftovers()
        let takenAt = Date()
        let name = Self.name(for: takenAt)
        var path = directory + "/" + name
        var attempt = 1
        while FileManager.default.fileExists(atPath: path) {
            attempt += 1
            path = directory + "/" + name.replacingOccurrences(of: ".sqlite", with: "-\(attempt).sqlite")
        }
        // Unique, and named for this process: another process sharing the store
        // (an app and its extension) never removes it while it is written.
        let temporary = "\(path).\(getpid())-\(UUID().uuidString).tmp"
        do {
            try DatabaseFile.writeCopy(ofStoreAt: storePath, to: temporary, configuration: configuration)
            try DatabaseFile.synchronize(atPath: temporary)
            guard rename(temporary, path) == 0 else {
                throw StorageError.readOnly(path: path, reason: String(cString: strerror(errno)))
            }
        } catch {
            unlink(temporary)
            throw StorageError(error, path: storePath, operation: "taking a snapshot")
        }
        state.withLock { $0.lastTaken = takenAt }
        prune(now: takenAt)
        let size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
        return StoreSnapshot(name: (path as NSString).lastPathComponent, path: path, takenAt: takenAt, sizeBytes: size)
    }

    /// Deletes every snapshot (they hold history that was just cleared).
    func removeAll() {
        queue.sync {
            for snapshot in (try? Self.list(in: directory)) ?? [] { unlink(snapshot.path) }
            state.withLock { $0.lastTaken = .some(nil) }
        }
    }

    /// Applies the retention policy: the newest `keepLatest`, then the newest of each day for `keepDays` days.
    func prune(now: Date) {
        guard let snapshots = try? Self.list(in: directory) else { return }
        for snapshot in Self.expired(snapshots, policy: policy, now: now) { unlink(snapshot.path) }
    }

    /// The snapshots the policy lets go, from a list sorted newest first.
    static func expired(_ snapshots: [StoreSnapshot], policy: SnapshotPolicy, now: Date) -> [StoreSnapshot] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var keptDays: Set<DateComponents> = []
        var expired: [StoreSnapshot] = []
        for (position, snapshot) in snapshots.enumerated() {
            if position < policy.keepLatest { continue }
            let day = calendar.dateComponents([.year, .month, .day], from: snapshot.takenAt)
            let age = now.timeIntervalSince(snapshot.takenAt)
            if age < Double(policy.keepDays) * 24 * 60 * 60, !keptDays.contains(day) {
                keptDays.insert(day)
                continue
            }
            expired.append(snapshot)
        }
        return expired
    }

    /// The snapshots in `directory`, newest first.
    static func list(in directory: String) throws -> [StoreSnapshot] {
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".sqlite") }
            .compactMap { name -> StoreSnapshot? in
                let path = directory + "/" + name
                let attributes = try? FileManager.default.attributesOfItem(atPath: path)
                guard let takenAt = date(fromName: name) ?? attributes?[.modificationDate] as? Date else { return nil }
                return StoreSnapshot(
                    name: name, path: path, takenAt: takenAt,
                    sizeBytes: (attributes?[.size] as? NSNumber)?.int64Value ?? 0)
            }
            .sorted { ($0.takenAt, $0.name) > ($1.takenAt, $1.name) }
    }

    private func makeDirectory() throws {
        guard !FileManager.default.fileExists(atPath: directory) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            if FileManager.default.fileExists(atPath: directory) { return }
            throw StorageError.readOnly(path: directory, reason: "the snapshot folder cannot be created")
        }
    }

    /// Removes half-written snapshots (`NAME.PID-UUID.tmp`) whose process no longer runs.
    private func removeLeftovers() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasSuffix(".tmp") {
            let tail = name.dropLast(4).split(separator: ".").last ?? ""
            if DatabaseFile.makerIsGone(tail.split(separator: "-").first ?? "") { unlink(directory + "/" + name) }
        }
    }

    private static let nameFormat = "yyyy-MM-dd'T'HH-mm-ss.SSS'Z'"

    /// `2026-11-24T02-10-00.123Z.sqlite`: sorts by time, and names no one's data.
    static func name(for date: Date) -> String {
        formatter().string(from: date) + ".sqlite"
    }

    private static func date(fromName name: String) -> Date? {
        let stem = name.split(separator: ".sqlite").first.map(String.init) ?? name
        return formatter().date(from: String(stem.prefix(24)))
    }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = nameFormat
        return formatter
    }
}
