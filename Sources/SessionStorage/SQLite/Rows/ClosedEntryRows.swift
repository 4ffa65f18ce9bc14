import Foundation
internal import GRDB
import SessionModel

/// The SQL that records, lists, prunes and deletes recently closed entries.
///
/// A closed tab keeps its row in `tabs` (with its history and engine state),
/// pointing at its `closed_entries` row instead of a browser; a closed window
/// keeps its `browsers` row, which points at its entry. Deleting an entry
/// deletes all of it by cascade.
enum ClosedEntryRows {
    // MARK: - Recording

    /// Records the tabs a list mutation removed: one entry per tab, or one
    /// group entry for every group whose tabs all closed together.
    ///
    /// Moves the rows out of the browser (so the list writer keeps them) and
    /// drops their opener links; then applies the cap and lifetime.
    static func recordClosedTabs(
        _ db: Database, browser: BrowserID, change: WebStateListChange, groupsBefore: [TabGroupID: TabGroup],
        configuration: SessionDatabase.Configuration
    ) throws {
        guard !change.removed.isEmpty else { return }
        let now = Date()
        var remaining = change.removed
        // A group deleted while its tabs were removed closed as a whole.
        for group in change.groupsDeleted {
            let closing = remaining.filter { $0.groupID == group }
            guard let first = closing.map(\.index).min(), let visual = groupsBefore[group]?.visualData else { continue }
            remaining.removeAll { $0.groupID == group }
            let entry = try insertEntry(
                db, kind: .group, at: now, browser: browser, tabIndex: first, group: group, visual: visual)
            for tab in closing.sorted(by: { $0.index < $1.index }) {
                try moveToEntry(db, tab: tab.webState.id, entry: entry)
            }
        }
        for removed in remaining.sorted(by: { $0.index < $1.index }) {
            let visual = removed.groupID.flatMap { groupsBefore[$0]?.visualData }
            let entry = try insertEntry(
                db, kind: .tab, at: now, browser: browser, tabIndex: removed.index, group: removed.groupID,
                visual: visual)
            try moveToEntry(db, tab: removed.webState.id, entry: entry)
        }
        try prune(db, configuration: configuration)
    }

    /// Records a whole browser as a closed window.
    static func recordClosedWindow(
        _ db: Database, browser: BrowserID, configuration: SessionDatabase.Configuration
    ) throws {
        let entry = try insertEntry(db, kind: .window, at: Date(), browser: browser, tabIndex: nil, group: nil, visual: nil)
        try db.execute(
            sql: "UPDATE browsers SET closed_entry_id = ? WHERE id = ?", arguments: [entry.uuidString, browser.uuidString])
        try prune(db, configuration: configuration)
    }

    private static func insertEntry(
        _ db: Database, kind: RecentlyClosedEntry.Kind, at date: Date, browser: BrowserID, tabIndex: Int?,
        group: TabGroupID?, visual: TabGroupVisualData?
    ) throws -> ClosedEntryID {
        let id = ClosedEntryID()
        try db.cachedStatement(sql: """
            INSERT INTO closed_entries (id, kind, closed_at, browser_id, tab_index, group_id, group_title,
                                        group_color, group_collapsed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                id.uuidString, kind.rawValue, StoredDate(date), browser.uuidString, tabIndex, group?.uuidString, visual?.title,
                visual?.color.rawValue, visual?.isCollapsed])
        return id
    }

    private static func moveToEntry(_ db: Database, tab: WebStateID, entry: ClosedEntryID) throws {
        try db.cachedStatement(sql: "DELETE FROM tab_openers WHERE tab_id = ? OR opener_tab_id = ?")
            .execute(arguments: [tab.uuidString, tab.uuidString])
        try db.cachedStatement(sql: """
            UPDATE tabs SET browser_id = NULL, closed_entry_id = ?, group_id = NULL WHERE id = ?
            """).execute(arguments: [entry.uuidString, tab.uuidString])
    }

    /// Keeps the newest `maximumClosedEntries` entries younger than `closedEntryLifetime`.
    static func prune(_ db: Database, configuration: SessionDatabase.Configuration, now: Date = Date()) throws {
        let cutoff = StoredDate(now.addingTimeInterval(-configuration.closedEntryLifetime))
        let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM closed_entries")) ?? 0
        let expired = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM closed_entries WHERE closed_at < ?)"),
            arguments: [cutoff]) ?? false
        guard expired || count > configuration.maximumClosedEntries else { return }
        // Sync: the pruned tabs' `closed` records go, not their open-tab records, tombstoned when they closed.
        try SyncRows.deletingClosedTabs(db) {
            try db.cachedStatement(sql: "DELETE FROM closed_entries WHERE closed_at < ?").execute(arguments: [cutoff])
            let count = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM closed_entries")) ?? 0
            guard count > configuration.maximumClosedEntries else { return }
            try db.cachedStatement(sql: """
                DELETE FROM closed_entries WHERE rowid IN (
                    SELECT rowid FROM closed_entries ORDER BY closed_at, rowid LIMIT ?)
                """).execute(arguments: [count - max(0, configuration.maximumClosedEntries)])
        }
    }

    // MARK: - Reading

    /// Every entry, the most recently closed first.
    static func entries(_ db: Database) throws -> [RecentlyClosedEntry] {
        try Row.fetchAll(db, sql: """
            SELECT id, kind, closed_at, browser_id, tab_index, group_id, group_title, group_color, group_collapsed
            FROM closed_entries ORDER BY closed_at DESC, rowid DESC
            """).compactMap { row in try entry(db, row: row) }
    }

    /// One entry, or `nil`.
    static func entry(_ db: Database, id: ClosedEntryID) throws -> RecentlyClosedEntry? {
        try Row.fetchOne(db, sql: """
            SELECT id, kind, closed_at, browser_id, tab_index, group_id, group_title, group_color, group_collapsed
            FROM closed_entries WHERE id = ?
            """, arguments: [id.uuidString]).flatMap { try entry(db, row: $0) }
    }

    private static func entry(_ db: Database, row: Row) throws -> RecentlyClosedEntry? {
        guard let id = ClosedEntryID(uuidString: try row.decode(forColumn: "id")),
              let kind = RecentlyClosedEntry.Kind(rawValue: try row.decode(forColumn: "kind"))
        else { return nil }
        let browser = (try row.decode(forColumn: "browser_id") as String?).flatMap(BrowserID.init(uuidString:))
        var group: TabGroup?
        if let groupID = (try row.decode(forColumn: "group_id") as String?).flatMap(TabGroupID.init(uuidString:)) {
            group = TabGroup(id: groupID, visualData: TabGroupVisualData(
                title: try row.decode(forColumn: "group_title") ?? "",
                color: (try row.decode(forColumn: "group_color") as String?).flatMap(TabGroupColor.init(rawValue:)) ?? .grey,
                isCollapsed: try row.decode(forColumn: "group_collapsed") ?? false))
        }
        // A window's tabs still belong to its browser; a tab's or group's to the entry.
        let tabs = try Row.fetchAll(db, sql: """
            SELECT t.id, t.is_pinned, e.title, e.url, e.virtual_url, e.favicon_url
            FROM tabs AS t
            LEFT JOIN navigation_entries AS e ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
            WHERE (? = 'window' AND t.browser_id = (SELECT b.id FROM browsers AS b WHERE b.closed_entry_id = ?))
               OR t.closed_entry_id = ?
            ORDER BY t.sort_key
            """, arguments: [kind.rawValue, id.uuidString, id.uuidString]).compactMap { tab -> RecentlyClosedEntry.Tab? in
            guard let tabID = WebStateID(uuidString: try tab.decode(forColumn: "id")) else { return nil }
            let url: String? = try tab.decode(forColumn: "url")
            return RecentlyClosedEntry.Tab(
                id: tabID,
                page: try url.map {
                    PageSummary(title: try tab.decode(forColumn: "title"), url: $0, virtualURL: try tab.decode(forColumn: "virtual_url"), faviconURL: try tab.decode(forColumn: "favicon_url"))
                },
                wasPinned: try tab.decode(forColumn: "is_pinned"))
        }
        return RecentlyClosedEntry(
            id: id, kind: kind, closedAt: try row.storedDate("closed_at"), browser: browser, tabIndex: try row.decode(forColumn: "tab_index"),
            group: group, tabs: tabs)
    }
}
