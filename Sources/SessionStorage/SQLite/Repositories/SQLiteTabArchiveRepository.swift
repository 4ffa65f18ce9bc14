import Foundation
internal import GRDB
import SessionModel

/// The SQLite implementation of ``TabArchiveRepository`` (migration 0009).
///
/// The archive is a browser row of its own, named in `tab_archives`, that no listing shows
/// as a window. Archiving takes the tabs out of each window's list through the model (so
/// the removal rules apply: the active tab, openers, emptied groups), then moves their rows
/// to the archive in three set-wide statements: one records what a restore needs in
/// `archived_tabs`, one drops their opener links, one re-parents the rows. No history entry
/// or engine-state blob is read or written. Thread-safe.
public final class SQLiteTabArchiveRepository: TabArchiveRepository {
    let database: SessionDatabase
    private var cache: WebStateListCache { database.lists }

    /// A repository over `database`.
    public init(database: SessionDatabase) {
        self.database = database
    }

    @discardableResult
    public func archive(
        olderThan cutoff: Date, in browser: BrowserID? = nil, exempting exemptions: ArchiveExemptions = ArchiveExemptions()
    ) throws -> TabArchiveResult {
        try database.mutate(archiving(olderThan: cutoff, in: browser, exempting: exemptions))
    }

    @discardableResult
    public func archive(
        olderThan cutoff: Date, in browser: BrowserID? = nil, exempting exemptions: ArchiveExemptions = ArchiveExemptions()
    ) async throws -> TabArchiveResult {
        try await database.mutate(archiving(olderThan: cutoff, in: browser, exempting: exemptions))
    }

    public func archivedTabs() throws -> [ArchivedTab] {
        try database.read(Self.readingArchive)
    }

    public func archivedTabs() async throws -> [ArchivedTab] {
        try await database.read(Self.readingArchive)
    }

    public func restore(
        _ ids: [WebStateID], to browser: BrowserID? = nil, placement: ArchiveRestorePlacement = .formerPosition
    ) throws {
        try database.mutate(restoring(ids, to: browser, placement: placement))
    }

    public func restore(
        _ ids: [WebStateID], to browser: BrowserID? = nil, placement: ArchiveRestorePlacement = .formerPosition
    ) async throws {
        try await database.mutate(restoring(ids, to: browser, placement: placement))
    }

    public func observe(
        onChange: @escaping @Sendable (Result<[ArchivedTab], any Error>) -> Void
    ) -> any StoreObservation {
        // One revision of the archive's browser is one state of the archive (archiving, restoring
        // and a page change of an archived tab all move it on): the list is read only when it moved.
        let last = Protected<(revision: Int64?, tabs: [ArchivedTab])?>(nil)
        return SnapshotObserver<RevisionedValue<[ArchivedTab]>>(
            database: database, tables: ["browsers", "archived_tabs"],
            fetch: { db in
                let revision = try Self.existingArchive(db).flatMap { try WebStateListRows.revision(db, browser: $0) }
                if let known = last.withLock({ $0 }), known.revision == revision {
                    return RevisionedValue(revision: revision, value: known.tabs)
                }
                let tabs = try Self.readingArchive(db)
                last.withLock { $0 = (revision, tabs) }
                return RevisionedValue(revision: revision, value: tabs)
            },
            isSame: { $0.revision == $1.revision && $0.value == $1.value },
            onChange: { onChange($0.map(\.value)) })
    }

    // MARK: - Archiving

    private func archiving(
        olderThan cutoff: Date, in only: BrowserID?, exempting exemptions: ArchiveExemptions
    ) -> @Sendable (Database) throws -> TabArchiveResult {
        { [cache] db in
            let changesBefore = db.totalChangesCount
            // What archiving deletes is kept elsewhere in the store: the `tab_pages` rows copy the
            // archived tabs' current history entries, which stay, and the moved rows' old cells
            // hold what their new ones hold. Zeroing it (`secure_delete`, on for this connection
            // so that deleted history does not linger) would hide nothing; with FAST, SQLite
            // zeroes only what it writes anyway, and not the pages the deletes free.
            try db.execute(sql: "PRAGMA secure_delete = FAST")
            defer { try? db.execute(sql: "PRAGMA secure_delete = ON") }
            let browsers: [BrowserID]
            if let only {
                guard try BrowserRows.isWindow(db, only) else {
                    throw StorageError.unknownBrowser(only.uuidString)
                }
                browsers = [only]
            } else {
                browsers = try String.fetchAll(db, sql: """
                    SELECT id FROM browsers WHERE closed_entry_id IS NULL\(try BrowserRows.onlyWindows(db, column: "id"))
                    """).compactMap(BrowserID.init(uuidString:))
            }
            let now = StoredDate(Date().storedPrecision)
            var archive: BrowserID?
            var total = 0
            for browser in browsers {
                var stored = try cache.take(db, browser: browser)
                let list = stored.list
                var indexes: [Int] = []
                // TabListRules.md, Archived tabs: unused tabs leave; the active tab and the exempt stay.
                for (index, (webState, group)) in zip(list.webStates, list.groupIDs).enumerated() {
                    guard webState.lastActiveAt < cutoff, index != list.activeIndex else { continue }
                    if exemptions.pinned, index < list.pinnedCount { continue }
                    if exemptions.grouped, group != nil { continue }
                    if exemptions.split, list.splitID(of: webState.id) != nil { continue }
                    indexes.append(index)
                }
                guard !indexes.isEmpty else {
                    cache.remember(stored, for: browser)
                    continue
                }
                let archiveID = try archive ?? Self.archiveBrowser(db)
                archive = archiveID
                // {"id": former index, ...}: what `moveToArchive` reads the tabs and their places from.
                let formerIndexes = "{" + indexes.map { "\"\(list.webStates[$0].id.uuidString)\":\($0)" }
                    .joined(separator: ",") + "}"
                let (_, newList, change) = try WebStateListEdit.apply(
                    db, browser: browser, stored: &stored, ownsNewTabs: false
                ) { try $0.remove(RemovingIndexes(indexes)) }
                let opened = indexes.filter { list.webStates[$0].opener != nil }
                    .map { "\"\(list.webStates[$0].id.uuidString)\"" }
                try Self.moveToArchive(
                    db, indexes: formerIndexes, opened: opened.isEmpty ? nil : "[" + opened.joined(separator: ",") + "]",
                    from: browser, to: archiveID, at: now)
                try WebStateListRows.write(db, browser: browser, stored: &stored, list: newList, change: change)
                if indexes.count >= newList.count { try Self.gatherRows(db, of: browser) }
                cache.remember(stored, for: browser)
                total += indexes.count
            }
            if let archive { try Self.changed(db, archive: archive, cache: cache) }
            return TabArchiveResult(archived: total, rowsWritten: db.totalChangesCount - changesBefore)
        }
    }

    // MARK: - Restoring

    private func restoring(
        _ ids: [WebStateID], to target: BrowserID?, placement: ArchiveRestorePlacement
    ) -> @Sendable (Database) throws -> Void {
        { [cache] db in
            guard !ids.isEmpty else { return }
            guard let archive = try Self.existingArchive(db) else { throw StorageError.unknownTab(ids[0].uuidString) }
            var tabs: [ArchivedTab] = []
            for id in ids {
                guard let tab = try Self.archivedTab(db, id) else { throw StorageError.unknownTab(id.uuidString) }
                tabs.append(tab)
            }
            if let target, try !BrowserRows.isWindow(db, target) {
                throw StorageError.unknownBrowser(target.uuidString)
            }
            let fallback = try BrowserRows.mostRecentWindow(db)
            var listsByBrowser: [BrowserID: StoredWebStateList] = [:]
            for tab in tabs.sorted(by: { $0.formerIndex < $1.formerIndex }) {
                let former = try target == nil
                    ? tab.formerBrowser.flatMap { id in try BrowserRows.isWindow(db, id) ? id : nil } : nil
                guard let browser = target ?? former ?? fallback else {
                    throw StorageError.unknownBrowser(tab.formerBrowser?.uuidString ?? "(none)")
                }
                var stored = try listsByBrowser.removeValue(forKey: browser) ?? cache.take(db, browser: browser)
                // Its page row comes back while the row is still the archive's (whose revision moves on,
                // not the window's: the list written below is the window's next revision).
                try Self.writePage(db, of: tab.id)
                // The row leaves the archive first, parked at a key no list uses.
                try db.execute(
                    sql: "UPDATE tabs SET browser_id = ?, sort_key = ? WHERE id = ?",
                    arguments: [browser.uuidString, Int64.max, tab.id.uuidString])
                try db.execute(sql: "DELETE FROM archived_tabs WHERE tab_id = ?", arguments: [tab.id.uuidString])
                let webState = try TabRowMoves.storedWebState(db, tab.id)
                let (_, list, change) = try WebStateListEdit.apply(
                    db, browser: browser, stored: &stored, ownsNewTabs: false
                ) { list in
                    var params = placement == .end ? InsertionParams.automatic() : .atIndex(tab.formerIndex)
                    if placement == .formerPosition, let group = tab.formerGroup {
                        if list.groups[group.id] != nil {
                            params = .automatic().inGroup(group.id)
                            if let range = list.range(of: group.id) {
                                params = .atIndex(min(max(tab.formerIndex, range.lowerBound), range.upperBound))
                                    .inGroup(group.id)
                            }
                        }
                    }
                    let index = try list.insert(webState, params: params).index
                    // TabListRules.md, Archived tabs: a group emptied by archiving comes back with its look.
                    if placement == .formerPosition, let group = tab.formerGroup, list.groups[group.id] == nil {
                        _ = try list.createGroup(at: [index], visualData: group.visualData, id: group.id)
                    }
                }
                try WebStateListRows.write(db, browser: browser, stored: &stored, list: list, change: change)
                listsByBrowser[browser] = stored
            }
            for (browser, stored) in listsByBrowser { cache.remember(stored, for: browser) }
            try Self.changed(db, archive: archive, cache: cache)
        }
    }

    // MARK: - Rows

    /// Moves the tabs of `browser` named in `indexes` (a JSON object: each tab's identifier to its
    /// index in the list before the removal) to the end of the archive: records what a restore
    /// needs in `archived_tabs` (its index, and its opener and group as stored), drops the opener
    /// links of `opened` (a JSON array; `nil` when none of them had one) and their `tab_pages` rows,
    /// and re-parents their rows, in set-wide statements.
    ///
    /// The statements walk the tabs in identifier order, the order of the keys they look up and
    /// write (in list order, each row lands on another page: in `sqlite3`, at 90,000 tabs, the
    /// insert took 1.0 s instead of 0.6 s, the update 0.6 s instead of 0.45 s). An archived tab
    /// keeps no `tab_pages` row (TabListRules.md, Archived tabs): reading the window then walks
    /// its own tabs' rows of that table, not one row in ten of the whole.
    private static func moveToArchive(
        _ db: Database, indexes: String, opened: String?, from browser: BrowserID, to archive: BrowserID,
        at now: StoredDate
    ) throws {
        try db.execute(sql: """
            INSERT OR REPLACE INTO archived_tabs (tab_id, former_browser_id, former_index, former_opener_id,
                former_group_id, former_group_title, former_group_color, archived_at)
            SELECT o.key, ?1, o.value, p.opener_tab_id, t.group_id, g.title, g.color, ?2
            FROM json_each(?3) AS o
            CROSS JOIN tabs AS t ON t.id = o.key AND t.browser_id = ?1
            LEFT JOIN tab_openers AS p ON p.tab_id = o.key
            LEFT JOIN tab_groups AS g ON g.id = t.group_id
            ORDER BY o.key
            """, arguments: [browser.uuidString, now, indexes])
        if let opened {
            try db.execute(
                sql: "DELETE FROM tab_openers WHERE tab_id IN (SELECT value FROM json_each(?))", arguments: [opened])
        }
        let base = (try Int64.fetchOne(
            db, sql: "SELECT max(sort_key) FROM tabs WHERE browser_id = ?", arguments: [archive.uuidString]
        ) ?? 0) + (1 << 32)
        // In the archive, in their former order: each call's tabs of one window after the others.
        try db.execute(sql: """
            UPDATE tabs SET browser_id = ?1, group_id = NULL, is_pinned = 0, sort_key = ?2 + a.n * 4294967296
            FROM (SELECT tab_id, former_index AS n FROM archived_tabs
                  WHERE former_browser_id = ?3 AND archived_at = ?4 ORDER BY tab_id) AS a
            WHERE a.tab_id = tabs.id AND tabs.browser_id = ?3
            """, arguments: [archive.uuidString, base, browser.uuidString, now])
        try db.execute(sql: """
            DELETE FROM tab_pages WHERE tab_id IN (
                SELECT tab_id FROM archived_tabs WHERE former_browser_id = ? AND archived_at = ?)
            """, arguments: [browser.uuidString, now])
    }

    /// Gives the rows of `browser`'s tabs new rowids after every other row's, in list order, so that
    /// reading its list walks a few pages rather than one row in each page of the table. Run when an
    /// archive took at least as many tabs from the window as it left: the rows left behind are
    /// then scattered among the archived ones (a window of 10,000 left of 100,000 reads ten times
    /// the pages otherwise). Rowids name nothing else in the schema.
    private static func gatherRows(_ db: Database, of browser: BrowserID) throws {
        let last = try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM tabs") ?? 0
        try db.execute(sql: """
            UPDATE tabs SET rowid = ?1 + o.n
            FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY sort_key) AS n FROM tabs WHERE browser_id = ?2) AS o
            WHERE tabs.id = o.id
            """, arguments: [last, browser.uuidString])
    }

    /// Writes back the `tab_pages` row of the archived tab `id` (its current entry's page), which
    /// archiving dropped; kept when an older binary wrote it back already.
    private static func writePage(_ db: Database, of id: WebStateID) throws {
        try db.execute(sql: """
            INSERT INTO tab_pages (tab_id, title, url, virtual_url, favicon_url)
            SELECT t.id, e.title, e.url, e.virtual_url, e.favicon_url
            FROM tabs AS t JOIN navigation_entries AS e
                ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
            WHERE t.id = ?
            ON CONFLICT (tab_id) DO NOTHING
            """, arguments: [id.uuidString])
    }

    /// The archive's browser, if the store has one.
    private static func existingArchive(_ db: Database) throws -> BrowserID? {
        try String.fetchOne(db, sql: "SELECT browser_id FROM tab_archives LIMIT 1").flatMap(BrowserID.init(uuidString:))
    }

    /// The archive's browser, made on first use; it never counts as the most recently active window.
    /// An import's archived tabs go to it too.
    static func archiveBrowser(_ db: Database) throws -> BrowserID {
        if let existing = try existingArchive(db) { return existing }
        let created = Date().storedPrecision
        let archive = Browser(createdAt: created, lastActiveAt: Date(timeIntervalSince1970: 0))
        try BrowserRows.insert(db, archive)
        try db.execute(
            sql: "INSERT INTO tab_archives (browser_id, created_at) VALUES (?, ?)",
            arguments: [archive.id.uuidString, StoredDate(created)])
        return archive.id
    }

    /// Moves the archive's revision on and drops its cached list: its rows changed without it.
    private static func changed(_ db: Database, archive: BrowserID, cache: WebStateListCache) throws {
        try db.execute(
            sql: "UPDATE browsers SET revision = revision + 1 WHERE id = ?", arguments: [archive.uuidString])
        cache.forget(archive)
    }

    private static let archiveColumns = """
        SELECT a.tab_id, a.former_browser_id, a.former_index, a.former_opener_id, a.former_group_id,
               a.former_group_title, a.former_group_color, a.archived_at, t.last_active_at, p.title, p.url
        FROM archived_tabs AS a JOIN tabs AS t ON t.id = a.tab_id
        LEFT JOIN tab_search_pages AS p ON p.tab_id = a.tab_id
        """

    private static func archivedTab(_ db: Database, _ id: WebStateID) throws -> ArchivedTab? {
        try Row.fetchOne(db, sql: archiveColumns + " WHERE a.tab_id = ?", arguments: [id.uuidString]).flatMap(archivedTab)
    }

    /// Every archived tab, in the archive's order (also the export's).
    @Sendable static func readingArchive(_ db: Database) throws -> [ArchivedTab] {
        guard try db.tableExists("archived_tabs") else { return [] }
        return try Row.fetchAll(db, sql: archiveColumns + " ORDER BY t.sort_key").compactMap(archivedTab)
    }

    private static func archivedTab(_ row: Row) throws -> ArchivedTab? {
        guard let id = WebStateID(uuidString: row[0]) else { return nil }
        let groupText: String? = row[4]
        let group = groupText.flatMap(TabGroupID.init(uuidString:)).map { id in
            TabGroup(id: id, visualData: TabGroupVisualData(
                title: row[5] ?? "", color: (row[6] as String?).flatMap(TabGroupColor.init(rawValue:)) ?? .grey))
        }
        // `tab_search_pages` holds the title and the shown URL (the virtual one, when there is one).
        return ArchivedTab(
            id: id, title: row[9] ?? "", url: row[10],
            formerBrowser: (row[1] as String?).flatMap(BrowserID.init(uuidString:)), formerIndex: row[2],
            formerOpener: (row[3] as String?).flatMap(WebStateID.init(uuidString:)), formerGroup: group,
            archivedAt: try row.storedDate(atIndex: 7), lastActiveAt: try row.storedDate(atIndex: 8))
    }
}

/// A value with the revision it was read at.
struct RevisionedValue<Value: Sendable & Equatable>: Sendable, Equatable {
    var revision: Int64?
    var value: Value
}
