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

    // Forgetting is a deletion a person asks for: like clearing browsing data, it
    // replaces the rolling snapshots, which still hold what was forgotten.

    public func forget(_ id: ClosedEntryID) throws {
        try database.mutate(forgetting(id))
        database.snapshotsClearedOfHistory()
    }

    public func forget(_ id: ClosedEntryID) async throws {
        try await database.mutate(forgetting(id))
        database.snapshotsClearedOfHistory()
    }

    public func forgetAll() throws {
        try database.mutate(forgettingAll())
        database.snapshotsClearedOfHistory()
    }

    public func forgetAll() async throws {
        try await database.mutate(forgettingAll())
        database.snapshotsClearedOfHistory()
    }

    // Pruning is a deletion too: the snapshots that hold a pruned tab go (see ``pruningEverywhere()``).

    @discardableResult
    public func pruneExpired() throws -> Int {
        try pruningEverywhere().removed
    }

    @discardableResult
    public func pruneExpired() async throws -> Int {
        let (removed, tabs) = try await database.mutate(pruning())
        guard removed > 0 else { return 0 }
        let database = database
        return try await database.handedOff {
            database.clearedEverywhere(removed: removed, checkpointWait: 0.1) { try Self.holdsAnyTab(of: tabs, $0) }
        }.removed
    }

    /// Prunes as ``pruneExpired()`` does, and says what that did beyond the rows:
    /// once something was pruned, the WAL is folded back and truncated (waiting
    /// 100 ms at most for other processes' reads), and every snapshot that holds
    /// a pruned tab is deleted, then a fresh one taken.
    package func pruningEverywhere() throws -> StoreClearing {
        let (removed, tabs) = try database.mutate(pruning())
        guard removed > 0 else { return StoreClearing(removed: 0) }
        return database.clearedEverywhere(removed: removed, checkpointWait: 0.1) { try Self.holdsAnyTab(of: tabs, $0) }
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

    private func forgetting(_ id: ClosedEntryID) -> @Sendable (Database) throws -> Void {
        { db in
            try db.execute(sql: "DELETE FROM closed_entries WHERE id = ?", arguments: [id.uuidString])
            if db.changesCount == 0 { throw StorageError.unknownClosedEntry(id.uuidString) }
            try TabSearchIndex.dropDeletedWords(db)
        }
    }

    private func forgettingAll() -> @Sendable (Database) throws -> Void {
        { db in
            try db.execute(sql: "DELETE FROM closed_entries")
            try TabSearchIndex.dropDeletedWords(db)
        }
    }

    /// Prunes, returning how many entries went and the ids of their tabs.
    private func pruning() -> @Sendable (Database) throws -> (Int, [String]) {
        let configuration = database.configuration
        return { db in
            // The tabs of recently closed entries: closed by themselves, or in a closed window.
            let closedTabs = """
                SELECT t.id FROM tabs AS t LEFT JOIN browsers AS b ON b.id = t.browser_id
                WHERE t.closed_entry_id IS NOT NULL OR b.closed_entry_id IS NOT NULL
                """
            let tabsBefore = Set(try String.fetchAll(db, sql: closedTabs))
            let before = try Int.fetchOne(db, sql: "SELECT count(*) FROM closed_entries") ?? 0
            try ClosedEntryRows.prune(db, configuration: configuration)
            let removed = before - (try Int.fetchOne(db, sql: "SELECT count(*) FROM closed_entries") ?? 0)
            guard removed > 0 else { return (0, []) }
            // The pruned pages left the search index through its triggers; merging drops their words.
            try TabSearchIndex.dropDeletedWords(db)
            return (removed, tabsBefore.subtracting(try String.fetchAll(db, sql: closedTabs)).sorted())
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
