import Foundation
import GRDB
import SessionModel
import Synchronization

/// The SQLite implementation of ``WebStateListRepository``.
///
/// Uses the store's cache of each browser's list, checked against the
/// browser's `revision` (see `WebStateListCache`): a mutation costs one indexed
/// read to validate the cache, the model's rules, and the rows the change
/// touches. Thread-safe.
public final class SQLiteWebStateListRepository: WebStateListRepository {
    private let database: SessionDatabase
    private var cache: WebStateListCache { database.lists }

    /// A repository over `database`.
    public init(database: SessionDatabase) {
        self.database = database
    }

    public func webStateList(in browser: BrowserID) throws -> WebStateList {
        try ReentrancyGuard.check()
        return try database.read { db in try self.cache.current(db, browser: browser).list }
    }

    @discardableResult
    public func update<T>(_ browser: BrowserID, _ body: (inout WebStateList) throws -> T) throws -> T {
        try database.mutate { db in
            let (result, written) = try self.apply(db, browser: browser, body)
            self.cache.remember(written, for: browser, in: db)
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
            if let revision = try NavigationHistoryRows.write(db, from: empty, to: history) {
                // That write set the tab's history index and grew the browser's revision: follow it.
                if let position = written.list.index(of: webState.id) {
                    _ = try written.list.setNavigationIndex(history.currentIndex, forTabAt: position)
                }
                written.revision = revision
            }
            self.cache.remember(written, for: browser, in: db)
            return index
        }
    }

    @discardableResult
    public func moveWebState(_ id: WebStateID, to target: BrowserID, params: InsertionParams) throws -> Int {
        try database.mutate { db in
            guard let sourceText = try String.fetchOne(
                db, sql: "SELECT browser_id FROM tabs WHERE id = ? AND browser_id IS NOT NULL", arguments: [id.uuidString]),
                let source = BrowserID(uuidString: sourceText)
            else { throw StorageError.unknownTab(id.uuidString) }
            guard source != target else { throw WebStateListError.duplicateWebState(id) }
            let targetStored = try self.cache.take(db, browser: target)
            let sourceStored = try self.cache.take(db, browser: source)
            guard let index = sourceStored.list.index(of: id) else { throw StorageError.unknownTab(id.uuidString) }

            // SEMANTICS.md, Removal: the tab leaves its list as a detach does.
            var sourceList = sourceStored.list
            var moving = sourceList.webStates[index]
            _ = try sourceList.remove(at: index)
            try self.stamp(&sourceList, change: .between(sourceStored.list, sourceList))
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
            try self.stamp(&targetList, change: .between(targetStored.list, targetList))
            let writtenTarget = try WebStateListRows.write(
                db, browser: target, from: targetStored, to: targetList,
                change: .between(targetStored.list, targetList))
            self.cache.remember(writtenSource, for: source, in: db)
            self.cache.remember(writtenTarget, for: target, in: db)
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

    /// Applies `body` to the browser's list inside the current transaction and
    /// writes the result: the shared path of every list mutation.
    private func apply<T>(
        _ db: Database, browser: BrowserID, _ body: (inout WebStateList) throws -> T
    ) throws -> (T, StoredWebStateList) {
        var stored = try cache.take(db, browser: browser)
        let before = stored.list
        var list = stored.list
        let result = try body(&list)
        var change = WebStateListChange.between(before, list)
        try stamp(&list, change: change)
        if try keepHistoryIndexes(db, &list, change: change) || !change.inserted.isEmpty || change.activeChanged {
            change = WebStateListChange.between(before, list)
        }
        // SEMANTICS.md, Recently closed: removed tabs are closed, and restorable.
        try ClosedEntryRows.recordClosedTabs(
            db, browser: browser, change: change, groupsBefore: before.groups, configuration: database.configuration)
        try WebStateListRows.write(db, browser: browser, stored: &stored, list: list, change: change)
        return (result, stored)
    }

    /// Puts back the history index of each tab the change touched, as the
    /// history repository stored it (`nil` for a new tab): the list does not own
    /// it. Returns whether any changed.
    private func keepHistoryIndexes(_ db: Database, _ list: inout WebStateList, change: WebStateListChange) throws -> Bool {
        var changed = false
        for id in change.inserted.union(change.updated) {
            guard let index = list.index(of: id) else { continue }
            let stored = change.inserted.contains(id)
                ? nil
                : try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT current_entry_index FROM tabs WHERE id = ?"), arguments: [id.uuidString])
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
    private func stamp(_ list: inout WebStateList, change: WebStateListChange) throws {
        if change.activeChanged, let index = list.activeIndex {
            _ = try list.setLastActiveAt(Date().storedPrecision, forTabAt: index)
        }
        for id in change.inserted {
            guard let index = list.index(of: id) else { continue }
            let webState = list.webStates[index]
            _ = try list.setCreatedAt(webState.createdAt.storedPrecision, forTabAt: index)
            _ = try list.setLastActiveAt(webState.lastActiveAt.storedPrecision, forTabAt: index)
        }
    }
}
