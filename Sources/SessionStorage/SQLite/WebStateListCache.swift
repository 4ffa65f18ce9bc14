internal import GRDB
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
    /// Where what a transaction wrote is put in the cache when it ends.
    private let afterTransaction: TransactionActions
    /// Where repairs of damaged lists are recorded.
    let repairLog: RepairLog

    init(repairLog: RepairLog, afterTransaction: TransactionActions) {
        self.repairLog = repairLog
        self.afterTransaction = afterTransaction
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

    /// The browser's list and its tabs' current pages, for a snapshot: when the
    /// cached list is stale, both are read in one pass over the tabs.
    func currentWithPages(
        _ db: Database, browser: BrowserID
    ) throws -> (stored: StoredWebStateList, pages: [WebStateID: PageSummary]) {
        let revision = try self.revision(db, browser: browser)
        if let cached = entries.withLock({ $0[browser] }), cached.revision == revision {
            return (cached, try WebStateListRows.pages(db, browser: browser, repairs: repairLog))
        }
        do {
            let loaded = try WebStateListRows.loadWithPages(db, browser: browser, repairs: repairLog)
            entries.withLock { $0[browser] = loaded.stored }
            return loaded
        } catch where Self.isDamage(error) {
            let repaired = try WebStateListRows.loadRepairing(db, browser: browser)
            repairLog.record(repaired.repairs)
            return (repaired.stored, try WebStateListRows.pages(db, browser: browser, repairs: repairLog))
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
        let revision = try self.revision(db, browser: browser)
        if let cached = entries.withLock({ $0.removeValue(forKey: browser) }), cached.revision == revision {
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

    /// Forgets every list: the store's content was replaced (a restored snapshot).
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// Whether a strict read failed on rows that break the rules or cannot be decoded.
    private static func isDamage(_ error: any Error) -> Bool {
        error is StoredValueDamage || error is RowDecodingError
    }

    /// Caches `stored` once the current transaction commits.
    func remember(_ stored: StoredWebStateList, for browser: BrowserID) {
        afterTransaction.add(
            onCommit: { [self] in entries.withLock { $0[browser] = stored } },
            onRollback: { [self] in entries.withLock { _ = $0.removeValue(forKey: browser) } })
    }

    /// After a history write moved a tab's current index (and the browser's
    /// revision by one): updates the cached list in step, if it was current.
    func historyIndexChanged(browser: BrowserID, tab: WebStateID, navigationIndex: Int?, newRevision: Int64) {
        afterTransaction.add(onCommit: { [self] in
            entries.withLock { entries in
                guard var stored = entries.removeValue(forKey: browser), stored.revision == newRevision - 1,
                      let index = stored.list.index(of: tab)
                else { return }
                _ = try? stored.list.setNavigationIndex(navigationIndex, forTabAt: index)
                stored.rows[tab]?.navigationIndex = navigationIndex
                stored.revision = newRevision
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
