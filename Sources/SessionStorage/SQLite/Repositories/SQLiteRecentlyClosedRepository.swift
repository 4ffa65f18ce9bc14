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

    @discardableResult
    public func pruneExpired() throws -> Int {
        try database.mutate(pruning())
    }

    @discardableResult
    public func pruneExpired() async throws -> Int {
        try await database.mutate(pruning())
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

    private func pruning() -> @Sendable (Database) throws -> Int {
        let configuration = database.configuration
        return { db in
            let before = try Int.fetchOne(db, sql: "SELECT count(*) FROM closed_entries") ?? 0
            try ClosedEntryRows.prune(db, configuration: configuration)
            return before - (try Int.fetchOne(db, sql: "SELECT count(*) FROM closed_entries") ?? 0)
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
