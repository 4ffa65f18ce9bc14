import Foundation
internal import GRDB
import SessionModel

/// The SQLite implementation of ``RecentlyClosedRepository``.
public final class SQLiteRecentlyClosedRepository: RecentlyClosedRepository {
    private let database: SessionDatabase

    /// A repository over `database`.
    public init(database: SessionDatabase) {
        self.database = database
    }

    public func entries() throws -> [RecentlyClosedEntry] {
        try database.read(readingEntries())
    }

    public func entries() async throws -> [RecentlyClosedEntry] {
        try await database.read(readingEntries())
    }

    @discardableResult
    public func restore(_ id: ClosedEntryID) throws -> BrowserID {
        try database.mutate(restoring(id))
    }

    @discardableResult
    public func restore(_ id: ClosedEntryID) async throws -> BrowserID {
        try await database.mutate(restoring(id))
    }

    // Forgetting and pruning are deletions a person asks for: like clearing browsing
    // data, they delete the snapshots that still hold a removed tab, and take a fresh one.

    public func forget(_ id: ClosedEntryID) throws {
        _ = try removingEverywhere(forgetting(id))
    }

    public func forget(_ id: ClosedEntryID) async throws {
        _ = try await removingEverywhere(forgetting(id))
    }

    public func forgetAll() throws {
        _ = try removingEverywhere(forgettingAll())
    }

    public func forgetAll() async throws {
        _ = try await removingEverywhere(forgettingAll())
    }

    @discardableResult
    public func pruneExpired() throws -> Int {
        try pruningEverywhere().removed
    }

    @discardableResult
    public func pruneExpired() async throws -> Int {
        try await removingEverywhere(pruning()).removed
    }

    /// Prunes as ``pruneExpired()`` does, and says what that did beyond the rows:
    /// once something was pruned, the WAL is folded back and truncated (waiting
    /// 100 ms at most for other processes' reads), and every snapshot that holds
    /// a pruned tab is deleted, then a fresh one taken.
    package func pruningEverywhere() throws -> StoreClearing {
        try removingEverywhere(pruning())
    }

    /// Runs `removal`, which deletes recently closed entries, then, if any went,
    /// clears the WAL and the snapshots of their tabs (see ``pruningEverywhere()``).
    private func removingEverywhere(_ removal: @Sendable (Database) throws -> Int) throws -> StoreClearing {
        let (removed, tabs) = try database.mutate { db in try Self.removingClosedTabs(db, removal) }
        guard removed > 0 else { return StoreClearing(removed: 0) }
        return database.clearedEverywhere(removed: removed, checkpointWait: 0.1) { try Self.holdsAnyTab(of: tabs, $0) }
    }

    /// As the synchronous form, with the transaction on the writer queue and the rest on a background thread.
    private func removingEverywhere(_ removal: @escaping @Sendable (Database) throws -> Int) async throws -> StoreClearing {
        let (removed, tabs) = try await database.mutate { db in try Self.removingClosedTabs(db, removal) }
        guard removed > 0 else { return StoreClearing(removed: 0) }
        let database = database
        return try await database.handedOff {
            database.clearedEverywhere(removed: removed, checkpointWait: 0.1) { try Self.holdsAnyTab(of: tabs, $0) }
        }
    }

    /// Runs `removal` (it returns how many entries it deleted), and returns that
    /// with the ids of the tabs that left recently closed with them.
    private static func removingClosedTabs(
        _ db: Database, _ removal: (Database) throws -> Int
    ) throws -> (Int, [String]) {
        // The tabs of recently closed entries: closed by themselves, or in a closed window.
        let closedTabs = """
            SELECT t.id FROM tabs AS t LEFT JOIN browsers AS b ON b.id = t.browser_id
            WHERE t.closed_entry_id IS NOT NULL OR b.closed_entry_id IS NOT NULL
            """
        let before = Set(try String.fetchAll(db, sql: closedTabs))
        let removed = try removal(db)
        guard removed > 0 else { return (0, []) }
        return (removed, before.subtracting(try String.fetchAll(db, sql: closedTabs)).sorted())
    }

    /// Whether the store `db` (a snapshot, say) holds one of `tabs`, open or closed.
    private static func holdsAnyTab(of tabs: [String], _ db: Database) throws -> Bool {
        guard !tabs.isEmpty else { return false }
        let list = String(decoding: try JSONEncoder().encode(tabs), as: UTF8.self)
        return try Bool.fetchOne(
            db, sql: "SELECT 1 FROM tabs WHERE id IN (SELECT value FROM json_each(?)) LIMIT 1", arguments: [list]) ?? false
    }

    // MARK: - Transactions

    private func readingEntries() -> @Sendable (Database) throws -> [RecentlyClosedEntry] {
        { db in try ClosedEntryRows.entries(db) }
    }

    private func restoring(_ id: ClosedEntryID) -> @Sendable (Database) throws -> BrowserID {
        let offTheRecord = database.isOffTheRecord
        let lists = database.lists
        return { db in
            guard let entry = try ClosedEntryRows.entry(db, id: id) else {
                throw StorageError.unknownClosedEntry(id.uuidString)
            }
            if entry.kind == .window {
                // The window is the browser that names the entry (whatever the entry's browser_id says).
                guard let text = try String.fetchOne(
                    db, sql: "SELECT id FROM browsers WHERE closed_entry_id = ?", arguments: [id.uuidString]),
                    let browser = BrowserID(uuidString: text)
                else {
                    throw StoredValueDamage(reason: "the closed window entry \(id) has no window; run `sessionstore check`")
                }
                try db.execute(
                    sql: "UPDATE browsers SET closed_entry_id = NULL, last_active_at = ? WHERE id = ?",
                    arguments: [StoredDate(try BrowserRows.latestActivation(db)), browser.uuidString])
                try db.execute(sql: "DELETE FROM closed_entries WHERE id = ?", arguments: [id.uuidString])
                return browser
            }
            // TabListRules.md, Recently closed: back in the original browser if it is still open.
            let target: BrowserID
            if let original = entry.browser, try WebStateListRows.revision(db, browser: original) != nil {
                target = original
            } else {
                target = try BrowserRows.insert(db, offTheRecord: offTheRecord).id
            }
            var stored = try lists.take(db, browser: target)
            let webStates = try entry.tabs.map { try Self.webState(db, id: $0.id) }
            let (_, list, change) = try WebStateListEdit.apply(
                db, browser: target, stored: &stored, ownsNewTabs: false) { list in
                try Self.insert(entry, webStates: webStates, into: &list)
            }
            // The rows leave the entry as the list takes them back; then the entry goes.
            try WebStateListRows.write(db, browser: target, stored: &stored, list: list, change: change)
            lists.remember(stored, for: target)
            try db.execute(sql: "DELETE FROM closed_entries WHERE id = ?", arguments: [id.uuidString])
            return target
        }
    }

    private func forgetting(_ id: ClosedEntryID) -> @Sendable (Database) throws -> Int {
        { db in
            let forgotten = try SyncRows.deletingClosedTabs(db) {
                try db.execute(sql: "DELETE FROM closed_entries WHERE id = ?", arguments: [id.uuidString])
                return db.changesCount
            }
            if forgotten == 0 { throw StorageError.unknownClosedEntry(id.uuidString) }
            try TabSearchIndex.dropDeletedWords(db)
            return 1
        }
    }

    private func forgettingAll() -> @Sendable (Database) throws -> Int {
        { db in
            let removed = try SyncRows.deletingClosedTabs(db) {
                try db.execute(sql: "DELETE FROM closed_entries")
                return db.changesCount
            }
            try TabSearchIndex.dropDeletedWords(db)
            return removed
        }
    }

    /// Prunes, returning how many entries went.
    private func pruning() -> @Sendable (Database) throws -> Int {
        let configuration = database.configuration
        return { db in
            let before = try Int.fetchOne(db, sql: "SELECT count(*) FROM closed_entries") ?? 0
            try ClosedEntryRows.prune(db, configuration: configuration)
            let removed = before - (try Int.fetchOne(db, sql: "SELECT count(*) FROM closed_entries") ?? 0)
            // The pruned pages left the search index through its triggers; merging drops their words.
            if removed > 0 { try TabSearchIndex.dropDeletedWords(db) }
            return removed
        }
    }

    // MARK: - Observing

    public func observe(
        onChange: @escaping @Sendable (Result<[RecentlyClosedEntry], any Error>) -> Void
    ) -> any StoreObservation {
        SnapshotObserver(
            database: database, tables: ["closed_entries", "tabs", "navigation_entries"], fetch: readingEntries(),
            onChange: onChange)
    }

    /// <doc:TabListRules>, Recently closed: a tab back at its index (pinned, or into
    /// its group if it still exists); a group back as a group; the restored tab
    /// (or the group's first) active.
    private static func insert(
        _ entry: RecentlyClosedEntry, webStates: [WebState], into list: inout WebStateList
    ) throws {
        let start = entry.tabIndex ?? list.count
        if entry.kind == .group, let group = entry.group {
            var indexes: [Int] = []
            for (offset, webState) in webStates.enumerated() {
                indexes.append(try list.insert(webState, params: .atIndex(start + offset)).index)
            }
            let groupID = list.groups[group.id] == nil ? group.id : TabGroupID()
            _ = try list.createGroup(at: indexes, visualData: group.visualData, id: groupID)
            if let first = webStates.first, let index = list.index(of: first.id) { _ = try list.activate(at: index) }
        } else if let webState = webStates.first, let tab = entry.tabs.first {
            var params = InsertionParams.atIndex(start).activate()
            if tab.wasPinned {
                params = params.pinned()
            } else if let group = entry.group?.id, list.groups[group] != nil {
                params = params.inGroup(group)
            }
            _ = try list.insert(webState, params: params)
        }
    }

    /// A closed tab's list fields, read from its row.
    private static func webState(_ db: Database, id: WebStateID) throws -> WebState {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT created_at, last_active_at, current_entry_index FROM tabs WHERE id = ?",
            arguments: [id.uuidString])
        else { throw StorageError.unknownTab(id.uuidString) }
        return WebState(
            id: id, navigationIndex: try row.decode(forColumn: "current_entry_index"), createdAt: try row.storedDate("created_at"),
            lastActiveAt: try row.storedDate("last_active_at"))
    }
}
