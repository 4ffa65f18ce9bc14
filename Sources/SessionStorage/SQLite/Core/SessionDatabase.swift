import Foundation
internal import GRDB
internal import GRDBSQLite
import SessionModel

/// An open session store: one SQLite file (or an in-memory database for
/// off-the-record browsers), migrated to the latest schema.
///
/// Opening a file checks it before SQLite changes anything, writes a backup
/// copy before migrating a non-empty database, then applies pending migrations
/// through the same ``SessionStoreFile/migrate(atPath:configuration:dryRun:)``
/// that the `sessionstore migrate` command runs.
///
/// The connection is a GRDB `DatabasePool` in WAL mode: foreign keys on,
/// `busy_timeout` set, `synchronous=NORMAL` (or FULL), `secure_delete` on.
/// New files are created with mode 0600.
///
/// Threading: thread-safe. Every call has an `async` form, which an app awaits
/// (on the main actor, say): the work runs on the store's writer queue or a
/// background thread, and the caller only hands it over, even while another
/// process holds the write lock. The synchronous form of the same name runs
/// on the caller's thread and blocks it, for as long as the write lock is
/// held elsewhere (up to ``Configuration/busyTimeout``): for tools, tests and
/// background threads. Once an async write has started, cancelling its task
/// does not drop it.
///
/// Lifetime: ``close()`` lets the calls already made finish (each succeeds, or
/// fails as it would have, `busy` included), then folds the WAL back into the
/// file; calling it again does nothing, and any call made after it began
/// throws ``StorageError/closed(path:)``.
///
/// ## Topics
/// ### Opening
/// - ``open(atPath:configuration:)``
/// - ``openReadOnly(atPath:configuration:checkingPages:)``
/// - ``inMemory(configuration:)``
/// - ``Configuration``
/// ### Closing
/// - ``close()``
/// - ``isClosed``
public final class SessionDatabase: Sendable {
    /// How a store file is opened.
    public struct Configuration: Sendable, Hashable {
        /// SQLite's `synchronous` setting for the file: what a commit survives.
        ///
        /// In WAL mode, every commit appends to the write-ahead log.
        public enum Synchronous: String, Sendable, Hashable {
            /// Durable across application crashes (a crash or SIGKILL of the app loses
            /// nothing it was told was committed). A power loss or an OS crash may
            /// drop the last commits, never corrupt the file: the WAL is synced only
            /// at checkpoints.
            case normal = "NORMAL"
            /// Durable across power loss and OS crashes too: the WAL is synced at
            /// every commit, at the cost of one fsync per commit. On Apple platforms
            /// the store also asks for `F_FULLFSYNC` (`PRAGMA fullfsync` and
            /// `checkpoint_fullfsync`), since a plain fsync there does not flush the
            /// drive's cache.
            case full = "FULL"
        }

        /// The size the write-ahead log is truncated to when a checkpoint resets it
        /// (`PRAGMA journal_size_limit`), in bytes: 4 MiB.
        public static let walSizeLimit = 4 * 1024 * 1024

        /// The `synchronous` setting; `.normal` by default.
        public var synchronous: Synchronous = .normal
        /// How long a write waits for another connection's lock before failing, in
        /// seconds (0 to 86,400; other values are clamped into that range).
        public var busyTimeout: TimeInterval = 5
        /// Whether a missing file is created (with mode 0600).
        public var createIfMissing = true
        /// Whether a backup copy is written next to a non-empty file before migrating it.
        public var backupBeforeMigrating = true
        /// The most history entries kept per tab (Chrome for iOS keeps 75).
        public var maximumNavigationEntries = NavigationLimits.defaultMaximumEntries
        /// The largest engine-state blob kept per tab, in bytes; a larger one is dropped.
        public var maximumEngineStateBytes = NavigationLimits.defaultMaximumEngineStateBytes
        /// The most recently closed entries kept (Chrome and Firefox keep 25).
        public var maximumClosedEntries = 25
        /// How long a recently closed entry is kept, in seconds (Firefox: 14 days).
        public var closedEntryLifetime: TimeInterval = 14 * 24 * 60 * 60
        /// The most memory the writing connection's page cache takes, in KiB.
        static let writerCacheKiB = 32 * 1024

        /// How many of the embedded migrations this binary knows; `nil` for all of
        /// them. Tests set it to act as an older binary (the migrator cut at N).
        package var knownMigrationCount: Int?
        /// When the store snapshots itself (see ``SnapshotPolicy``); `nil` turns snapshots off.
        public var snapshots: SnapshotPolicy? = SnapshotPolicy()

        /// The default configuration.
        public init() {}
    }

    /// The file's path, or `nil` for an in-memory database.
    public let path: String?
    /// Whether the store lives in memory only (off-the-record browsers).
    public var isOffTheRecord: Bool { path == nil }
    let writer: any DatabaseWriter
    /// The settings the store was opened with.
    public let configuration: Configuration
    /// Notices other processes' commits; `nil` in memory, where there are none.
    let externalChanges: ExternalChangeMonitor?
    /// What was repaired in lists whose rows broke the rules.
    let repairLog = RepairLog()
    /// The browsers' tab lists as last read or written, shared by this store's repositories.
    let lists: WebStateListCache
    /// The histories last read or written by this store's writer.
    let histories: NavigationHistoryCache
    /// What the current write transaction leaves the caches to do when it ends.
    let afterTransaction = TransactionActions()
    /// Fails the commits a mutation did not make while it runs (see ``OpenTransactionGuard``).
    let transactionGuard = OpenTransactionGuard()
    /// The file's device and inode when it was opened, to notice it being deleted or replaced.
    let fileIdentity: FileIdentity?
    /// Whether ``close()`` has been called, and how many `async` calls admitted
    /// before it began are not yet done.
    private let admission = Protected((closed: false, calls: 0))
    /// Left by each admitted `async` call when done: ``close()`` waits for them.
    private let inFlight = DispatchGroup()
    /// Commits since the store opened, and WAL checkpoints that failed in a row,
    /// to check the WAL's size now and then.
    let walCheck = Protected((commits: 0, failures: 0))
    /// Takes and keeps the snapshots of a file opened for writing; `nil` otherwise.
    let snapshotKeeper: SnapshotKeeper?
    /// A file opened read-only: its connection, closed at ``close()`` with what reading made beside the file.
    private let readOnlyConnection: ReadOnlyConnection?

    private init(
        path: String?, writer: any DatabaseWriter, configuration: Configuration = Configuration(),
        readOnlyConnection: ReadOnlyConnection? = nil, storeID: String? = nil
    ) {
        self.path = path
        self.writer = writer
        self.configuration = configuration
        self.readOnlyConnection = readOnlyConnection
        let known = EmbeddedMigration.all.prefix(configuration.knownMigrationCount ?? Int.max).map(\.identifier)
        lists = WebStateListCache(
            repairLog: repairLog, afterTransaction: afterTransaction,
            pageSource: known.contains("0003_tab_pages") ? .table : .history)
        histories = NavigationHistoryCache(afterTransaction: afterTransaction)
        fileIdentity = path.flatMap(FileIdentity.init(path:))
        if let path, let policy = configuration.snapshots, writer is DatabasePool {
            snapshotKeeper = SnapshotKeeper(storePath: path, policy: policy, configuration: configuration, storeID: storeID)
        } else {
            snapshotKeeper = nil
        }
        externalChanges = path.map {
            ExternalChangeMonitor(path: $0, configuration: configuration.grdb(readonly: true))
        }
        LockAudit.opened(self)
    }

    deinit {
        LockAudit.closing(self)
    }

    /// Opens (creating if allowed) and migrates the store at `path`.
    ///
    /// This runs on the caller's thread and may wait for a migration or for
    /// another process's lock; an app opens the store with the `async` form.
    ///
    /// - Throws: ``StorageError`` — `fileNotFound`, `directoryNotFound`, `notARegularFile`,
    ///   `notASessionStore`, `corrupt`, `databaseNewerThanBinary`,
    ///   `migrationChecksumMismatch`, `migrationFailed`, `busy` or `readOnly`.
    public static func open(atPath path: String, configuration: Configuration = Configuration()) async throws
        -> SessionDatabase
    {
        try await offCallerThread { try open(atPath: path, configuration: configuration) }
    }

    /// Opens (creating if allowed) and migrates the store at `path`, on the caller's thread.
    ///
    /// - Throws: ``StorageError`` — `fileNotFound`, `directoryNotFound`, `notARegularFile`,
    ///   `notASessionStore`, `corrupt`, `databaseNewerThanBinary`,
    ///   `migrationChecksumMismatch`, `migrationFailed`, `busy` or `readOnly`.
    public static func open(atPath path: String, configuration: Configuration = Configuration()) throws
        -> SessionDatabase
    {
        let database = try open(
            atPath: path, configuration: configuration, checkingFirst: !DatabaseFile.isOpenableWithoutWriting(atPath: path))
        LockAudit.after(#function, onFileAt: path)
        return database
    }

    /// Opens the store; with `checkedFirst`, after the read-only checks and migrations of
    /// ``SessionStoreFile/migrate(atPath:configuration:dryRun:)``. Without, a store that a
    /// pool opens without writing is checked on the pool itself: one connection fewer.
    private static func open(
        atPath path: String, configuration: Configuration, checkingFirst checkedFirst: Bool
    ) throws -> SessionDatabase {
        if checkedFirst {
            try SessionStoreFile.migrate(atPath: path, configuration: configuration)
        }
        do {
            // GRDB writes a schema change when it opens a pool on an empty WAL: one frame
            // that leaves the file as it is does instead (a refused store keeps its bytes).
            if DatabaseFile.walSize(ofStoreAt: path) == 0 { WALSidecars.keepForNextOpen(ofStoreAt: path) }
            let pool = try DatabasePool(path: path, configuration: configuration.grdb(readonly: false))
            // Checked again on the writer: another process may have replaced the file since.
            let status: SchemaStatus
            let storeID: String?
            do {
                (status, storeID) = try pool.writeWithoutTransaction { db in
                    // SQLite opens a file it cannot write read-only, silently: say so now, not at the first write.
                    if sqlite3_db_readonly(db.sqliteConnection, "main") == 1 {
                        throw StorageError.readOnly(path: path, reason: "the file or its file system is read-only")
                    }
                    // GRDB sets synchronous=NORMAL when it opens a pool, after the store's own
                    // settings: set the configured one again (the value is this package's constant).
                    try db.execute(sql: "PRAGMA synchronous = \(configuration.synchronous.rawValue)")
                    return (try SchemaMigrator(configuration).status(db, path: path), try StoreIdentity.read(db))
                }
            } catch {
                try? pool.close()
                throw error
            }
            if !status.isCurrent {
                try? pool.close()
                if checkedFirst { throw StorageError.migrationsPending(path: path, pending: status.pending) }
                // Pending migrations: the careful path, with its backup, then open again.
                return try open(atPath: path, configuration: configuration, checkingFirst: true)
            }
            let database = SessionDatabase(path: path, writer: pool, configuration: configuration, storeID: storeID)
            // What a snapshot or a creation cut short left behind goes now (TemporaryClaim).
            database.snapshotKeeper?.removeLeftoversSoon()
            SessionStoreFile.removeStaleCreations(of: DatabaseFile.followingSymbolicLinks(path))
            return database
        } catch {
            throw StorageError(error, path: path, operation: "opening the database")
        }
    }

    /// Rebuilds the file without its free pages (`VACUUM`) and folds the WAL
    /// back in, so the file shrinks to what it holds; on a background thread.
    ///
    /// - Returns: The file's size in bytes before and after, or `nil` in memory.
    /// - Throws: ``StorageError`` (`closed`, `busy`, `readOnly`, `sqlite`).
    @discardableResult
    public func compact() async throws -> (before: Int64, after: Int64)? {
        try await handedOff { try self.compact() }
    }

    /// Rebuilds the file without its free pages (`VACUUM`) and folds the WAL
    /// back in, so the file shrinks to what it holds.
    ///
    /// This form blocks the caller's thread for the whole rebuild, and while
    /// another process holds the write lock: an app awaits the `async` form.
    ///
    /// - Returns: The file's size in bytes before and after, or `nil` in memory.
    /// - Throws: ``StorageError`` (`closed`, `busy`, `readOnly`, `sqlite`).
    @discardableResult
    public func compact() throws -> (before: Int64, after: Int64)? {
        try checkOpen()
        try refuseInsideWritingTogether()
        guard let path else { return nil }
        defer { LockAudit.after(#function, on: self) }
        do {
            let before = Self.sizeWithWAL(path)
            try ReentrancyGuard.check()
            try writer.vacuum()
            _ = try writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            return (before, Self.sizeWithWAL(path))
        } catch {
            throw StorageError(error, path: path, operation: "compacting")
        }
    }

    /// The sizes in bytes of the file at `path` and its `-wal`, added.
    private static func sizeWithWAL(_ path: String) -> Int64 {
        ["", "-wal"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? NSNumber)?
                .int64Value ?? 0)
        }
    }

    /// What ``compactUnlessRead()`` did.
    package enum Compaction: Equatable, Sendable {
        /// The file was rebuilt and the WAL folded in: the sizes (file and WAL) before and after.
        case compacted(before: Int64, after: Int64)
        /// The file was rebuilt, but a read transaction that began meanwhile keeps the
        /// WAL from being folded in: the file shrinks at a later checkpoint.
        case compactedInWAL(before: Int64, after: Int64)
        /// Another process's read transaction (or write) kept the WAL from being folded
        /// in: nothing was rebuilt, since a `VACUUM` then would only add the whole file to the WAL.
        case skippedWhileInUse
    }

    /// Compacts as ``compact()`` does, without waiting for another process's read
    /// transaction: the WAL is folded in first, waiting 100 ms at most; when
    /// another process keeps it from that, nothing is rebuilt. The `VACUUM` itself
    /// waits for the write lock up to the busy timeout, as every write does.
    ///
    /// - Returns: What was done, or `nil` in memory.
    /// - Throws: ``StorageError`` (`closed`, `busy`, `readOnly`, `sqlite`).
    package func compactUnlessRead() throws -> Compaction? {
        try checkOpen()
        try refuseInsideWritingTogether()
        guard let path else { return nil }
        defer { LockAudit.after(#function, on: self) }
        let before = Self.sizeWithWAL(path)
        let busyMilliseconds = Int(min(max(configuration.busyTimeout, 0), 86_400) * 1_000)
        // Whether a checkpoint could fold the whole WAL in within 100 ms (readers never get a busy handler's wait).
        func foldsWAL(_ db: Database) throws -> Bool {
            // Both values are this package's numbers, never user input.
            try db.execute(sql: "PRAGMA busy_timeout = 100")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(busyMilliseconds)") }
            do {
                try db.checkpoint(.truncate)
                return true
            } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_BUSY {
                return false
            }
        }
        do {
            try ReentrancyGuard.check()
            return try writer.writeWithoutTransaction { db in
                guard try foldsWAL(db) else { return .skippedWhileInUse }
                try db.execute(sql: "VACUUM")
                let after = Self.sizeWithWAL(path)
                return try foldsWAL(db)
                    ? .compacted(before: before, after: Self.sizeWithWAL(path))
                    : .compactedInWAL(before: before, after: after)
            }
        } catch {
            throw StorageError(error, path: path, operation: "compacting")
        }
    }

    /// Closes the store's connections, folding the WAL back into the file.
    ///
    /// The calls made before `close()` began complete first, each as it would
    /// have: a write waiting for another process's lock succeeds, or fails with
    /// ``StorageError/busy(path:)`` after the busy timeout, never with
    /// `closed`. Calls made after `close()` began throw ``StorageError/closed(path:)``,
    /// and running observations stop. Calling `close()` again does nothing.
    ///
    /// This form blocks the caller's thread until those calls are done: an app
    /// awaits the `async` form instead.
    ///
    /// The checkpoint is best effort: if another process's reader blocks it, the
    /// WAL stays for the next open, and nothing committed is lost. As the file's
    /// last connection, it leaves a WAL of one frame (the header page, unchanged):
    /// the next open then writes nothing.
    ///
    /// - Throws: ``StorageError`` when SQLite cannot close a connection; the store counts as closed all the same.
    public func close() throws {
        let wasOpen = admission.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard wasOpen else { return }
        // The async calls admitted before: each finishes, or fails as it would have.
        inFlight.wait()
        LockAudit.closing(self)
        snapshotKeeper?.stop()
        externalChanges?.stop()
        guard let pool = writer as? DatabasePool else {
            try? (writer as? DatabaseQueue)?.close()
            readOnlyConnection?.close()
            return
        }
        // GRDB closes its writer before its readers, so the last connection
        // to close is read-only and cannot checkpoint: do it here. It is best
        // effort: a checkpoint that another process's reader blocks leaves the
        // WAL, whose commits are as durable, for the next open.
        // A reader of another process would hold it up to the busy timeout: 100 ms at most.
        _ = try? pool.writeWithoutTransaction { db in
            try? db.execute(sql: "PRAGMA busy_timeout = 100")
            _ = try db.checkpoint(.truncate)
        }
        do {
            try pool.close()
        } catch {
            throw StorageError(error, path: displayPath, operation: "closing")
        }
        // Only on the file this store opened: a file moved in since is not this store's to write.
        if let path, let opened = fileIdentity, FileIdentity(path: path) == opened {
            WALSidecars.keepForNextOpen(ofStoreAt: path)
        }
    }

    /// Closes the store as ``close()`` does, on a background thread: the caller
    /// only waits, without blocking its thread, for the calls made before to
    /// finish and the WAL to be folded back.
    ///
    /// - Throws: ``StorageError`` when SQLite cannot close a connection; the store counts as closed all the same.
    public func close() async throws {
        try await Self.offCallerThread { try self.close() }
    }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool { admission.withLock { $0.closed } }

    /// How many `async` calls are admitted and not yet done (for tests).
    package var callsInFlight: Int { admission.withLock { $0.calls } }

    /// Admits an `async` call: ``close()`` waits for it (until ``leave()``), or
    /// throws ``StorageError/closed(path:)`` once `close()` has begun.
    func admit() throws {
        try admission.withLock { state in
            if state.closed { throw StorageError.closed(path: displayPath) }
            state.calls += 1
            inFlight.enter()
        }
    }

    /// An admitted call is done (called once per ``admit()``, before the caller resumes).
    func leave() {
        admission.withLock { $0.calls -= 1 }
        inFlight.leave()
    }

    /// Runs `body` on a background thread for an `async` form, admitted as
    /// ``admit()`` says: the caller's thread only hands it over.
    func handedOff<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try admit()
        return try await Self.offCallerThread {
            defer { self.leave() }
            return try body()
        }
    }

    /// Runs `body` on a background thread and returns its result.
    static func offCallerThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result(catching: body))
            }
        }
    }

    /// Everything the store repaired or skipped since it was opened, in rows that
    /// broke its rules (a damaged page, an outside writer): each cost one tab or
    /// one link, not its window. Empty for a sound store. Log it.
    public func repairs() -> [StoreRepair] {
        repairLog.all
    }

    /// Throws ``StorageError/closed(path:)`` once the store is closed.
    func checkOpen() throws {
        if isClosed { throw StorageError.closed(path: displayPath) }
    }

    /// The path for messages: the file's, or `:memory:`.
    var displayPath: String { path ?? ":memory:" }

    /// Opens the store at `path` for reading only: nothing is created, migrated or written.
    ///
    /// The open reads the file's header and schema only, in time independent of
    /// the file's size; a damaged page is met by the read that touches it, which
    /// throws ``StorageError/corrupt(path:reason:)``. With `checkingPages`, every
    /// page's structure is checked first (`PRAGMA quick_check`, which reads the
    /// whole file), so a damaged file is refused here: for a program about to
    /// write the file, which must not write into damage.
    ///
    /// Mutations through its repositories fail with ``StorageError/readOnly(path:reason:)``.
    /// Call ``close()`` when done: if reading made the file's `-wal` and `-shm`, it removes them.
    ///
    /// - Throws: ``StorageError`` — `fileNotFound`, `notARegularFile`, `notASessionStore`,
    ///   `corrupt`, `databaseNewerThanBinary`, `migrationChecksumMismatch`, `migrationsPending`.
    public static func openReadOnly(
        atPath path: String, configuration: Configuration = Configuration(), checkingPages: Bool = false
    ) throws -> SessionDatabase {
        let connection = try ReadOnlyConnection(atPath: path, configuration: configuration)
        let queue = connection.queue
        do {
            try queue.read { db in
                // A newer store this binary cannot write is still read (`forWriting: false`):
                // what it reads of tables the newer schema changed fails at that read.
                let status = try SchemaMigrator(configuration).status(db, path: path, forWriting: false)
                // A damaged page would otherwise surface later, in the middle of a read. Checked
                // before pending migrations are reported, so that a program that goes on to
                // migrate the file (it catches `migrationsPending`) knows the pages are sound.
                if checkingPages {
                    let problems = try String.fetchAll(db, sql: "PRAGMA quick_check")
                    if problems != ["ok"] {
                        throw StorageError.corrupt(path: path, reason: problems.first ?? "quick_check failed")
                    }
                }
                if !status.isCurrent { throw StorageError.migrationsPending(path: path, pending: status.pending) }
            }
        } catch {
            connection.close()
            throw StorageError(error, path: path, operation: "opening the database")
        }
        return SessionDatabase(path: path, writer: queue, configuration: configuration, readOnlyConnection: connection)
    }

    /// Opens a new, empty, migrated in-memory store that never touches a file.
    ///
    /// Off-the-record browsers live in such a store.
    public static func inMemory(configuration: Configuration = Configuration()) throws -> SessionDatabase {
        var config = configuration.grdb(readonly: false)
        config.label = "off-the-record"
        let queue = try DatabaseQueue(configuration: config)
        try SchemaMigrator(configuration).migrate(queue, path: ":memory:")
        return SessionDatabase(path: nil, writer: queue, configuration: configuration)
    }
}

extension SessionDatabase.Configuration {
    /// The GRDB configuration for these settings.
    func grdb(readonly: Bool) -> GRDB.Configuration {
        var config = GRDB.Configuration()
        config.readonly = readonly
        config.foreignKeysEnabled = true
        // GRDB converts to Int32 milliseconds: keep within a day (and not negative or NaN).
        config.busyMode = .timeout(busyTimeout.isFinite ? min(max(busyTimeout, 0), 86_400) : 5)
        let synchronous = self.synchronous
        config.prepareDatabase { db in
            if !db.configuration.readonly {
                // Every value is this package's constant, never user input.
                try db.execute(sql: "PRAGMA synchronous = \(synchronous.rawValue)")
                try db.execute(sql: "PRAGMA secure_delete = ON")
                // A checkpoint that resets the WAL also truncates it to this size:
                // without it the WAL keeps its largest size for good.
                try db.execute(sql: "PRAGMA journal_size_limit = \(SessionDatabase.Configuration.walSizeLimit)")
                // The writer's page cache: SQLite's default of 2 MiB holds the upper b-tree levels
                // of a small store only; at 100,000 tabs every write then reads its index pages
                // back from the file. At most this much memory, used only as the file is touched.
                try db.execute(sql: "PRAGMA cache_size = -\(SessionDatabase.Configuration.writerCacheKiB)")
                #if canImport(Darwin)
                if synchronous == .full {
                    // On Apple platforms fsync does not reach the disk's platter or flash:
                    // F_FULLFSYNC does. FULL means surviving a power loss, so ask for it.
                    try db.execute(sql: "PRAGMA fullfsync = ON")
                    try db.execute(sql: "PRAGMA checkpoint_fullfsync = ON")
                }
                #endif
            }
        }
        return config
    }
}
