import Foundation
internal import GRDB
import SessionModel

/// One change to a browser's stored list inside a write transaction: the
/// shared path of every list mutation, whatever the repository.
///
/// The list is moved out of `stored` before `body` runs, so its arrays are
/// uniquely referenced and change in place; what changed comes from the list's
/// own recording (`WebStateList.takeRecordedChanges()`), never from diffing
/// the whole list. A closure that replaced the list wholesale (its `lineage`
/// changed) is caught and diffed against the database.
enum WebStateListEdit {
    /// Runs `body` on the list and returns its result, the new list and the change to write.
    ///
    /// - Parameters:
    ///   - ownsNewTabs: Whether tabs entering the list are new (their history
    ///     index starts empty) rather than restored or moved rows with a history.
    static func apply<T>(
        _ db: Database, browser: BrowserID, stored: inout StoredWebStateList, ownsNewTabs: Bool,
        _ body: (inout WebStateList) throws -> T
    ) throws -> (result: T, list: WebStateList, change: WebStateListChange) {
        var list = stored.list
        stored.list = WebStateList()
        _ = list.takeRecordedChanges()
        let lineage = list.lineage
        let result = try body(&list)
        var change = list.takeRecordedChanges()
        if list.lineage != lineage {
            // The list was assigned wholesale: its recording is not this edit's. Diff with the database.
            var current = try WebStateListRows.load(db, browser: browser)
            current.completeRowImages()
            change = .between(current.list, list)
            stored = current
        }
        if ownsNewTabs { try refuseStoredTabs(db, change: change) }
        try stamp(&list, change: change)
        if ownsNewTabs { try keepHistoryIndexes(db, &list, change: change, rows: stored.rows) }
        change.formUnion(list.takeRecordedChanges())
        return (result, list, change)
    }

    /// Refuses a new tab whose identifier the store already has (in another
    /// browser, or in a recently closed entry): inserting it would take that
    /// row away from where it is. Moving a tab between browsers and restoring a
    /// closed one take their rows on purpose, through their own paths.
    ///
    /// - Throws: `WebStateListError.duplicateWebState(_:)`.
    private static func refuseStoredTabs(_ db: Database, change: WebStateListChange) throws {
        for id in change.inserted {
            let exists = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM tabs WHERE id = ?"), arguments: [id.uuidString]) ?? false
            if exists { throw WebStateListError.duplicateWebState(id) }
        }
    }

    /// Gives a newly active tab a last-active time of now, and every tab new to
    /// the list times at the precision the database keeps (milliseconds), so
    /// the cached list equals the list read back after a restart.
    private static func stamp(_ list: inout WebStateList, change: WebStateListChange) throws {
        if change.activeChanged, let index = list.activeIndex {
            _ = try list.setLastActiveAt(Date().storedPrecision, forTabAt: index)
        }
        for index in WebStateListRows.positions(of: change.inserted, in: list).values {
            let webState = list.webStates[index]
            _ = try list.setCreatedAt(webState.createdAt.storedPrecision, forTabAt: index)
            _ = try list.setLastActiveAt(webState.lastActiveAt.storedPrecision, forTabAt: index)
        }
    }

    /// Puts back the history index of each tab the change touched, as the
    /// history repository stored it (`nil` for a new tab): the list does not own it.
    private static func keepHistoryIndexes(
        _ db: Database, _ list: inout WebStateList, change: WebStateListChange, rows: [WebStateID: TabRowImage]
    ) throws {
        for (id, index) in WebStateListRows.positions(of: change.inserted.union(change.updated), in: list) {
            // The stored index: from the row image when the list has one (it follows history writes).
            let stored = change.inserted.contains(id)
                ? nil
                : try rows[id].map(\.navigationIndex) ?? Int.fetchOne(
                    db.cachedStatement(sql: "SELECT current_entry_index FROM tabs WHERE id = ?"), arguments: [id.uuidString])
            if list.webStates[index].navigationIndex != stored {
                _ = try list.setNavigationIndex(stored, forTabAt: index)
            }
        }
    }
}
