import Foundation
internal import GRDB
internal import GRDBSQLite
import SessionModel

/// The browsers' tab lists as last read or written by this process, shared by
/// every repository of one ``SessionDatabase``.
///
/// An entry is trusted only while its `revision` equals the browser row's, so
/// a list another process changed is read again, never overwritten. A mutation
/// *takes* the entry out (so the arrays are uniquely referenced and change in
/// place, without a copy), and puts the new one back when its transaction
/// commits; a rollback leaves the browser uncached, to be read anew.
final class WebStateListCache: Sendable {
    private let entries = Protected<[BrowserID: StoredWebStateList]>([:])
    /// The browsers whose entry the current write transaction took out.
    private let taken = Protected<Set<BrowserID>>([])
    /// Signalled when a write transaction ends and has put back what it took.
    private let handedBack = NSCondition()
    /// Where what a transaction wrote is put in the cache when it ends.
    private let afterTransaction: TransactionActions
    /// Where repairs of damaged lists are recorded.
    let repairLog: RepairLog
    /// Where the tabs' pages are read: `tab_pages` when this binary knows it. Pages
    /// are kept between snapshots only then, since only its triggers move a
    /// browser's revision on when a page changes.
    let pageSource: WebStateListRows.PageSource

    init(repairLog: RepairLog, afterTransaction: TransactionActions, pageSource: WebStateListRows.PageSource) {
        self.repairLog = repairLog
        self.afterTransaction = afterTransaction
        self.pageSource = pageSource
    }

    /// The browser's list for reading: the cached one if current, else read and cached.
    func current(_ db: Database, browser: BrowserID) throws -> StoredWebStateList {
        let revision = try self.revision(db, browser: browser)
        if let cached = entries.withLock({ $0[browser] }), cached.revision == revision { return cached }
        do {
            let loaded = try WebStateListRows.load(db, browser: browser)
            entries.withLock { $0[browser] = loaded }
            return loaded
        } catch where Self.isDamage(error) {
            // Read-only here: the repaired list is reported, not written, nor cached.
            let repaired = try WebStateListRows.loadRepairing(db, browser: browser)
            repairLog.record(repaired.repairs)
            return repaired.stored
        }
    }

    /// The browser's list and its tabs' current pages, for a snapshot.
    ///
    /// With `tab_pages`, both are kept at the browser's revision: a snapshot of a
    /// browser that no one changed since the last one reads one row, and one after
    /// a write in this process folds in the pages that write changed. Otherwise
    /// (another process wrote, or the first snapshot) the list and its pages are
    /// read in one pass over the tabs.
    func currentWithPages(
        _ db: Database, browser: BrowserID
    ) throws -> (stored: StoredWebStateList, pages: [WebStateID: PageSummary]) {
        let revision = try self.revision(db, browser: browser)
        if var cached = entryAfterWriter(browser), cached.revision == revision {
            if let pages = cached.pages, cached.pageChanges.isEmpty { return (cached, pages) }
            let pages = try cached.currentPages
                ?? WebStateListRows.pages(db, browser: browser, source: pageSource, repairs: repairLog)
            keep(pages, in: &cached)
            putBack(cached, for: browser)
            return (cached, pages)
        }
        do {
            var loaded = try WebStateListRows.loadWithPages(db, browser: browser, source: pageSource, repairs: repairLog)
            keep(loaded.pages, in: &loaded.stored)
            putBack(loaded.stored, for: browser)
            return loaded
        } catch where Self.isDamage(error) {
            let repaired = try WebStateListRows.loadRepairing(db, browser: browser)
            repairLog.record(repaired.repairs)
            return (repaired.stored, try WebStateListRows.pages(db, browser: browser, source: pageSource, repairs: repairLog))
        }
    }

    /// The cached entry; when a write transaction has it out, waits (briefly) for the
    /// transaction to end and put it back. A snapshot read right after a commit (the
    /// observations run then) would otherwise read a large list anew.
    private func entryAfterWriter(_ browser: BrowserID) -> StoredWebStateList? {
        if let entry = entries.withLock({ $0[browser] }) { return entry }
        let deadline = Date().addingTimeInterval(0.1)
        handedBack.lock()
        defer { handedBack.unlock() }
        while taken.withLock({ $0.contains(browser) }), handedBack.wait(until: deadline) {}
        return entries.withLock { $0[browser] }
    }

    /// The current write transaction ended (its commit or rollback actions ran): readers waiting for an entry go on.
    func transactionEnded() {
        guard !taken.withLock({ $0.isEmpty }) else { return }
        handedBack.lock()
        taken.withLock { $0.removeAll() }
        handedBack.broadcast()
        handedBack.unlock()
    }

    /// Keeps `pages` with the list, where the pages can be kept (`tab_pages`, whose triggers move
    /// the revision on with every page change): pages read through the history are never kept.
    private func keep(_ pages: [WebStateID: PageSummary], in stored: inout StoredWebStateList) {
        guard pageSource == .table else { return }
        stored.pages = pages
        stored.pageChanges = [:]
    }

    /// Caches what a reader read or folded, unless a writer cached a newer list meanwhile
    /// (at one revision, the entries hold the same list and pages).
    private func putBack(_ stored: StoredWebStateList, for browser: BrowserID) {
        entries.withLock { entries in
            if let present = entries[browser], present.revision > stored.revision { return }
            entries[browser] = stored
        }
    }

    /// The browser's list for changing: taken out of the cache (read anew if
    /// missing or stale). Hand the result back with ``remember(_:for:)``.
    func take(_ db: Database, browser: BrowserID) throws -> StoredWebStateList {
        var stored = try taking(db, browser: browser)
        stored.completeRowImages()
        return stored
    }

    private func taking(_ db: Database, browser: BrowserID) throws -> StoredWebStateList {
        let cached = entries.withLock { entries in
            let cached = entries.removeValue(forKey: browser)
            if cached != nil { taken.withLock { _ = $0.insert(browser) } }
            return cached
        }
        // Written by this connection's last commit, and no connection has written since: current.
        if let cached, let version = cached.committedAtDataVersion, version == Self.dataVersion(db) {
            return cached
        }
        let revision = try self.revision(db, browser: browser)
        if let cached, cached.revision == revision {
            return cached
        }
        do {
            return try WebStateListRows.load(db, browser: browser)
        } catch where Self.isDamage(error) {
            // Inside a write: the repairs are written back with it.
            let repaired = try WebStateListRows.loadRepairing(db, browser: browser)
            let stored = try WebStateListRows.persist(repaired, browser: browser, in: db)
            repairLog.record(repaired.repairs)
            return stored
        }
    }

    /// Forgets the browser's list now and once the current transaction commits: a write
    /// changed its rows without going through the list (the archive's bulk moves).
    func forget(_ browser: BrowserID) {
        entries.withLock { _ = $0.removeValue(forKey: browser) }
        afterTransaction.add(
            onCommit: { [self] in entries.withLock { _ = $0.removeValue(forKey: browser) } },
            onRollback: {})
    }

    /// Forgets every list: the store's content was replaced (a restored snapshot).
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// Whether a strict read failed on rows that break the rules or cannot be decoded.
    static func isDamage(_ error: any Error) -> Bool {
        error is StoredValueDamage || error is RowDecodingError
    }

    /// Caches `stored` once the current transaction commits.
    func remember(_ stored: StoredWebStateList, for browser: BrowserID) {
        afterTransaction.add(
            onCommit: { [self] in
                var stored = stored
                stored.committedAtDataVersion = lastCommitDataVersion.withLock { $0 }
                entries.withLock { $0[browser] = stored }
            },
            onRollback: { [self] in entries.withLock { _ = $0.removeValue(forKey: browser) } })
    }

    /// The writer connection's data version after its latest commit (see ``committed(_:)``).
    private let lastCommitDataVersion = Protected<UInt32?>(nil)

    /// Notes the writer's data version right after a commit, before the commit's actions run.
    func committed(_ db: Database) {
        let version = Self.dataVersion(db)
        lastCommitDataVersion.withLock { $0 = version }
    }

    /// The connection's data version: it changes with every commit to the file, by this
    /// connection or any other (`SQLITE_FCNTL_DATA_VERSION`, no statement run).
    static func dataVersion(_ db: Database) -> UInt32? {
        var version: UInt32 = 0
        guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_DATA_VERSION, &version) == SQLITE_OK
        else { return nil }
        return version
    }

    /// After a history write moved a browser's revision on (the tab's current
    /// index moved, or its page changed): updates the cached list and pages in
    /// step, if they were current before the write.
    func historyWritten(
        _ db: Database, browser: BrowserID, tab: WebStateID, navigationIndex: Int?,
        revision: NavigationHistoryRows.RevisionStep
    ) throws {
        // The page as the triggers wrote it, read now, inside the transaction (only when pages are kept).
        let keepsPages = pageSource == .table && entries.withLock { $0[browser]?.pages != nil }
        let page = keepsPages ? try WebStateListRows.page(db, tab: tab, source: .table) : nil
        afterTransaction.add(onCommit: { [self] in
            entries.withLock { entries in
                guard var stored = entries.removeValue(forKey: browser), stored.revision == revision.before,
                      let index = stored.list.index(of: tab)
                else { return }
                _ = try? stored.list.setNavigationIndex(navigationIndex, forTabAt: index)
                stored.rows[tab]?.navigationIndex = navigationIndex
                stored.revision = revision.after
                stored.committedAtDataVersion = lastCommitDataVersion.withLock { $0 }
                if keepsPages { stored.pageChanged(tab, to: page) } else { stored.forgetPages() }
                entries[browser] = stored
            }
        })
    }

    private func revision(_ db: Database, browser: BrowserID) throws -> Int64 {
        guard let revision = try WebStateListRows.revision(db, browser: browser) else {
            throw StorageError.unknownBrowser(browser.uuidString)
        }
        return revision
    }
}
