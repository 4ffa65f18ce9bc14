import Foundation
internal import GRDB
import SessionModel

/// The SQL behind ``SessionDatabase/exportArchive()`` and ``SessionDatabase/importArchive(_:replacing:)``.
enum ArchiveRows {
    // MARK: - Export

    static func export(_ db: Database) throws -> SessionArchive {
        var browsers: [SessionArchive.Browser] = []
        let browserRows = try Row.fetchAll(db, sql: """
            SELECT id, created_at, last_active_at, active_tab_id, closed_entry_id FROM browsers ORDER BY created_at, id
            """)
        for row in browserRows {
            guard let id = BrowserID(uuidString: try row.decode(forColumn: "id")) else { continue }
            let list = try WebStateListRows.load(db, browser: id, includingClosed: true).list
            let tabs = try list.webStates.enumerated().map { index, webState in
                var tab = try self.tab(db, id: webState.id, pinned: list.isPinned(at: index))
                tab.group = list.groupID(at: index)
                tab.opener = webState.opener.map { SessionArchive.Opener(tab: $0.openerID, navigationIndex: $0.navigationIndex) }
                return tab
            }
            browsers.append(SessionArchive.Browser(
                id: id, createdAt: try row.storedDate("created_at"), lastActiveAt: try row.storedDate("last_active_at"),
                activeTab: list.activeWebState?.id,
                closedEntry: (try row.decode(forColumn: "closed_entry_id") as String?).flatMap(ClosedEntryID.init(uuidString:)),
                groups: list.orderedGroups.map {
                    SessionArchive.Group(id: $0.id, title: $0.visualData.title, color: $0.visualData.color,
                                         collapsed: $0.visualData.isCollapsed)
                },
                tabs: tabs))
        }
        var closed: [SessionArchive.ClosedEntry] = []
        for entry in try ClosedEntryRows.entries(db).sorted(by: { ($0.closedAt, $1.id.uuidString) > ($1.closedAt, $0.id.uuidString) }) {
            let tabs = entry.kind == .window ? [] : try entry.tabs.map { try tab(db, id: $0.id, pinned: $0.wasPinned) }
            closed.append(SessionArchive.ClosedEntry(
                id: entry.id, kind: entry.kind, closedAt: entry.closedAt, browser: entry.browser,
                tabIndex: entry.tabIndex,
                group: entry.group.map {
                    SessionArchive.Group(id: $0.id, title: $0.visualData.title, color: $0.visualData.color,
                                         collapsed: $0.visualData.isCollapsed)
                },
                tabs: tabs))
        }
        return SessionArchive(
            format: SessionArchive.formatName, version: SessionArchive.currentVersion, browsers: browsers,
            closedEntries: closed)
    }

    /// A tab's own fields, history and engine state (its list fields are the caller's).
    private static func tab(_ db: Database, id: WebStateID, pinned: Bool) throws -> SessionArchive.Tab {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT created_at, last_active_at FROM tabs WHERE id = ?"), arguments: [id.uuidString])
        else { throw StorageError.unknownTab(id.uuidString) }
        let history = try NavigationHistoryRows.load(db, tab: id).history
        let engineState = try Data.fetchOne(
            db.cachedStatement(sql: "SELECT data FROM tab_engine_states WHERE tab_id = ?"), arguments: [id.uuidString])
        return SessionArchive.Tab(
            id: id, pinned: pinned, group: nil, opener: nil, createdAt: try row.storedDate("created_at"),
            lastActiveAt: try row.storedDate("last_active_at"),
            history: SessionArchive.History(
                currentIndex: history.currentIndex, entries: history.items.map(SessionArchive.Entry.init)),
            engineState: engineState)
    }

    // MARK: - Import

    /// Writes a validated document: merged (refusing identifiers the store
    /// already has) or replacing the store's whole content.
    static func importArchive(
        _ db: Database, _ archive: SessionArchive, validated: SessionArchive.Validated, replacing: Bool
    ) throws {
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        if replacing {
            try db.execute(sql: "DELETE FROM closed_entries; DELETE FROM browsers")
            // The replaced pages' words leave the search index's segments too.
            try TabSearchIndex.dropDeletedWords(db)
        } else {
            try refuseExisting(db, archive)
        }
        try checkClosedEntryBrowsers(db, archive, replacing: false)
        // A closed window entry's browser is the browser that names it, as when the store closes a window.
        var windowBrowsers: [ClosedEntryID: BrowserID] = [:]
        for browser in archive.browsers {
            if let closed = browser.closedEntry { windowBrowsers[closed] = browser.id }
        }
        for entry in archive.closedEntries {
            try db.execute(sql: """
                INSERT INTO closed_entries (id, kind, closed_at, browser_id, tab_index, group_id, group_title,
                                            group_color, group_collapsed)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [
                    entry.id.uuidString, entry.kind.rawValue, StoredDate(entry.closedAt),
                    (entry.kind == .window ? windowBrowsers[entry.id] : nil)?.uuidString ?? entry.browser?.uuidString, entry.tabIndex,
                    entry.group?.id.uuidString, entry.group?.title, entry.group?.color.rawValue, entry.group?.collapsed])
        }
        for browser in validated.browsers {
            let source = browser.source
            try BrowserRows.insert(
                db, Browser(id: source.id, createdAt: source.createdAt, lastActiveAt: source.lastActiveAt),
                closedEntry: source.closedEntry)
            var stored = StoredWebStateList(revision: 0, list: WebStateList(), keys: [:])
            try WebStateListRows.write(
                db, browser: source.id, stored: &stored, list: browser.list, change: .between(WebStateList(), browser.list))
            for tab in source.tabs { try writeTabContent(db, tab, history: validated.histories[tab.id]) }
        }
        for entry in archive.closedEntries {
            for (offset, tab) in entry.tabs.enumerated() {
                try db.execute(sql: """
                    INSERT INTO tabs (id, closed_entry_id, sort_key, is_pinned, created_at, last_active_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [tab.id.uuidString, entry.id.uuidString, offset, tab.pinned, StoredDate(tab.createdAt),
                                     StoredDate(tab.lastActiveAt)])
                try writeTabContent(db, tab, history: validated.histories[tab.id])
            }
        }
    }

    /// Every closed entry's original browser is in the document or (when merging) the store.
    static func checkClosedEntryBrowsers(_ db: Database, _ archive: SessionArchive, replacing: Bool) throws {
        var known = Set(archive.browsers.map(\.id.uuidString))
        if !replacing { known.formUnion(try String.fetchAll(db, sql: "SELECT id FROM browsers")) }
        for (index, entry) in archive.closedEntries.enumerated() {
            if let browser = entry.browser, !known.contains(browser.uuidString) {
                throw StorageError.invalidArchive(
                    location: "$.closed_entries[\(index)].browser",
                    reason: "browser \(browser) is in neither the document nor the store")
            }
        }
    }

    /// A tab's history and engine state, into its fresh row.
    private static func writeTabContent(_ db: Database, _ tab: SessionArchive.Tab, history: NavigationHistory?) throws {
        if let history, !history.isEmpty {
            let empty = NavigationHistoryRows.Stored(
                tab: tab.id, browser: nil, history: NavigationHistory(), start: 0, rowIDs: [])
            try NavigationHistoryRows.write(db, from: empty, to: try history.withStoredPrecision())
        }
        if let state = tab.engineState {
            try db.execute(
                sql: "INSERT INTO tab_engine_states (tab_id, data, updated_at) VALUES (?, ?, ?)",
                arguments: [tab.id.uuidString, state, StoredDate(Date())])
        }
    }

    /// Merging refuses every identifier the store already holds.
    static func refuseExisting(_ db: Database, _ archive: SessionArchive) throws {
        func existing(_ sql: String) throws -> Set<String> { Set(try String.fetchAll(db, sql: sql)) }
        let browsers = try existing("SELECT id FROM browsers")
        let tabs = try existing("SELECT id FROM tabs")
        let groups = try existing("SELECT id FROM tab_groups")
        let entries = try existing("SELECT id FROM closed_entries")
        func refuse(_ location: String, _ what: String, _ id: String) -> StorageError {
            .invalidArchive(location: location, reason: "the store already has \(what) \(id) (use --replace to swap the store's content)")
        }
        for (index, browser) in archive.browsers.enumerated() {
            if browsers.contains(browser.id.uuidString) { throw refuse("$.browsers[\(index)].id", "browser", browser.id.uuidString) }
            for (offset, group) in browser.groups.enumerated() where groups.contains(group.id.uuidString) {
                throw refuse("$.browsers[\(index)].groups[\(offset)].id", "group", group.id.uuidString)
            }
            for (offset, tab) in browser.tabs.enumerated() where tabs.contains(tab.id.uuidString) {
                throw refuse("$.browsers[\(index)].tabs[\(offset)].id", "tab", tab.id.uuidString)
            }
        }
        for (index, entry) in archive.closedEntries.enumerated() {
            if entries.contains(entry.id.uuidString) { throw refuse("$.closed_entries[\(index)].id", "closed entry", entry.id.uuidString) }
            for (offset, tab) in entry.tabs.enumerated() where tabs.contains(tab.id.uuidString) {
                throw refuse("$.closed_entries[\(index)].tabs[\(offset)].id", "tab", tab.id.uuidString)
            }
        }
    }
}
