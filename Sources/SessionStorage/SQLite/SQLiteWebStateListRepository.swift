import Foundation
import GRDB
import SessionModel
import Synchronization

/// The SQLite implementation of ``WebStateListRepository``.
///
/// Keeps each browser's last read or written list in memory, keyed by the
/// browser's `revision`: a mutation costs one indexed read to validate the
/// cache, the model's rules, and the rows the change touches. Thread-safe.
public final class SQLiteWebStateListRepository: WebStateListRepository {
    private let database: SessionDatabase
    private let cache = Mutex<[BrowserID: StoredWebStateList]>([:])

    /// A repository over `database`.
    public init(database: SessionDatabase) {
        self.database = database
    }

    public func webStateList(in browser: BrowserID) throws -> WebStateList {
        try ReentrancyGuard.check()
        return try database.read { db in try self.stored(db, browser: browser).list }
    }

    @discardableResult
    public func update<T>(_ browser: BrowserID, _ body: (inout WebStateList) throws -> T) throws -> T {
        try database.mutate { db in
            let (result, written) = try self.apply(db, browser: browser, body)
            self.remember(written, for: browser, in: db)
            return result
        }
    }

    @discardableResult
    public func insert(
        _ webState: WebState, in browser: BrowserID, params: InsertionParams, navigatingTo item: NavigationItem
    ) throws -> Int {
        var history = NavigationHistory()
        try history.commit(item)
        history = try history.withStoredPrecision()
        return try database.mutate { db in
            var (index, written) = try self.apply(db, browser: browser) { try $0.insert(webState, params: params).index }
            let empty = NavigationHistoryRows.Stored(
                tab: webState.id, browser: browser, history: NavigationHistory(), start: 0, rowIDs: [])
            try NavigationHistoryRows.write(db, from: empty, to: history)
            // That write set the tab's history index and grew the browser's revision: follow it.
            if let position = written.list.index(of: webState.id) {
                _ = try written.list.setNavigationIndex(history.currentIndex, forTabAt: position)
            }
            written.revision += 1
            self.remember(written, for: browser, in: db)
            return index
        }
    }

    /// Applies `body` to the browser's list inside the current transaction and
    /// writes the result: the shared path of every list mutation.
    private func apply<T>(
        _ db: Database, browser: BrowserID, _ body: (inout WebStateList) throws -> T
    ) throws -> (T, StoredWebStateList) {
        let stored = try self.stored(db, browser: browser)
        var list = stored.list
        let result = try body(&list)
        try touchActive(&list, from: stored.list)
        var change = WebStateListChange.between(stored.list, list)
        if try keepHistoryIndexes(&list, from: stored.list, change: change) {
            change = WebStateListChange.between(stored.list, list)
        }
        // SEMANTICS.md, Recently closed: removed tabs are closed, and restorable.
        try ClosedEntryRows.recordClosedTabs(
            db, browser: browser, change: change, before: stored.list, configuration: database.configuration)
        return (result, try WebStateListRows.write(db, browser: browser, from: stored, to: list, change: change))
    }

    @discardableResult
    public func moveWebState(_ id: WebStateID, to target: BrowserID, params: InsertionParams) throws -> Int {
        try database.mutate { db in
            guard let sourceText = try String.fetchOne(
                db, sql: "SELECT browser_id FROM tabs WHERE id = ? AND browser_id IS NOT NULL", arguments: [id.uuidString]),
                let source = BrowserID(uuidString: sourceText)
            else { throw StorageError.unknownTab(id.uuidString) }
            guard source != target else { throw WebStateListError.duplicateWebState(id) }
            let targetStored = try self.stored(db, browser: target)
            let sourceStored = try self.stored(db, browser: source)
            guard let index = sourceStored.list.index(of: id) else { throw StorageError.unknownTab(id.uuidString) }

            // SEMANTICS.md, Removal: the tab leaves its list as a detach does.
            var sourceList = sourceStored.list
            var moving = sourceList.webStates[index]
            _ = try sourceList.remove(at: index)
            try self.touchActive(&sourceList, from: sourceStored.list)
            // The row moves out of the source first (parked at a key no list uses), so it is kept.
            try db.execute(sql: "DELETE FROM tab_openers WHERE tab_id = ?", arguments: [id.uuidString])
            try db.execute(
                sql: "UPDATE tabs SET browser_id = ?, group_id = NULL, sort_key = ? WHERE id = ?",
                arguments: [target.uuidString, Int64.max, id.uuidString])
            let writtenSource = try WebStateListRows.write(
                db, browser: source, from: sourceStored, to: sourceList,
                change: .between(sourceStored.list, sourceList))

            // Then it is inserted into the target by the insertion rules, without its opener.
            moving.opener = nil
            var targetList = targetStored.list
            let (newIndex, _) = try targetList.insert(moving, params: params)
            try self.touchActive(&targetList, from: targetStored.list)
            let writtenTarget = try WebStateListRows.write(
                db, browser: target, from: targetStored, to: targetList,
                change: .between(targetStored.list, targetList))
            self.remember(writtenSource, for: source, in: db)
            self.remember(writtenTarget, for: target, in: db)
            return newIndex
        }
    }

    public func snapshot(of browser: BrowserID) throws -> WebStateListSnapshot {
        try database.read { db in try WebStateListRows.snapshot(db, browser: browser) }
    }

    public func observe(
        _ browser: BrowserID, onChange: @escaping @Sendable (Result<WebStateListSnapshot, any Error>) -> Void
    ) -> any StoreObservation {
        SnapshotObserver(database: database, fetch: { db in try WebStateListRows.snapshot(db, browser: browser) },
                         onChange: onChange)
    }

    // MARK: - Cache

    /// The browser's stored list: the cached one if its revision is current, else read anew.
    private func stored(_ db: Database, browser: BrowserID) throws -> StoredWebStateList {
        guard let revision = try WebStateListRows.revision(db, browser: browser) else {
            throw StorageError.unknownBrowser(browser.uuidString)
        }
        if let cached = cache.withLock({ $0[browser] }), cached.revision == revision {
            return cached
        }
        let loaded = try WebStateListRows.load(db, browser: browser)
        cache.withLock { $0[browser] = loaded }
        return loaded
    }

    /// Caches `stored` once the transaction commits; forgets the browser if it rolls back.
    private func remember(_ stored: StoredWebStateList, for browser: BrowserID, in db: Database) {
        db.afterNextTransaction(
            onCommit: { [self] _ in self.cache.withLock { $0[browser] = stored } },
            onRollback: { [self] _ in self.cache.withLock { _ = $0.removeValue(forKey: browser) } })
    }

    /// Puts back each tab's history index as the history repository stored it
    /// (`nil` for a new tab): the list does not own it. Returns whether any changed.
    private func keepHistoryIndexes(
        _ list: inout WebStateList, from previous: WebStateList, change: WebStateListChange
    ) throws -> Bool {
        var changed = false
        for id in change.inserted.union(change.updated) {
            guard let index = list.index(of: id) else { continue }
            let stored = previous.index(of: id).flatMap { previous.webStates[$0].navigationIndex }
            if list.webStates[index].navigationIndex != stored {
                _ = try list.setNavigationIndex(stored, forTabAt: index)
                changed = true
            }
        }
        return changed
    }

    /// Gives a newly active tab a last-active time of now, and every tab new to
    /// the list times at the precision the database keeps (milliseconds), so
    /// the cached list equals the list read back after a restart.
    private func touchActive(_ list: inout WebStateList, from previous: WebStateList) throws {
        if let index = list.activeIndex, list.webStates[index].id != previous.activeWebState?.id {
            _ = try list.setLastActiveAt(Date().storedPrecision, forTabAt: index)
        }
        guard list.count != previous.count || list.webStates.map(\.id) != previous.webStates.map(\.id) else { return }
        for index in list.webStates.indices where previous.index(of: list.webStates[index].id) == nil {
            let webState = list.webStates[index]
            _ = try list.setCreatedAt(webState.createdAt.storedPrecision, forTabAt: index)
            _ = try list.setLastActiveAt(webState.lastActiveAt.storedPrecision, forTabAt: index)
        }
    }
}
