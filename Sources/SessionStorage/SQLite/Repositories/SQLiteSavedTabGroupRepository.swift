import Foundation
internal import GRDB
import SessionModel

/// The SQLite implementation of ``SavedTabGroupRepository`` (migration 0010).
///
/// Each saved group is a browser row of its own, named in `saved_groups`, that no listing
/// shows as a window: it holds the group's tabs and its `tab_groups` row. Saving takes the
/// tabs out of the window through the model (the removal rules apply), then moves their rows
/// and the group's row; reopening moves them back and inserts the tabs through the model.
/// No history entry or engine-state blob is read or written. Thread-safe.
public final class SQLiteSavedTabGroupRepository: SavedTabGroupRepository {
    let database: SessionDatabase
    private var cache: WebStateListCache { database.lists }

    /// A repository over `database`.
    public init(database: SessionDatabase) {
        self.database = database
    }

    @discardableResult
    public func saveAndClose(_ group: TabGroupID, in browser: BrowserID) throws -> SavedTabGroup {
        try database.mutate(saving(group, in: browser))
    }

    @discardableResult
    public func saveAndClose(_ group: TabGroupID, in browser: BrowserID) async throws -> SavedTabGroup {
        try await database.mutate(saving(group, in: browser))
    }

    public func savedGroups() throws -> [SavedTabGroup] {
        try database.read(Self.readingAll)
    }

    public func savedGroups() async throws -> [SavedTabGroup] {
        try await database.read(Self.readingAll)
    }

    public func update(_ group: TabGroupID, visualData: TabGroupVisualData) throws {
        try database.mutate(updating(group, visualData: visualData))
    }

    public func update(_ group: TabGroupID, visualData: TabGroupVisualData) async throws {
        try await database.mutate(updating(group, visualData: visualData))
    }

    public func moveTab(in group: TabGroupID, from: Int, to: Int) throws {
        try database.mutate(movingTab(in: group, from: from, to: to))
    }

    public func moveTab(in group: TabGroupID, from: Int, to: Int) async throws {
        try await database.mutate(movingTab(in: group, from: from, to: to))
    }

    public func removeTab(at index: Int, from group: TabGroupID) throws {
        try database.mutate(removingTab(at: index, from: group))
    }

    public func removeTab(at index: Int, from group: TabGroupID) async throws {
        try await database.mutate(removingTab(at: index, from: group))
    }

    public func delete(_ group: TabGroupID) throws {
        try database.mutate(deleting(group))
    }

    public func delete(_ group: TabGroupID) async throws {
        try await database.mutate(deleting(group))
    }

    @discardableResult
    public func reopen(_ group: TabGroupID, in browser: BrowserID) throws -> Range<Int> {
        try database.mutate(reopening(group, in: browser))
    }

    @discardableResult
    public func reopen(_ group: TabGroupID, in browser: BrowserID) async throws -> Range<Int> {
        try await database.mutate(reopening(group, in: browser))
    }

    public func observe(
        onChange: @escaping @Sendable (Result<[SavedTabGroup], any Error>) -> Void
    ) -> any StoreObservation {
        // The groups' holders and their revisions sum up every change: the groups are read only
        // when one of them moved.
        let last = Protected<(signature: String, groups: [SavedTabGroup])?>(nil)
        return SnapshotObserver<[SavedTabGroup]>(
            database: database, tables: ["browsers", "saved_groups", "tab_groups"],
            fetch: { db in
                guard try db.tableExists("saved_groups") else { return [] }
                // Each holder with its revision (exact integers: a sum of revisions, which start at
                // random values up to 2^62, would round away a change as a floating-point total).
                let signature = try String.fetchOne(db, sql: """
                    SELECT group_concat(s.browser_id || ':' || b.revision, ' ')
                    FROM (SELECT browser_id FROM saved_groups ORDER BY browser_id) AS s
                    JOIN browsers AS b ON b.id = s.browser_id
                    """) ?? ""
                if let known = last.withLock({ $0 }), known.signature == signature { return known.groups }
                let groups = try Self.readingAll(db)
                last.withLock { $0 = (signature, groups) }
                return groups
            },
            onChange: onChange)
    }

    // MARK: - Transactions

    private func saving(_ group: TabGroupID, in browser: BrowserID) -> @Sendable (Database) throws -> SavedTabGroup {
        { [cache] db in
            guard try BrowserRows.isWindow(db, browser) else { throw StorageError.unknownBrowser(browser.uuidString) }
            var stored = try cache.take(db, browser: browser)
            let list = stored.list
            guard let range = list.range(of: group) else { throw WebStateListError.unknownGroup(group) }
            let ids = range.map { list.webStates[$0].id }
            var (_, newList, change) = try WebStateListEdit.apply(
                db, browser: browser, stored: &stored, ownsNewTabs: false
            ) { try $0.remove(RemovingIndexes(Array(range))) }
            // The group's row goes with its tabs, not away.
            change.groupsDeleted.remove(group)

            let holder = try Self.insertHolder(db, group: group, source: browser, savedAt: Date().storedPrecision)
            try db.execute(
                sql: "UPDATE tab_groups SET browser_id = ? WHERE id = ?", arguments: [holder.uuidString, group.uuidString])
            try TabRowMoves.move(db, ids, to: holder)
            try WebStateListRows.write(db, browser: browser, stored: &stored, list: newList, change: change)
            cache.remember(stored, for: browser)
            guard let saved = try Self.reading(db, holder: holder) else { throw WebStateListError.unknownGroup(group) }
            return saved
        }
    }

    private func updating(_ group: TabGroupID, visualData: TabGroupVisualData) -> @Sendable (Database) throws -> Void {
        { [cache] db in
            let holder = try Self.holder(db, of: group)
            // A saved group publishes no group record of this device: its rename marks none.
            try SyncRows.withoutNewMarks(db, of: [("group", group.uuidString)]) {
                try db.execute(
                    sql: "UPDATE tab_groups SET title = ?, color = ?, is_collapsed = ? WHERE id = ?",
                    arguments: [visualData.title, visualData.color.rawValue, visualData.isCollapsed, group.uuidString])
            }
            try Self.changed(db, holder: holder, cache: cache)
        }
    }

    private func movingTab(in group: TabGroupID, from: Int, to: Int) -> @Sendable (Database) throws -> Void {
        { [cache] db in
            let holder = try Self.holder(db, of: group)
            var tabs = try Self.tabIDs(db, holder: holder)
            for index in [from, to] where !tabs.indices.contains(index) {
                throw WebStateListError.indexOutOfRange(index: index, count: tabs.count)
            }
            guard from != to else { return }
            tabs.insert(tabs.remove(at: from), at: to)
            // Parked at keys of their own no list uses (their rowids, negated), then placed in order.
            try db.execute(sql: "UPDATE tabs SET sort_key = -1 - rowid WHERE browser_id = ?", arguments: [holder.uuidString])
            for (offset, tab) in tabs.enumerated() {
                try db.execute(
                    sql: "UPDATE tabs SET sort_key = ? WHERE id = ?", arguments: [SortKeyAllocator.step * Int64(offset), tab])
            }
            try SyncRows.markSavedGroup(db, group)
            try Self.changed(db, holder: holder, cache: cache)
        }
    }

    private func removingTab(at index: Int, from group: TabGroupID) -> @Sendable (Database) throws -> Void {
        { [cache] db in
            let holder = try Self.holder(db, of: group)
            let tabs = try Self.tabIDs(db, holder: holder)
            guard tabs.indices.contains(index) else {
                throw WebStateListError.indexOutOfRange(index: index, count: tabs.count)
            }
            // Its last tab: the group goes with it (a group holds at least one tab).
            if tabs.count == 1 { return try self.deleting(group)(db) }
            // A saved group's tab publishes no record of this device: its deletion marks none.
            try SyncRows.withoutNewMarks(db, of: [("tab", tabs[index]), ("closed", tabs[index]), ("device", "device")]) {
                try db.execute(sql: "DELETE FROM tabs WHERE id = ?", arguments: [tabs[index]])
            }
            try SyncRows.markSavedGroup(db, group)
            try Self.changed(db, holder: holder, cache: cache)
        }
    }

    /// The ids of the holder's tabs, in order.
    private static func tabIDs(_ db: Database, holder: BrowserID) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT id FROM tabs WHERE browser_id = ? ORDER BY sort_key", arguments: [holder.uuidString])
    }

    private func deleting(_ group: TabGroupID) -> @Sendable (Database) throws -> Void {
        { [cache] db in
            let holder = try Self.holder(db, of: group)
            // The browser's tabs, their histories, the group's row and the saved_groups row go with it.
            try db.execute(sql: "DELETE FROM browsers WHERE id = ?", arguments: [holder.uuidString])
            cache.forget(holder)
        }
    }

    private func reopening(_ group: TabGroupID, in browser: BrowserID) -> @Sendable (Database) throws -> Range<Int> {
        { [cache] db in
            let holder = try Self.holder(db, of: group)
            guard try BrowserRows.isWindow(db, browser) else { throw StorageError.unknownBrowser(browser.uuidString) }
            guard let saved = try Self.reading(db, holder: holder) else { throw WebStateListError.unknownGroup(group) }
            // The window's list before any row moves into it.
            var stored = try cache.take(db, browser: browser)
            var webStates: [WebState] = []
            for (offset, tab) in saved.tabs.enumerated() {
                webStates.append(try TabRowMoves.storedWebState(db, tab.id))
                // Parked at keys no list uses until the list below writes their places.
                try db.execute(
                    sql: "UPDATE tabs SET browser_id = ?, group_id = NULL, sort_key = ? WHERE id = ?",
                    arguments: [browser.uuidString, Int64.max - Int64(offset), tab.id.uuidString])
            }
            try db.execute(sql: "DELETE FROM tab_groups WHERE id = ?", arguments: [group.uuidString])
            try db.execute(sql: "DELETE FROM browsers WHERE id = ?", arguments: [holder.uuidString])
            cache.forget(holder)

            let (range, list, change) = try WebStateListEdit.apply(
                db, browser: browser, stored: &stored, ownsNewTabs: false
            ) { list -> Range<Int> in
                let start = list.count
                for webState in webStates { _ = try list.insert(webState, params: .atIndex(list.count)) }
                guard list.count > start else { return start..<start }
                _ = try list.createGroup(at: Array(start..<list.count), visualData: saved.visualData, id: group)
                return list.range(of: group) ?? start..<list.count
            }
            try WebStateListRows.write(db, browser: browser, stored: &stored, list: list, change: change)
            cache.remember(stored, for: browser)
            return range
        }
    }

    // MARK: - Rows

    /// Inserts the browser that holds saved group `group` and its `saved_groups` row; the
    /// group's `tab_groups` row and its tabs are the caller's to put in it (saving moves
    /// them, an import inserts them). It never counts as the most recently active window.
    static func insertHolder(_ db: Database, group: TabGroupID, source: BrowserID?, savedAt: Date) throws -> BrowserID {
        let holder = Browser(createdAt: savedAt, lastActiveAt: Date(timeIntervalSince1970: 0))
        try BrowserRows.insert(db, holder)
        try db.execute(
            sql: "INSERT INTO saved_groups (browser_id, group_id, source_browser_id, saved_at) VALUES (?, ?, ?, ?)",
            arguments: [holder.id.uuidString, group.uuidString, source?.uuidString, StoredDate(savedAt)])
        return holder.id
    }

    /// The browser that holds saved group `group`.
    static func holder(_ db: Database, of group: TabGroupID) throws -> BrowserID {
        guard try db.tableExists("saved_groups"),
              let text = try String.fetchOne(
                db, sql: "SELECT browser_id FROM saved_groups WHERE group_id = ?", arguments: [group.uuidString]),
              let holder = BrowserID(uuidString: text)
        else { throw WebStateListError.unknownGroup(group) }
        return holder
    }

    /// Moves the holder's revision on (the observation's signature) and drops its cached list:
    /// its rows changed without it.
    private static func changed(_ db: Database, holder: BrowserID, cache: WebStateListCache) throws {
        try db.execute(sql: "UPDATE browsers SET revision = revision + 1 WHERE id = ?", arguments: [holder.uuidString])
        cache.forget(holder)
    }

    /// Every saved group, most recently saved first (also the export's order).
    @Sendable static func readingAll(_ db: Database) throws -> [SavedTabGroup] {
        guard try db.tableExists("saved_groups") else { return [] }
        return try String.fetchAll(db, sql: "SELECT browser_id FROM saved_groups ORDER BY saved_at DESC, group_id")
            .compactMap(BrowserID.init(uuidString:)).compactMap { try reading(db, holder: $0) }
    }

    static func reading(_ db: Database, holder: BrowserID) throws -> SavedTabGroup? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT s.group_id, s.source_browser_id, s.saved_at, g.title, g.color, g.is_collapsed
            FROM saved_groups AS s JOIN tab_groups AS g ON g.id = s.group_id WHERE s.browser_id = ?
            """, arguments: [holder.uuidString]),
            let id = TabGroupID(uuidString: row[0])
        else { return nil }
        let tabs = try Row.fetchAll(db, sql: """
            SELECT t.id, p.title, p.url, p.virtual_url FROM tabs AS t LEFT JOIN tab_pages AS p ON p.tab_id = t.id
            WHERE t.browser_id = ? ORDER BY t.sort_key
            """, arguments: [holder.uuidString]).compactMap { row -> SavedTabGroup.Tab? in
            guard let id = WebStateID(uuidString: row[0]) else { return nil }
            let virtualURL: String? = row[3]
            let url: String? = row[2]
            return SavedTabGroup.Tab(id: id, title: row[1] ?? "", url: virtualURL ?? url)
        }
        return SavedTabGroup(
            id: id,
            visualData: TabGroupVisualData(
                title: row[3], color: TabGroupColor(rawValue: row[4]) ?? .grey, isCollapsed: row[5]),
            tabs: tabs, sourceBrowser: (row[1] as String?).flatMap(BrowserID.init(uuidString:)),
            savedAt: try row.storedDate(atIndex: 2))
    }
}
