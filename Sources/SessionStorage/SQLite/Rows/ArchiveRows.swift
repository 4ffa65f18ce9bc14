import Foundation
internal import GRDB
import SessionModel

/// The SQL behind ``SessionDatabase/exportArchive()`` and the import's checks against the store (``ArchiveImporter`` writes).
enum ArchiveRows {
    // MARK: - Export

    /// The store's content as document parts, in the document's order, each
    /// handed to `body` as soon as it is read: one browser's list at a time.
    /// Browsers come as `ls` lists them: most recently active first.
    ///
    /// A list whose rows break a rule is written repaired, as `ls` and `watch` show
    /// it; what was repaired or left out (a tab of a window whose row is missing)
    /// is recorded in `repairs`, for the command's `note:` lines. The file is unchanged.
    ///
    /// - Throws: `StoredValueDamage` (``StorageError/corrupt(path:reason:)``), before any
    ///   part, when a recently closed entry breaks a rule no document can break.
    static func export(_ db: Database, repairs: RepairLog? = nil, _ body: (SessionArchive.Part) throws -> Void) throws {
        try refuseClosedEntriesNoDocumentHolds(db)
        try exportArchivedTabs(db, repairs: repairs, body)
        // The archive's and saved groups' browsers are not windows: their tabs are written above and below.
        let browserRows = try Row.fetchAll(db, sql: """
            SELECT id, created_at, last_active_at, active_tab_id, closed_entry_id FROM browsers
            WHERE 1\(try BrowserRows.onlyWindows(db, column: "id"))
            ORDER BY last_active_at DESC, created_at DESC, id
            """)
        for row in browserRows {
            guard let id = BrowserID(uuidString: try row.decode(forColumn: "id")) else { continue }
            let list = try self.list(db, browser: id, repairs: repairs)
            try body(.browser(SessionArchive.Browser(
                id: id, createdAt: try row.storedDate("created_at"), lastActiveAt: try row.storedDate("last_active_at"),
                activeTab: list.activeWebState?.id,
                closedEntry: (try row.decode(forColumn: "closed_entry_id") as String?).flatMap(ClosedEntryID.init(uuidString:)),
                groups: list.orderedGroups.map {
                    SessionArchive.Group(id: $0.id, title: $0.visualData.title, color: $0.visualData.color,
                                         collapsed: $0.visualData.isCollapsed)
                },
                splits: splits(of: list),
                tabs: []), tabCount: list.count))
            for (index, (webState, groupID)) in zip(list.webStates, list.groupIDs).enumerated() {
                var tab = try self.tab(db, id: webState.id, pinned: index < list.pinnedCount)
                tab.group = groupID
                tab.split = list.splits.isEmpty ? nil : list.splitID(at: index)
                tab.opener = webState.opener.map { SessionArchive.Opener(tab: $0.openerID, navigationIndex: $0.navigationIndex) }
                try body(.tab(tab))
            }
        }
        for entry in try ClosedEntryRows.entries(db).sorted(by: { ($0.closedAt, $1.id.uuidString) > ($1.closedAt, $0.id.uuidString) }) {
            let tabs = entry.kind == .window ? [] : try entry.tabs.map { try tab(db, id: $0.id, pinned: $0.wasPinned) }
            try body(.closedEntry(SessionArchive.ClosedEntry(
                id: entry.id, kind: entry.kind, closedAt: entry.closedAt, browser: entry.browser,
                tabIndex: entry.tabIndex,
                group: entry.group.map {
                    SessionArchive.Group(id: $0.id, title: $0.visualData.title, color: $0.visualData.color,
                                         collapsed: $0.visualData.isCollapsed)
                },
                tabs: tabs)))
        }
        for group in try SQLiteSavedTabGroupRepository.readingAll(db) {
            try body(.savedGroup(SessionArchive.SavedGroup(
                id: group.id, title: group.visualData.title, color: group.visualData.color,
                collapsed: group.visualData.isCollapsed, sourceBrowser: group.sourceBrowser, savedAt: group.savedAt,
                tabs: try group.tabs.map { try tab(db, id: $0.id, pinned: false) })))
        }
        try recordTabsOfMissingWindows(db, in: repairs)
    }

    /// The archived tabs, in the archive's order. A tab of the archive's browser that
    /// `archived_tabs` does not name, or a row of it whose tab has left the archive
    /// (both left by a binary that knows no archive and shows it as a window), is not
    /// an archived tab: the first is left out and recorded in `repairs`, the second is
    /// written where its tab is.
    private static func exportArchivedTabs(
        _ db: Database, repairs: RepairLog?, _ body: (SessionArchive.Part) throws -> Void
    ) throws {
        guard try db.tableExists("tab_archives"),
              let archive = try String.fetchOne(db, sql: "SELECT browser_id FROM tab_archives LIMIT 1")
        else { return }
        let inArchive = Set(try String.fetchAll(db, sql: "SELECT id FROM tabs WHERE browser_id = ?", arguments: [archive]))
        var written: Set<String> = []
        for archived in try SQLiteTabArchiveRepository.readingArchive(db) where inArchive.contains(archived.id.uuidString) {
            written.insert(archived.id.uuidString)
            try body(.archivedTab(SessionArchive.ArchivedTab(
                tab: try tab(db, id: archived.id, pinned: false), formerBrowser: archived.formerBrowser,
                formerIndex: archived.formerIndex, formerOpener: archived.formerOpener,
                formerGroup: archived.formerGroup.map {
                    SessionArchive.FormerGroup(id: $0.id, title: $0.visualData.title, color: $0.visualData.color)
                },
                archivedAt: archived.archivedAt)))
        }
        guard let repairs, let browser = BrowserID(uuidString: archive) else { return }
        repairs.record(inArchive.subtracting(written).sorted().map { id in
            StoreRepair(
                kind: .tabSkipped, browser: browser, subject: id,
                reason: "it is in the tab archive's browser but not an archived tab, so the export leaves it out")
        })
    }

    /// The list's splits in the order of their first tabs. A split whose rows an older
    /// binary broke is not in the list (its tabs load as single tabs, as `ls` shows them).
    private static func splits(of list: WebStateList) -> [SessionArchive.Split] {
        list.splits.values
            .compactMap { split in list.range(ofSplit: split.id).map { (first: $0.lowerBound, split: split) } }
            .sorted { $0.first < $1.first }
            .map { SessionArchive.Split(id: $0.split.id, ratio: $0.split.visualData.ratio, layout: $0.split.visualData.layout) }
    }

    /// Refuses a store whose recently closed entries break a rule of <doc:TabListRules>
    /// (what `check` reports of an entry, or a window or closed tab naming an entry
    /// that does not exist): a document holding them is one `import` refuses (or one
    /// that would drop a tab without a word), and there is no repairing them in memory
    /// as a tab list is. `recover` mends them.
    private static func refuseClosedEntriesNoDocumentHolds(_ db: Database) throws {
        let problem = try StoreChecker(db: db).closedEntries().first { $0.location.hasPrefix("closed entry ") }
        if let problem {
            throw StoredValueDamage(reason: "\(problem.location): \(problem.message.dropLast()); no document can hold it")
        }
        // A window or a closed tab whose entry is missing (written with foreign keys off).
        if let lost = try String.fetchOne(db, sql: """
            SELECT 'browser ' || id || ': its closed window entry ' || closed_entry_id FROM browsers
            WHERE closed_entry_id IS NOT NULL AND closed_entry_id NOT IN (SELECT id FROM closed_entries)
            UNION ALL
            SELECT 'tab ' || id || ': its closed entry ' || closed_entry_id FROM tabs
            WHERE closed_entry_id IS NOT NULL AND closed_entry_id NOT IN (SELECT id FROM closed_entries)
            LIMIT 1
            """)
        {
            throw StoredValueDamage(reason: "\(lost) does not exist; no document can hold it")
        }
    }

    /// A browser's list as the store reads it: strictly, or, when its rows break a
    /// rule, repaired as `ls` and `watch` show it (the repairs recorded in `repairs`).
    private static func list(_ db: Database, browser: BrowserID, repairs: RepairLog?) throws -> WebStateList {
        do {
            return try WebStateListRows.load(db, browser: browser, includingClosed: true).list
        } catch where WebStateListCache.isDamage(error) {
            let repaired = try WebStateListRows.loadRepairing(db, browser: browser, includingClosed: true)
            repairs?.record(repaired.repairs)
            return repaired.stored.list
        }
    }

    /// Records each tab whose window's row is missing (written with foreign keys off):
    /// no browser of the document can hold it, so the export leaves it out and says so.
    private static func recordTabsOfMissingWindows(_ db: Database, in repairs: RepairLog?) throws {
        let rows = try Row.fetchAll(db, sql: """
            SELECT id, browser_id FROM tabs
            WHERE browser_id IS NOT NULL AND browser_id NOT IN (SELECT id FROM browsers)
            ORDER BY browser_id, sort_key
            """)
        repairs?.record(try rows.compactMap { row in
            guard let browser = BrowserID(uuidString: try row.decode(forColumn: "browser_id")) else { return nil }
            return StoreRepair(
                kind: .tabSkipped, browser: browser, subject: try row.decode(forColumn: "id"),
                reason: "its window's row is missing, so the export leaves it out; "
                    + "`sessionstore recover` makes the window anew for its tabs")
        })
    }

    /// The whole document in memory (for small stores and tests; an export streams ``export(_:_:)``).
    static func export(_ db: Database, repairs: RepairLog? = nil) throws -> SessionArchive {
        var archive = SessionArchive(browsers: [], closedEntries: [])
        try export(db, repairs: repairs) { part in
            switch part {
            case .browser(let browser, _): archive.browsers.append(browser)
            case .tab(let tab): archive.browsers[archive.browsers.count - 1].tabs.append(tab)
            case .closedEntry(let entry): archive.closedEntries.append(entry)
            case .archivedTab(let tab): archive.archivedTabs.append(tab)
            case .savedGroup(let group): archive.savedGroups.append(group)
            }
        }
        return archive
    }

    /// A tab's own fields, history and engine state (its list fields are the caller's).
    private static func tab(_ db: Database, id: WebStateID, pinned: Bool) throws -> SessionArchive.Tab {
        // One read of the tab's row serves its times and its history's start and index.
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT browser_id, current_entry_index, history_start, created_at, last_active_at FROM tabs WHERE id = ?
                """),
            arguments: [id.uuidString])
        else { throw StorageError.unknownTab(id.uuidString) }
        let history = try NavigationHistoryRows.load(db, tab: id, row: row).history
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

    /// The refusal of an identifier the store already holds, when merging.
    static func alreadyStored(_ location: String, _ what: String, _ id: String) -> StorageError {
        .invalidArchive(location: location, reason: "the store already has \(what) \(id) (use --replace to swap the store's content)")
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

    /// Merging refuses every identifier the store already holds.
    static func refuseExisting(_ db: Database, _ archive: SessionArchive) throws {
        func existing(_ sql: String) throws -> Set<String> { Set(try String.fetchAll(db, sql: sql)) }
        let browsers = try existing("SELECT id FROM browsers")
        let tabs = try existing("SELECT id FROM tabs")
        let groups = try existing("SELECT id FROM tab_groups")
        // A store opened read-only may predate splits (migration 0008).
        let splits = try db.tableExists("tab_splits") ? try existing("SELECT id FROM tab_splits") : []
        let entries = try existing("SELECT id FROM closed_entries")
        let refuse = alreadyStored
        for (index, archived) in archive.archivedTabs.enumerated() where tabs.contains(archived.tab.id.uuidString) {
            throw refuse("$.archived_tabs[\(index)].tab.id", "tab", archived.tab.id.uuidString)
        }
        for (index, browser) in archive.browsers.enumerated() {
            if browsers.contains(browser.id.uuidString) { throw refuse("$.browsers[\(index)].id", "browser", browser.id.uuidString) }
            for (offset, group) in browser.groups.enumerated() where groups.contains(group.id.uuidString) {
                throw refuse("$.browsers[\(index)].groups[\(offset)].id", "group", group.id.uuidString)
            }
            for (offset, split) in browser.splits.enumerated() where splits.contains(split.id.uuidString) {
                throw refuse("$.browsers[\(index)].splits[\(offset)].id", "split", split.id.uuidString)
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
        for (index, group) in archive.savedGroups.enumerated() {
            if groups.contains(group.id.uuidString) { throw refuse("$.saved_groups[\(index)].id", "group", group.id.uuidString) }
            for (offset, tab) in group.tabs.enumerated() where tabs.contains(tab.id.uuidString) {
                throw refuse("$.saved_groups[\(index)].tabs[\(offset)].id", "tab", tab.id.uuidString)
            }
        }
    }
}
