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
///
/// Rotation never deletes the last good session: while the store holds fewer than
/// ``keepLastGoodBelow`` of the tabs of an older snapshot (an update wrote an empty
/// session, an import replaced it), that snapshot stays, until a newer one of
/// similar size replaces it or it is deleted by hand. Snapshots of another store
/// that was at this path before (foreign ones) are neither counted nor deleted.
public struct SnapshotPolicy: Sendable, Hashable {
    /// The least time between two snapshots, in seconds: one an hour by default.
    public var interval: TimeInterval = 60 * 60
    /// How many of the newest snapshots are kept whatever their age.
    public var keepLatest = 3
    /// For how many days one snapshot a day is kept beyond the newest ones.
    public var keepDays = 7
    /// The folder of the snapshots; `nil` for `FILE.snapshots` beside the store.
    public var directory: String?
    /// The newest snapshot that held tabs is kept whatever its age while every newer
    /// snapshot holds fewer than this fraction of its tabs: 0.5, half, by default;
    /// 0 turns the rule off.
    public var keepLastGoodBelow = 0.5

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
    /// The tabs of its open windows, recorded when it was taken; `nil` for a
    /// snapshot taken by an older version.
    public var tabCount: Int?
    /// The identity of the store it was taken of (``SessionStoreFile/storeIdentity(atPath:configuration:)``);
    /// `nil` for a snapshot taken by an older version.
    public var storeID: String?
    /// Whether it was taken before an operation that removes most of the store's
    /// tabs (an `import --replace`, a migration).
    public var isBeforeOperation = false
    /// Whether rotation keeps it as the last good session: the store, and every
    /// newer snapshot, holds far fewer tabs than it (see ``SnapshotPolicy/keepLastGoodBelow``).
    public var isKeptAsLastGood = false
    /// Whether it was taken of another store that was at this path before: it is
    /// not counted nor deleted by rotation, and not restored unless asked for.
    public var isForeign = false
}

extension StoreSnapshot {
    /// Decodes a snapshot, the fields older versions did not write included.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        path = try container.decode(String.self, forKey: .path)
        takenAt = try container.decode(Date.self, forKey: .takenAt)
        sizeBytes = try container.decode(Int64.self, forKey: .sizeBytes)
        tabCount = try container.decodeIfPresent(Int.self, forKey: .tabCount)
        storeID = try container.decodeIfPresent(String.self, forKey: .storeID)
        isBeforeOperation = try container.decodeIfPresent(Bool.self, forKey: .isBeforeOperation) ?? false
        isKeptAsLastGood = try container.decodeIfPresent(Bool.self, forKey: .isKeptAsLastGood) ?? false
        isForeign = try container.decodeIfPresent(Bool.self, forKey: .isForeign) ?? false
    }
}

/// Takes, lists, prunes and restores one store's snapshots.
final class SnapshotKeeper: Sendable {
    let storePath: String
    let policy: SnapshotPolicy
    let directory: String
    /// The identity of the store (``StoreIdentity``), read when it was opened; `nil` when unknown:
    /// then every snapshot counts as its own.
    let storeID: String?
    let configuration: SessionDatabase.Configuration
    let queue = DispatchQueue(label: "sessionstore.snapshots")
    private struct State {
        /// When the newest snapshot was taken; read from the folder at the first commit, not at open.
        var lastTaken: Date??
        var scheduled = false
        var taking = false
        var stopped = false
    }
    private let state = Protected(State())

    init(storePath: String, policy: SnapshotPolicy, configuration: SessionDatabase.Configuration, storeID: String?) {
        self.storePath = storePath
        self.policy = policy
        self.configuration = configuration
        self.storeID = storeID
        directory = policy.directory ?? storePath + ".snapshots"
    }

    /// After a commit: schedules a snapshot on the keeper's queue when one is due.
    func commitHappened() {
        let due = state.withLock { state -> Bool in
            guard !state.scheduled, !state.stopped else { return false }
            // Only this store's own: an older store's snapshots left at the path do not put its first one off.
            if state.lastTaken == nil { state.lastTaken = .some(ownSnapshots().first?.takenAt) }
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

    /// This store's snapshots (and those of unknown store, taken by older versions), newest first.
    func ownSnapshots() -> [StoreSnapshot] {
        ((try? Self.list(in: directory)) ?? []).filter { !Self.isForeign($0, to: storeID) }
    }

    /// The snapshots as callers see them: each marked foreign or kept as the last good session.
    func annotatedSnapshots() throws -> [StoreSnapshot] {
        Self.annotated(try Self.list(in: directory), storeID: storeID, policy: policy)
    }

    /// Runs on `queue`, so that two snapshots never write the folder at once.
    func takeOnQueue(beforeOperation: Bool = false) throws -> StoreSnapshot {
        state.withLock { $0.taking = true }
        defer { state.withLock { $0.taking = false } }
        try makeDirectory()
        removeLeftovers()
        let takenAt = Date()
        // Unique, and claimed while it exists: another process sharing the store
        // (an app and its extension) never removes it while it is written.
        let temporary = "\(directory)/\(Self.name(for: takenAt)).\(getpid())-\(UUID().uuidString).tmp"
        let path: String
        do {
            let claim = try TemporaryClaim(on: temporary)
            defer { claim.release() }
            do {
                try DatabaseFile.writeCopy(ofStoreAt: storePath, to: temporary, configuration: configuration)
                // Counted in the copy, which no other connection has open: exactly what it holds.
                let (tabs, store) = try SessionStoreFile.readOnly(
                    atPath: temporary, configuration: configuration, operation: "counting a snapshot's tabs"
                ) { db in (try StoreIdentity.openTabCount(db), try StoreIdentity.read(db)) }
                let name = Self.name(for: takenAt, tabs: tabs, store: store, beforeOperation: beforeOperation)
                var candidate = directory + "/" + name
                var attempt = 1
                while FileManager.default.fileExists(atPath: candidate) {
                    attempt += 1
                    candidate = directory + "/" + name.replacingOccurrences(of: ".sqlite", with: "-\(attempt).sqlite")
                }
                path = candidate
                try DatabaseFile.synchronize(atPath: temporary)
                guard rename(temporary, path) == 0 else {
                    throw StorageError.readOnly(path: path, reason: String(cString: strerror(errno)))
                }
            } catch {
                unlink(temporary)
                throw error
            }
            // A snapshot is listed only once its name is on the disk too: a power cut
            // never leaves a listed snapshot that is torn or a name that comes and goes.
            DatabaseFile.synchronizeDirectory(of: path)
        } catch {
            throw StorageError(error, path: storePath, operation: "taking a snapshot")
        }
        state.withLock { $0.lastTaken = takenAt }
        prune(now: takenAt)
        let size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
        return Self.snapshot(named: (path as NSString).lastPathComponent, path: path, takenAt: takenAt, sizeBytes: size)
    }

    /// Deletes every snapshot (they hold history that was just cleared), the one kept
    /// as the last good session included.
    func removeAll() {
        queue.sync {
            for snapshot in (try? Self.list(in: directory)) ?? [] { unlink(snapshot.path) }
            state.withLock { $0.lastTaken = .some(nil) }
        }
    }

    /// Applies the retention policy: the newest `keepLatest`, then the newest of each day for `keepDays` days,
    /// and the last good session; another store's snapshots are left alone.
    func prune(now: Date) {
        guard let snapshots = try? Self.list(in: directory) else { return }
        for snapshot in Self.expired(snapshots, policy: policy, now: now, storeID: storeID) { unlink(snapshot.path) }
    }

    /// The snapshots the policy lets go, from a list sorted newest first.
    ///
    /// Only the store's own count (see ``isForeign(_:to:)``): foreign ones are never let go here,
    /// they may be an older store's only copy. The one ``lastGood(among:policy:)`` names stays.
    static func expired(
        _ snapshots: [StoreSnapshot], policy: SnapshotPolicy, now: Date, storeID: String? = nil
    ) -> [StoreSnapshot] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var keptDays: Set<DateComponents> = []
        var expired: [StoreSnapshot] = []
        let own = snapshots.filter { !isForeign($0, to: storeID) }
        let lastGood = lastGood(among: own, policy: policy)
        for (position, snapshot) in own.enumerated() {
            if position < policy.keepLatest { continue }
            let day = calendar.dateComponents([.year, .month, .day], from: snapshot.takenAt)
            let age = now.timeIntervalSince(snapshot.takenAt)
            if age < Double(policy.keepDays) * 24 * 60 * 60, !keptDays.contains(day) {
                keptDays.insert(day)
                continue
            }
            if snapshot.name != lastGood?.name { expired.append(snapshot) }
        }
        return expired
    }

    /// The snapshot kept as the last good session, from one store's snapshots sorted
    /// newest first: the newest that held tabs (its count known) while every newer one
    /// holds fewer than ``SnapshotPolicy/keepLastGoodBelow`` of them. The newest snapshot
    /// stands for the store: rotation runs right after one is taken. `nil` when the
    /// newest snapshot is as large as the older ones, or the rule is off.
    ///
    /// The one place that decides it: an explicit clearing of browsing data overrides
    /// it by deleting snapshots itself (``removeAll()`` removes this one too).
    static func lastGood(among snapshots: [StoreSnapshot], policy: SnapshotPolicy) -> StoreSnapshot? {
        guard policy.keepLastGoodBelow > 0 else { return nil }
        // The most tabs of any snapshot newer than the one looked at.
        var largestNewer: Int?
        for snapshot in snapshots {
            // An older version's snapshot, whose count is unknown, neither is kept nor releases one.
            guard let tabs = snapshot.tabCount else { continue }
            if let largestNewer, tabs > 0, Double(largestNewer) < Double(tabs) * policy.keepLastGoodBelow {
                return snapshot
            }
            largestNewer = max(largestNewer ?? 0, tabs)
        }
        return nil
    }

    /// Whether `snapshot` was taken of another store than the one whose identity is `storeID`;
    /// a snapshot or store of unknown identity is never foreign.
    static func isForeign(_ snapshot: StoreSnapshot, to storeID: String?) -> Bool {
        guard let storeID, let other = snapshot.storeID else { return false }
        return other != storeID
    }

    /// `snapshots` (newest first) with ``StoreSnapshot/isForeign`` and ``StoreSnapshot/isKeptAsLastGood`` set.
    static func annotated(_ snapshots: [StoreSnapshot], storeID: String?, policy: SnapshotPolicy) -> [StoreSnapshot] {
        let lastGood = lastGood(among: snapshots.filter { !isForeign($0, to: storeID) }, policy: policy)
        return snapshots.map { snapshot in
            var snapshot = snapshot
            snapshot.isForeign = isForeign(snapshot, to: storeID)
            snapshot.isKeptAsLastGood = snapshot.name == lastGood?.name
            return snapshot
        }
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
                return snapshot(
                    named: name, path: path, takenAt: takenAt, sizeBytes: (attributes?[.size] as? NSNumber)?.int64Value ?? 0)
            }
            .sorted { ($0.takenAt, $0.name) > ($1.takenAt, $1.name) }
    }

    private func makeDirectory() throws {
        guard !FileManager.default.fileExists(atPath: directory) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            DatabaseFile.synchronizeDirectory(of: directory)
        } catch {
            if FileManager.default.fileExists(atPath: directory) { return }
            throw StorageError.readOnly(path: directory, reason: "the snapshot folder cannot be created")
        }
    }

    /// Removes, on the keeper's queue, what snapshots cut short left in the folder
    /// (the store calls it when it opens); ``drain()`` waits for it.
    func removeLeftoversSoon() {
        queue.async { [self] in removeLeftovers() }
    }

    /// Removes half-written snapshots (`NAME.PID-UUID.tmp`, 0-byte ones included,
    /// with their `-journal` and lock file) whose maker is gone (``TemporaryClaim``).
    private func removeLeftovers() {
        TemporaryClaim.removeLitter(in: directory, where: { $0.hasSuffix(".tmp") }) { name in
            // An older version's temporary, without a lock file: the PID in its name.
            let tail = name.dropLast(4).split(separator: ".").last ?? ""
            return tail.split(separator: "-").first ?? ""
        }
    }

    private static let nameFormat = "yyyy-MM-dd'T'HH-mm-ss.SSS'Z'"

    /// `2026-11-24T02-10-00.123Z.t1000.s0123456789abcdef.sqlite`: sorts by time, and
    /// names no one's data; `.t` the open tabs it holds, `.s` its store's identity,
    /// `.before` one taken before an operation that removes most tabs.
    ///
    /// What rotation needs is in the name, written with the file by one `rename`: the
    /// folder's listing tells it, and no snapshot is opened at each prune. Older
    /// versions read the time from the first 24 characters, as before.
    static func name(for date: Date, tabs: Int? = nil, store: String? = nil, beforeOperation: Bool = false) -> String {
        var name = formatter().string(from: date)
        if let tabs { name += ".t\(tabs)" }
        if let store { name += ".s\(store)" }
        if beforeOperation { name += ".before" }
        return name + ".sqlite"
    }

    /// A snapshot with what its name records: its tabs, its store, whether it was taken before an operation.
    static func snapshot(named name: String, path: String, takenAt: Date, sizeBytes: Int64) -> StoreSnapshot {
        var snapshot = StoreSnapshot(name: name, path: path, takenAt: takenAt, sizeBytes: sizeBytes)
        let stem = name.hasSuffix(".sqlite") ? String(name.dropLast(".sqlite".count)) : name
        // After the time, `.`-separated tags, the last one perhaps with a `-N` of a name taken twice.
        for tag in stem.dropFirst(24).split(separator: ".") {
            let tag = tag.split(separator: "-").first ?? tag
            if tag.hasPrefix("t"), let tabs = Int(tag.dropFirst()), tabs >= 0 {
                snapshot.tabCount = tabs
            } else if tag.hasPrefix("s"), tag.count == 17, tag.dropFirst().allSatisfy(\.isHexDigit) {
                snapshot.storeID = String(tag.dropFirst())
            } else if tag == "before" {
                snapshot.isBeforeOperation = true
            }
        }
        return snapshot
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
