import Foundation
internal import GRDB
import SessionModel

/// The SQLite implementation of ``WebStateListRepository``.
///
/// Uses the store's cache of each browser's list, checked against the
/// browser's `revision` (see `WebStateListCache`): a mutation costs one indexed
/// read to validate the cache, the model's rules, and the rows the change
/// touches. Thread-safe.
public final class SQLiteWebStateListRepository: WebStateListRepository {
    let database: SessionDatabase
    private var cache: WebStateListCache { database.lists }

    /// A repository over `database`.
    public init(database: SessionDatabase) {
        self.database = database
    }

    public func webStateList(in browser: BrowserID) throws -> WebStateList {
        try database.read(reading(browser))
    }

    public func webStateList(in browser: BrowserID) async throws -> WebStateList {
        try await database.read(reading(browser))
    }

    @discardableResult
    public func update<T>(_ browser: BrowserID, _ body: (inout WebStateList) throws -> T) throws -> T {
        try database.mutate { db in try self.applyAndRemember(db, browser: browser, body) }
    }

    @discardableResult
    public func update<T: Sendable>(
        _ browser: BrowserID, _ body: @escaping @Sendable (inout WebStateList) throws -> T
    ) async throws -> T {
        try await database.mutate { db in try self.applyAndRemember(db, browser: browser, body) }
    }

    @discardableResult
    public func insert(
        _ webState: WebState, in browser: BrowserID, params: InsertionParams, navigatingTo item: NavigationItem
    ) throws -> Int {
        try database.mutate(try inserting(webState, in: browser, params: params, navigatingTo: item))
    }

    @discardableResult
    public func insert(
        _ webState: WebState, in browser: BrowserID, params: InsertionParams, navigatingTo item: NavigationItem
    ) async throws -> Int {
        try await database.mutate(try inserting(webState, in: browser, params: params, navigatingTo: item))
    }

    @discardableResult
    public func moveWebState(_ id: WebStateID, to target: BrowserID, params: InsertionParams) throws -> Int {
        try database.mutate(moving(id, to: target, params: params))
    }

    @discardableResult
    public func moveWebState(_ id: WebStateID, to target: BrowserID, params: InsertionParams) async throws -> Int {
        try await database.mutate(moving(id, to: target, params: params))
    }

    // MARK: - Transactions

    /// Reads the browser's list (from the cache when it is current).
    private func reading(_ browser: BrowserID) -> @Sendable (Database) throws -> WebStateList {
        { [cache] db in try cache.current(db, browser: browser).list }
    }

    /// Applies `body` and remembers the written list: the transaction of ``update(_:_:)``.
    private func applyAndRemember<T>(
        _ db: Database, browser: BrowserID, _ body: (inout WebStateList) throws -> T
    ) throws -> T {
        let (result, written) = try apply(db, browser: browser, body)
        cache.remember(written, for: browser)
        return result
    }

    /// The transaction that inserts a tab and commits its first page.
    private func inserting(
        _ webState: WebState, in browser: BrowserID, params: InsertionParams, navigatingTo item: NavigationItem
    ) throws -> @Sendable (Database) throws -> Int {
        var history = NavigationHistory()
        try history.commit(item)
        let firstPage = try history.withStoredPrecision()
        return { db in
            var (index, written) = try self.apply(db, browser: browser) { try $0.insert(webState, params: params).index }
            let empty = NavigationHistoryRows.Stored(
                tab: webState.id, browser: browser, history: NavigationHistory(), start: 0, rowIDs: [])
            // An identifier used before (a tab forgotten, then inserted again) must not find its old history cached.
            self.database.histories.forget(webState.id)
            if let revision = try NavigationHistoryRows.write(db, from: empty, to: firstPage) {
                // That write set the tab's history index and grew the browser's revision: follow it.
                if let position = written.list.index(of: webState.id) {
                    _ = try written.list.setNavigationIndex(firstPage.currentIndex, forTabAt: position)
                }
                written.rows[webState.id]?.navigationIndex = firstPage.currentIndex
                if revision.before != written.revision { written.forgetPages() }
                written.revision = revision.after
                if written.pages != nil {
                    written.pageChanged(webState.id, to: try WebStateListRows.page(db, tab: webState.id, source: .table))
                }
            }
            self.cache.remember(written, for: browser)
            return index
        }
    }

    /// The transaction that moves a tab to another browser.
    private func moving(
        _ id: WebStateID, to target: BrowserID, params: InsertionParams
    ) -> @Sendable (Database) throws -> Int {
        { db in
            guard let sourceText = try String.fetchOne(
                db, sql: "SELECT browser_id FROM tabs WHERE id = ? AND browser_id IS NOT NULL", arguments: [id.uuidString]),
                let source = BrowserID(uuidString: sourceText)
            else { throw StorageError.unknownTab(id.uuidString) }
            guard source != target else { throw WebStateListError.duplicateWebState(id) }
            var targetStored = try self.cache.take(db, browser: target)
            var sourceStored = try self.cache.take(db, browser: source)
            guard let index = sourceStored.list.index(of: id) else { throw StorageError.unknownTab(id.uuidString) }
            var moving = sourceStored.list.webStates[index]

            // TabListRules.md, Removal: the tab leaves its list as a detach does.
            // The row moves out of the source first (parked at a key no list uses), so it is kept.
            let (_, sourceList, sourceChange) = try WebStateListEdit.apply(
                db, browser: source, stored: &sourceStored, ownsNewTabs: false) { try $0.remove(at: index) }
            try db.execute(sql: "DELETE FROM tab_openers WHERE tab_id = ?", arguments: [id.uuidString])
            try db.execute(
                sql: "UPDATE tabs SET browser_id = ?, group_id = NULL, sort_key = ? WHERE id = ?",
                arguments: [target.uuidString, Int64.max, id.uuidString])
            try WebStateListRows.write(db, browser: source, stored: &sourceStored, list: sourceList, change: sourceChange)

            // Then it is inserted into the target by the insertion rules, without its opener.
            moving.opener = nil
            let (newIndex, targetList, targetChange) = try WebStateListEdit.apply(
                db, browser: target, stored: &targetStored, ownsNewTabs: false) {
                try $0.insert(moving, params: params).index
            }
            try WebStateListRows.write(db, browser: target, stored: &targetStored, list: targetList, change: targetChange)
            self.cache.remember(sourceStored, for: source)
            self.cache.remember(targetStored, for: target)
            return newIndex
        }
    }

    // MARK: - Observing

    public func snapshot(of browser: BrowserID) throws -> WebStateListSnapshot {
        try database.read { db in try Self.snapshot(db, browser: browser, cache: self.cache) }
    }

    public func snapshot(of browser: BrowserID) async throws -> WebStateListSnapshot {
        try await database.read { [cache] db in try Self.snapshot(db, browser: browser, cache: cache) }
    }

    public func observe(
        _ browser: BrowserID, onChange: @escaping @Sendable (Result<WebStateListSnapshot, any Error>) -> Void
    ) -> any StoreObservation {
        let cache = self.cache
        // One revision is one state of the list and its pages (every change moves it on, the
        // triggers of `tab_pages` included): two reads at one revision are the same, uncompared.
        return SnapshotObserver<RevisionedSnapshot>(
            database: database, tables: ["browsers", "tabs", "tab_groups", "tab_openers", "navigation_entries"],
            fetch: { db in try Self.revisionedSnapshot(db, browser: browser, cache: cache) },
            isSame: { $0.revision == $1.revision }, onChange: { onChange($0.map(\.snapshot)) })
    }

    /// The list (from the cache when it is current) and each tab's current page.
    private static func snapshot(_ db: Database, browser: BrowserID, cache: WebStateListCache) throws -> WebStateListSnapshot {
        try revisionedSnapshot(db, browser: browser, cache: cache).snapshot
    }

    private static func revisionedSnapshot(
        _ db: Database, browser: BrowserID, cache: WebStateListCache
    ) throws -> RevisionedSnapshot {
        let (stored, pages) = try cache.currentWithPages(db, browser: browser)
        return RevisionedSnapshot(
            revision: stored.revision, snapshot: WebStateListSnapshot(browser: browser, list: stored.list, pages: pages))
    }

    /// Applies `body` to the browser's list inside the current transaction and
    /// writes the result: the path of every mutation made through ``update(_:_:)``.
    private func apply<T>(
        _ db: Database, browser: BrowserID, _ body: (inout WebStateList) throws -> T
    ) throws -> (T, StoredWebStateList) {
        var stored = try cache.take(db, browser: browser)
        let groupsBefore = stored.list.groups
        let (result, list, change) = try WebStateListEdit.apply(
            db, browser: browser, stored: &stored, ownsNewTabs: true, body)
        // TabListRules.md, Recently closed: removed tabs are closed, and restorable.
        try ClosedEntryRows.recordClosedTabs(
            db, browser: browser, change: change, groupsBefore: groupsBefore, configuration: database.configuration)
        try WebStateListRows.write(db, browser: browser, stored: &stored, list: list, change: change)
        return (result, stored)
    }
}

/// A snapshot with the browser's revision it was read at: equal when the revisions are.
struct RevisionedSnapshot: Sendable, Equatable {
    var revision: Int64
    var snapshot: WebStateListSnapshot

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.revision == rhs.revision }
}
