import Foundation
internal import GRDB
import SessionModel

/// Writes a document into the store part by part, in the caller's transaction:
/// each part is checked (``ArchiveValidator``) and written as it arrives, so an
/// import holds one browser's list of tab ids, never the document's histories.
///
/// A tab's row (with its place in the list), opener, history and engine state
/// are written when the tab arrives; its browser's row, groups, splits and active
/// tab when the browser ends (foreign keys are checked at commit). Archived tabs
/// go to the store's archive (made if missing) and each saved group to a browser
/// of its own, laid out as ``SQLiteTabArchiveRepository`` and
/// ``SQLiteSavedTabGroupRepository`` lay them out. The rules that
/// need a later part run at the browser's end or at ``finish()``. Any problem
/// throws, and the caller's transaction rolls every part back.
final class ArchiveImporter {
    private let db: Database
    private let replacing: Bool
    private var validator: ArchiveValidator
    private var pending = ArchiveValidator.PendingBrowser()
    private var inBrowser = false
    /// The `browser_id` the current browser's tab rows are written with.
    private var rowBrowser = BrowserID()
    private var browserIndex = -1
    private var tabOffset = 0
    private var entryIndex = 0
    private var entryBrowsers: [(index: Int, browser: BrowserID)] = []
    private var archivedIndex = 0
    private var savedGroupIndex = 0
    /// The archive's browser and the sort key of the next tab appended to it, once an archived tab came.
    private var archive: (browser: BrowserID, nextKey: Int64)?
    /// What was written so far.
    private(set) var counts = SessionArchive.ImportCounts()

    /// Starts an import: with `replacing`, the store's content goes first.
    init(
        _ db: Database, configuration: SessionDatabase.Configuration, replacing: Bool,
        wholeDocument: SessionArchive? = nil
    ) throws {
        self.db = db
        self.replacing = replacing
        validator = ArchiveValidator(configuration: configuration, wholeDocument: wholeDocument)
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        if replacing {
            try db.execute(sql: "DELETE FROM closed_entries; DELETE FROM browsers")
            try SyncRows.rowsReplaced(db)
            // The replaced pages' words leave the search index's segments too.
            try TabSearchIndex.dropDeletedWords(db)
        }
    }

    /// Writes a whole document.
    static func write(
        _ db: Database, _ archive: SessionArchive, configuration: SessionDatabase.Configuration, replacing: Bool
    ) throws {
        let importer = try ArchiveImporter(db, configuration: configuration, replacing: replacing, wholeDocument: archive)
        for archived in archive.archivedTabs { try importer.archivedTab(archived) }
        for browser in archive.browsers {
            try importer.beginBrowser(browser)
            for tab in browser.tabs { try importer.tab(tab) }
            try importer.endBrowser(browser)
        }
        for entry in archive.closedEntries { try importer.closedEntry(entry) }
        for group in archive.savedGroups { try importer.savedGroup(group) }
        try importer.finish()
    }

    // MARK: - Parts

    /// Starts the next browser, with its fields when they come before its tabs.
    func beginBrowser(_ header: SessionArchive.Browser?) throws {
        precondition(!inBrowser, "ArchiveImporter: a browser inside a browser")
        browserIndex += 1
        tabOffset = 0
        inBrowser = true
        pending = try validator.beginBrowser(header, index: browserIndex)
        // Tabs are written as they come, under their browser's id; when its fields come
        // after its tabs, under a stand-in that its end replaces.
        rowBrowser = header?.id ?? BrowserID()
    }

    /// A tab of the current browser: checked, and written with its history.
    func tab(_ tab: SessionArchive.Tab, at location: String? = nil) throws {
        guard inBrowser else {
            throw StorageError.invalidArchive(location: location ?? "the document", reason: "a tab before any browser")
        }
        let location = location ?? "$.browsers[\(browserIndex)].tabs[\(tabOffset)]"
        let history = try validator.browserTab(tab, at: location, in: &pending)
        try refuseStoredTab(tab, at: location)
        // The row of a list written anew: keys as the allocator spaces appended tabs.
        try insertRow(tab, browser: rowBrowser, sortKey: SortKeyAllocator.step * Int64(tabOffset), group: tab.group)
        if let opener = tab.opener {
            try WebStateListRows.writeOpener(db, of: WebState(
                id: tab.id, opener: WebStateOpener(openerID: opener.tab, navigationIndex: opener.navigationIndex)))
        }
        try writeContent(tab, history: history)
        tabOffset += 1
    }

    /// Ends the current browser with its fields: its list rules, then its own rows.
    func endBrowser(_ header: SessionArchive.Browser) throws {
        precondition(inBrowser, "ArchiveImporter: the end of no browser")
        let activeIndex = try validator.endBrowser(header, index: browserIndex, &pending)
        let activeTab = activeIndex.map { pending.tabs[$0].id }
        let tabCount = pending.tabs.count
        let splitTabs = header.splits.isEmpty ? [:] : Self.splitTabs(pending.tabs)
        inBrowser = false
        pending = ArchiveValidator.PendingBrowser()
        let at = "$.browsers[\(browserIndex)]"
        if !replacing {
            if try stored("SELECT 1 FROM browsers WHERE id = ?", header.id.uuidString) {
                throw ArchiveRows.alreadyStored("\(at).id", "browser", header.id.uuidString)
            }
            for (offset, group) in header.groups.enumerated()
            where try stored("SELECT 1 FROM tab_groups WHERE id = ?", group.id.uuidString) {
                throw ArchiveRows.alreadyStored("\(at).groups[\(offset)].id", "group", group.id.uuidString)
            }
            for (offset, split) in header.splits.enumerated()
            where try stored("SELECT 1 FROM tab_splits WHERE id = ?", split.id.uuidString) {
                throw ArchiveRows.alreadyStored("\(at).splits[\(offset)].id", "split", split.id.uuidString)
            }
        }
        try BrowserRows.insert(
            db, Browser(id: header.id, createdAt: header.createdAt, lastActiveAt: header.lastActiveAt),
            closedEntry: header.closedEntry)
        if rowBrowser != header.id {
            try db.execute(
                sql: "UPDATE tabs SET browser_id = ? WHERE browser_id = ?",
                arguments: [header.id.uuidString, rowBrowser.uuidString])
        }
        for group in header.groups {
            try WebStateListRows.insertGroup(db, TabGroup(
                id: group.id, visualData: TabGroupVisualData(title: group.title, color: group.color, isCollapsed: group.collapsed)),
                browser: header.id)
        }
        for split in header.splits {
            // The validator saw two neighbouring tabs name each split.
            guard let tabs = splitTabs[split.id] else { continue }
            try db.cachedStatement(sql: """
                INSERT INTO tab_splits (id, browser_id, first_tab_id, second_tab_id, ratio, layout)
                VALUES (?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    split.id.uuidString, header.id.uuidString, tabs.first.uuidString, tabs.second.uuidString,
                    split.ratio, split.layout.rawValue])
        }
        try db.cachedStatement(sql: "UPDATE browsers SET revision = revision + 1, active_tab_id = ? WHERE id = ?")
            .execute(arguments: [activeTab?.uuidString, header.id.uuidString])
        counts.browsers += 1
        counts.tabs += tabCount
    }

    /// A recently closed entry and its tabs.
    func closedEntry(_ entry: SessionArchive.ClosedEntry) throws {
        precondition(!inBrowser, "ArchiveImporter: a closed entry inside a browser")
        let histories = try validator.closedEntry(entry, index: entryIndex)
        let at = "$.closed_entries[\(entryIndex)]"
        if !replacing, try stored("SELECT 1 FROM closed_entries WHERE id = ?", entry.id.uuidString) {
            throw ArchiveRows.alreadyStored("\(at).id", "closed entry", entry.id.uuidString)
        }
        if let browser = entry.browser { entryBrowsers.append((entryIndex, browser)) }
        try db.execute(sql: """
            INSERT INTO closed_entries (id, kind, closed_at, browser_id, tab_index, group_id, group_title,
                                        group_color, group_collapsed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [
                entry.id.uuidString, entry.kind.rawValue, StoredDate(entry.closedAt), entry.browser?.uuidString,
                entry.tabIndex, entry.group?.id.uuidString, entry.group?.title, entry.group?.color.rawValue,
                entry.group?.collapsed])
        for (offset, tab) in entry.tabs.enumerated() {
            try refuseStoredTab(tab, at: "\(at).tabs[\(offset)]")
            try db.cachedStatement(sql: """
                INSERT INTO tabs (id, closed_entry_id, sort_key, is_pinned, created_at, last_active_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    tab.id.uuidString, entry.id.uuidString, offset, tab.pinned, StoredDate(tab.createdAt),
                    StoredDate(tab.lastActiveAt)])
            try writeContent(tab, history: histories[offset])
        }
        counts.closedEntries += 1
        entryIndex += 1
    }

    /// An archived tab: checked, and written into the archive with its history.
    func archivedTab(_ archived: SessionArchive.ArchivedTab, at location: String? = nil) throws {
        precondition(!inBrowser, "ArchiveImporter: an archived tab inside a browser")
        let location = location ?? "$.archived_tabs[\(archivedIndex)]"
        let history = try validator.archivedTab(archived, at: location)
        try refuseStoredTab(archived.tab, at: "\(location).tab")
        if archive == nil {
            let browser = try SQLiteTabArchiveRepository.archiveBrowser(db)
            // After the tabs a merged store's archive holds: the archive's order is its rows' order.
            let last = try Int64.fetchOne(
                db, sql: "SELECT max(sort_key) FROM tabs WHERE browser_id = ?", arguments: [browser.uuidString])
            archive = (browser, last.map { $0 + SortKeyAllocator.step } ?? 0)
        }
        guard let (browser, key) = archive else { return }
        archive?.nextKey += SortKeyAllocator.step
        try insertRow(archived.tab, browser: browser, sortKey: key, group: nil)
        try db.cachedStatement(sql: """
            INSERT INTO archived_tabs (tab_id, former_browser_id, former_index, former_opener_id, former_group_id,
                                       former_group_title, former_group_color, archived_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                archived.tab.id.uuidString, archived.formerBrowser?.uuidString, archived.formerIndex,
                archived.formerOpener?.uuidString, archived.formerGroup?.id.uuidString, archived.formerGroup?.title,
                archived.formerGroup?.color.rawValue, StoredDate(archived.archivedAt)])
        try writeContent(archived.tab, history: history)
        counts.archivedTabs += 1
        archivedIndex += 1
    }

    /// A saved group: checked, and written as a browser of its own holding its group and tabs.
    func savedGroup(_ group: SessionArchive.SavedGroup, at location: String? = nil) throws {
        precondition(!inBrowser, "ArchiveImporter: a saved group inside a browser")
        let location = location ?? "$.saved_groups[\(savedGroupIndex)]"
        let histories = try validator.savedGroup(group, at: location)
        if !replacing, try stored("SELECT 1 FROM tab_groups WHERE id = ?", group.id.uuidString) {
            throw ArchiveRows.alreadyStored("\(location).id", "group", group.id.uuidString)
        }
        let holder = try SQLiteSavedTabGroupRepository.insertHolder(
            db, group: group.id, source: group.sourceBrowser, savedAt: group.savedAt)
        try WebStateListRows.insertGroup(db, TabGroup(id: group.id, visualData: group.visualData), browser: holder)
        for (offset, tab) in group.tabs.enumerated() {
            try refuseStoredTab(tab, at: "\(location).tabs[\(offset)]")
            try insertRow(tab, browser: holder, sortKey: SortKeyAllocator.step * Int64(offset), group: group.id)
            try writeContent(tab, history: histories[offset])
        }
        counts.savedGroups += 1
        counts.savedGroupTabs += group.tabs.count
        savedGroupIndex += 1
    }

    /// The rules that waited for the whole document, and the links they settle.
    func finish() throws {
        if inBrowser, let header = pending.header { try endBrowser(header) }
        precondition(!inBrowser, "ArchiveImporter: finished inside a browser")
        try validator.finish()
        if let archive {
            // Its rows changed without its list: a list cached before is stale.
            try db.execute(
                sql: "UPDATE browsers SET revision = revision + 1 WHERE id = ?", arguments: [archive.browser.uuidString])
        }
        // A closed window entry's browser is the browser that names it, as when the store closes a window.
        for (entry, claim) in validator.claims {
            try db.execute(
                sql: "UPDATE closed_entries SET browser_id = ? WHERE id = ?",
                arguments: [claim.browser.uuidString, entry.uuidString])
        }
        for (index, browser) in entryBrowsers
        where try !stored("SELECT 1 FROM browsers WHERE id = ?", browser.uuidString) {
            throw StorageError.invalidArchive(
                location: "$.closed_entries[\(index)].browser",
                reason: "browser \(browser) is in neither the document nor the store")
        }
    }

    // MARK: - Rows

    /// The two tabs of each split the list's entries name, in list order.
    private static func splitTabs(_ entries: [WebStateListEntry]) -> [TabSplitID: (first: WebStateID, second: WebStateID)] {
        var tabs: [TabSplitID: (first: WebStateID, second: WebStateID)] = [:]
        for (entry, next) in zip(entries, entries.dropFirst()) where entry.splitID != nil && entry.splitID == next.splitID {
            tabs[entry.splitID!] = (entry.id, next.id)
        }
        return tabs
    }

    private func stored(_ sql: String, _ id: String) throws -> Bool {
        try Int.fetchOne(db.cachedStatement(sql: sql), arguments: [id]) != nil
    }

    private func refuseStoredTab(_ tab: SessionArchive.Tab, at location: String) throws {
        if !replacing, try stored("SELECT 1 FROM tabs WHERE id = ?", tab.id.uuidString) {
            throw ArchiveRows.alreadyStored("\(location).id", "tab", tab.id.uuidString)
        }
    }

    /// A tab's row in `browser` (its list fields but the opener).
    private func insertRow(_ tab: SessionArchive.Tab, browser: BrowserID, sortKey: Int64, group: TabGroupID?) throws {
        try db.cachedStatement(sql: """
            INSERT INTO tabs (id, browser_id, sort_key, is_pinned, group_id, created_at, last_active_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                tab.id.uuidString, browser.uuidString, sortKey, tab.pinned, group?.uuidString,
                StoredDate(tab.createdAt), StoredDate(tab.lastActiveAt)])
    }

    /// A tab's history and engine state; its row may come later in the transaction.
    private func writeContent(_ tab: SessionArchive.Tab, history: NavigationHistory) throws {
        if !history.isEmpty {
            let empty = NavigationHistoryRows.Stored(
                tab: tab.id, browser: nil, history: NavigationHistory(), start: 0, rowIDs: [])
            try NavigationHistoryRows.write(db, from: empty, to: try history.withStoredPrecision())
        }
        if let state = tab.engineState {
            try db.cachedStatement(sql: "INSERT INTO tab_engine_states (tab_id, data, updated_at) VALUES (?, ?, ?)")
                .execute(arguments: [tab.id.uuidString, state, StoredDate(Date())])
        }
    }
}
