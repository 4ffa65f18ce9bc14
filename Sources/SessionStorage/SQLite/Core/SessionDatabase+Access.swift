import Foundation
internal import GRDB
import SessionModel

// MARK: - Reading and writing, synchronously

/// A transaction held for the calls made inside it (on its thread, while it runs):
/// the read of ``SessionDatabase/readingConsistently(_:)`` (``reading``) or the
/// write of ``SessionDatabase/writingTogether(_:)`` (``writing``).
final class HeldTransaction: @unchecked Sendable {
    let database: Database
    let store: ObjectIdentifier

    init(database: Database, store: ObjectIdentifier) {
        self.database = database
        self.store = store
    }

    /// The read transaction the repositories' reads join.
    @TaskLocal static var reading: HeldTransaction?
    /// The write transaction the repositories' reads and mutations join.
    @TaskLocal static var writing: HeldTransaction?
}

extension SessionDatabase {
    /// Runs `body` with every mutation and read it makes through this store's
    /// repositories in one IMMEDIATE transaction: they commit together, or not
    /// at all when `body` throws, and the reads see the writes made before them.
    ///
    /// For a change that takes several repository calls (a tab moved to another
    /// browser, then both lists arranged), which no other connection or process
    /// may see half made. Mutations made from inside a mutation's own closure are
    /// still refused (`WebStateListError.reentrantMutation`).
    ///
    /// The caller's thread waits for the write lock.
    ///
    /// - Throws: What `body` throws, and ``StorageError`` when the store cannot be written.
    package func writingTogether<T>(_ body: () throws -> T) throws -> T {
        if HeldTransaction.writing?.store == ObjectIdentifier(self) { return try body() }
        do {
            return try mutate { db in
                // The calls inside are not re-entrant: each runs as a mutation of its own, in this transaction.
                try ReentrancyGuard.$isMutating.withValue(false) {
                    try HeldTransaction.$writing.withValue(HeldTransaction(database: db, store: ObjectIdentifier(self))) {
                        try body()
                    }
                }
            }
        } catch {
            // Reads inside may have cached what the rollback undid: forget every cached list and history.
            lists.removeAll()
            histories.removeAll()
            throw error
        }
    }

    /// Refuses a call that needs the writer to itself (a checkpoint, a VACUUM, a
    /// restore) from inside ``writingTogether(_:)``: it would wait on its own transaction.
    func refuseInsideWritingTogether() throws {
        if HeldTransaction.writing?.store == ObjectIdentifier(self) { throw WebStateListError.reentrantMutation }
    }

    /// Runs `body` with every read it makes through this store's repositories in
    /// one read transaction: they all see the store as it was when `body` began,
    /// whatever other connections and processes commit meanwhile.
    ///
    ///     let (browsers, lists) = try database.readingConsistently {
    ///         let browsers = try browserRepository.browsers()
    ///         return (browsers, try browsers.map { try tabs.webStateList(in: $0.id) })
    ///     }
    ///
    /// Writes are refused inside `body` (`WebStateListError.reentrantMutation`).
    ///
    /// - Throws: What `body` throws, and ``StorageError`` when the store cannot be read.
    public func readingConsistently<T>(_ body: () throws -> T) throws -> T {
        if HeldTransaction.reading?.store == ObjectIdentifier(self) { return try body() }
        return try read { db in
            try HeldTransaction.$reading.withValue(HeldTransaction(database: db, store: ObjectIdentifier(self))) {
                try ReentrancyGuard.mutating(body)
            }
        }
    }

    /// Reads in one transaction, refusing a call made from inside a mutation;
    /// inside ``readingConsistently(_:)``, in its transaction.
    func read<T>(_ body: (Database) throws -> T, call: StaticString = #function) throws -> T {
        if let consistent = HeldTransaction.reading, consistent.store == ObjectIdentifier(self) {
            return try body(consistent.database)
        }
        if let together = HeldTransaction.writing, together.store == ObjectIdentifier(self) {
            try ReentrancyGuard.check()
            return try body(together.database)
        }
        try ReentrancyGuard.check()
        try checkOpen()
        defer { LockAudit.after("\(call)", on: self) }
        do {
            return try writer.read(body)
        } catch {
            throw translate(error, operation: "reading")
        }
    }

    /// Runs a mutation in one IMMEDIATE transaction (taking the write lock
    /// first, so another process's write is waited for, not raced), marked so
    /// that a re-entrant call throws `WebStateListError.reentrantMutation`.
    ///
    /// The caller's thread waits for the write lock: apps call the `async` form.
    func mutate<T>(_ body: (Database) throws -> T, call: StaticString = #function) throws -> T {
        try ReentrancyGuard.check()
        if let together = HeldTransaction.writing, together.store == ObjectIdentifier(self) {
            defer {
                // A history cached before this transaction would hide its earlier writes from
                // the next read in it (the cache learns of writes at the commit).
                histories.removeAll()
            }
            return try ReentrancyGuard.mutating { try body(together.database) }
        }
        try checkOpen()
        defer { LockAudit.after("\(call)", on: self) }
        do {
            return try writer.writeWithoutTransaction { db in
                let result = try transaction(db, body)
                afterCommit(db)
                return result
            }
        } catch {
            throw translate(error, operation: "writing")
        }
    }

    /// What follows every commit: keeping the WAL small, and a snapshot when one is due.
    fileprivate func afterCommit(_ db: Database) {
        limitWAL(db)
        snapshotKeeper?.commitHappened()
    }

    /// After a commit, now and then: when the WAL has grown past
    /// ``Configuration/walSizeLimit``, folds it back into the file and truncates
    /// it (`wal_checkpoint(TRUNCATE)`). SQLite's automatic checkpoint is PASSIVE:
    /// with readers always overlapping (observations, `watch`, an app's reads)
    /// it never resets the WAL, which then grows without bound ("checkpoint
    /// starvation"). A TRUNCATE checkpoint waits for the readers of older
    /// snapshots to finish, and holds writers meanwhile, so:
    /// - it is tried every 64 commits, every 128 after a failure until one succeeds;
    /// - it waits 25 ms per `walSizeLimit` the WAL holds, at most 250 ms: a
    ///   larger WAL is worth a longer pause;
    /// - it is not tried while the store takes a snapshot, a long read that
    ///   would make it fail.
    ///
    /// Best effort and silent: the commit is already durable, so a checkpoint
    /// that readers block changes nothing but the WAL's size.
    fileprivate func limitWAL(_ db: Database) {
        guard let path else { return }
        let due = walCheck.withLock { state in
            state.commits += 1
            return state.commits % (64 << min(state.failures, 1)) == 0
        }
        guard due, snapshotKeeper?.isTaking != true else { return }
        let size = Int64(DatabaseFile.walSize(ofStoreAt: path))
        let limit = Int64(Configuration.walSizeLimit)
        guard size > limit else { return }
        let wait = min(250, 25 * Int(size / limit))
        let busyMilliseconds = Int(min(max(configuration.busyTimeout, 0), 86_400) * 1_000)
        // Both values are this package's numbers, never user input.
        try? db.execute(sql: "PRAGMA busy_timeout = \(wait)")
        let truncated = (try? db.checkpoint(.truncate)) != nil
        try? db.execute(sql: "PRAGMA busy_timeout = \(busyMilliseconds)")
        walCheck.withLock { state in state.failures = truncated ? 0 : state.failures + 1 }
    }

    /// The body of every mutation: one IMMEDIATE transaction on `db`, after
    /// checking that the path still names the file this store opened.
    ///
    /// `BEGIN IMMEDIATE` and `COMMIT` are statements prepared once per connection
    /// (GRDB's `inTransaction` compiles them anew each time); an error rolls back.
    /// SQLite's commit hook, which GRDB's observations ride on, sees the commit all the same.
    private func transaction<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        if !transactionGuard.isRegistered {
            db.add(transactionObserver: transactionGuard, extent: .databaseLifetime)
            transactionGuard.isRegistered = true
        }
        let result: T
        do {
            try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
            transactionGuard.isGuarding = true
            defer { transactionGuard.isGuarding = false }
            do {
                // With the write lock held: is the path still the file this store opened?
                if let opened = fileIdentity, let path, FileIdentity(path: path) != opened {
                    throw StorageError.fileMovedOrDeleted(path: path)
                }
                result = try ReentrancyGuard.mutating { try body(db) }
                // An error SQLite met inside (a full disk, say) may have rolled the transaction
                // back while the body went on: commit nothing of what followed (the guard has
                // already failed every statement since).
                guard db.isInsideTransaction else {
                    throw DatabaseError(resultCode: .SQLITE_ABORT, message: "Transaction was aborted")
                }
                transactionGuard.isGuarding = false
                try db.cachedStatement(sql: "COMMIT").execute()
                lists.committed(db)
            } catch {
                // Only while the transaction is still open; the first error is the one thrown.
                try? db.rollback()
                throw error
            }
        } catch {
            afterTransaction.transactionEnded(committed: false)
            lists.transactionEnded()
            throw error
        }
        afterTransaction.transactionEnded(committed: true)
        lists.transactionEnded()
        return result
    }

    /// A database error as a ``StorageError``: `busy` stays `busy` even when
    /// ``close()`` began meanwhile (the call was made before it); only a call that
    /// met the closed connection is ``StorageError/closed(path:)``. Other errors pass through.
    private func translate(_ error: any Error, operation: String) -> any Error {
        if error is DatabaseError || error is RowDecodingError || error is StoredValueDamage {
            return StorageError(error, path: displayPath, operation: operation)
        }
        return error
    }
}

// MARK: - Reading and writing, asynchronously

extension SessionDatabase {
    /// Reads in one transaction on a reader of the pool; the caller's thread
    /// only hands the read over.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, call: StaticString = #function
    ) async throws -> T {
        try ReentrancyGuard.check()
        try admit()
        defer { LockAudit.after("\(call)", on: self) }
        return try await withCheckedThrowingContinuation { continuation in
            writer.asyncRead { database in
                let result = Result {
                    do {
                        return try body(database.get())
                    } catch {
                        throw self.translate(error, operation: "reading")
                    }
                }
                // Before resuming: a caller blocked in `close()` must not wait for its own thread.
                self.leave()
                continuation.resume(with: result)
            }
        }
    }

    /// Runs a mutation as ``mutate(_:)`` does, on the store's writer queue: the
    /// caller's thread only hands it over, and never waits for the write lock.
    ///
    /// Cancellation decides only before the write starts. If the calling task
    /// is cancelled while the write waits its turn on the writer queue, the
    /// write never starts and this throws `CancellationError`. Once it has
    /// started (it may be waiting for another process's lock), it completes and
    /// is kept, whatever happens to the task, and its result is returned.
    func mutate<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, call: StaticString = #function
    ) async throws -> T {
        try ReentrancyGuard.check()
        try Task.checkCancellation()
        try admit()
        defer { LockAudit.after("\(call)", on: self) }
        let cancelled = Protected(false)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                writer.asyncWriteWithoutTransaction { db in
                    if cancelled.withLock({ $0 }) {
                        self.leave()
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    // Past this point the write runs to its end, cancelled or not.
                    let result = Result {
                        do {
                            return try self.transaction(db, body)
                        } catch {
                            throw self.translate(error, operation: "writing")
                        }
                    }
                    continuation.resume(with: result)
                    if case .success = result { self.afterCommit(db) }
                    self.leave()
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
    }
}

// MARK: - Archives

extension SessionDatabase {
    /// The whole store as a document, in its canonical order (see ``SessionArchive``),
    /// read in one transaction on a reader of the pool.
    ///
    /// - Throws: ``StorageError`` (`closed`, `corrupt`, `sqlite`).
    public func exportArchive() async throws -> SessionArchive {
        try await read { [repairLog] db in try ArchiveRows.export(db, repairs: repairLog) }
    }

    /// The whole store as a document, in its canonical order (see ``SessionArchive``).
    ///
    /// This form reads on the caller's thread, for as long as the store takes
    /// to read: an app awaits the `async` form.
    ///
    /// - Throws: ``StorageError`` (`closed`, `corrupt`, `sqlite`).
    public func exportArchive() throws -> SessionArchive {
        try read { db in try ArchiveRows.export(db, repairs: repairLog) }
    }

    /// The whole store as document parts, each handed to `body` as soon as it is
    /// read, in one read transaction: an export of any size in bounded memory
    /// (one browser's list of tab ids at a time). Give the parts to a
    /// ``SessionArchive/Writer`` for the document's text.
    ///
    /// A list whose rows break a rule is exported repaired, as a snapshot reads it;
    /// the repairs, and each tab left out because its window's row is missing, are
    /// listed by ``repairs()``. The file is unchanged.
    ///
    /// - Parameters:
    ///   - progress: Called after each tab with the tabs written and the store's
    ///     tab count (open and closed), for a progress line.
    ///   - body: Takes each part.
    /// - Throws: ``StorageError`` (`closed`, `corrupt`, `sqlite`), or what `body` throws.
    public func exportArchive(
        progress: ((_ tabs: Int, _ of: Int) -> Void)? = nil, _ body: (SessionArchive.Part) throws -> Void
    ) throws {
        try read { db in
            guard let progress else { return try ArchiveRows.export(db, repairs: repairLog, body) }
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM tabs") ?? 0
            var done = 0
            try ArchiveRows.export(db, repairs: repairLog) { part in
                try body(part)
                if part.tabCount > 0 {
                    done += part.tabCount
                    progress(done, total)
                }
            }
        }
    }

    /// Reads a document from `reader` and writes it part by part in one
    /// transaction: memory stays bounded whatever its size. Any problem (bad
    /// JSON, a broken rule, an identifier the store has when merging) rolls the
    /// whole import back and throws; the store's content is as it was.
    ///
    /// Unlike ``importArchive(_:replacing:)`` on a decoded document, nothing is
    /// checked before the transaction starts: the document is read once.
    /// With `replacing`, a store that holds tabs is snapshotted first, as for a decoded document.
    ///
    /// - Returns: How many browsers, tabs and closed entries were imported.
    /// - Throws: ``StorageError/invalidArchive(location:reason:)``, another
    ///   ``StorageError``, or what the reader's input throws.
    @discardableResult
    public func importArchive(
        from reader: SessionArchive.Reader, replacing: Bool = false
    ) throws -> SessionArchive.ImportCounts {
        // The document's size is not known before it is read: a store with tabs is snapshotted first.
        if replacing { try? snapshotBeforeReplacing(withTabs: nil) }
        return try mutate { db in
            histories.removeAll()
            let importer = try ArchiveImporter(db, configuration: configuration, replacing: replacing)
            try reader.read(into: importer)
            return importer.counts
        }
    }

    /// Checks the whole document, then writes it in one transaction.
    ///
    /// By default the document is merged: its identifiers must be new to the
    /// store. With `replacing`, the store's content is swapped for the
    /// document's. Nothing is written unless everything is valid.
    /// A replacing import that leaves fewer tabs than the store holds first takes
    /// a snapshot, unless the newest already holds the last change (at most one
    /// such snapshot an interval; see ``SnapshotPolicy``).
    ///
    /// - Throws: ``StorageError/invalidArchive(location:reason:)``, and
    ///   ``StorageError`` (`closed`, `busy`, `readOnly`, `fileMovedOrDeleted`, `sqlite`).
    public func importArchive(_ archive: SessionArchive, replacing: Bool = false) throws {
        if replacing { try? snapshotBeforeReplacing(withTabs: archive.openTabCount) }
        try mutate { db in
            histories.removeAll()
            try ArchiveImporter.write(db, archive, configuration: configuration, replacing: replacing)
        }
    }

    /// Checks the whole document, then writes it in one transaction on the
    /// store's writer queue; see the synchronous form.
    ///
    /// - Throws: ``StorageError/invalidArchive(location:reason:)``, another
    ///   ``StorageError``, or `CancellationError` if the task was cancelled before the write started.
    public func importArchive(_ archive: SessionArchive, replacing: Bool = false) async throws {
        if replacing { try? await handedOff { try self.snapshotBeforeReplacing(withTabs: archive.openTabCount) } }
        try await mutate { [histories, configuration] db in
            histories.removeAll()
            try ArchiveImporter.write(db, archive, configuration: configuration, replacing: replacing)
        }
    }

    /// Checks that ``importArchive(_:replacing:)`` would accept the document,
    /// without writing: works on a store opened read-only, so a refused
    /// document leaves the file byte for byte as it was.
    ///
    /// - Throws: ``StorageError/invalidArchive(location:reason:)``.
    public func checkImport(_ archive: SessionArchive, replacing: Bool = false) throws {
        try archive.check(configuration: configuration)
        if !replacing {
            try read { db in try ArchiveRows.refuseExisting(db, archive) }
        }
        try read { db in try ArchiveRows.checkClosedEntryBrowsers(db, archive, replacing: replacing) }
    }
}
