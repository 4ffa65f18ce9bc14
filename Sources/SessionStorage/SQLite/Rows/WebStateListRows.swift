import Foundation
internal import GRDB
import SessionModel

/// The SQL that reads and writes one browser's tab list.
///
/// Reads a whole list on a cache miss; writes only the rows a change touches
/// (<doc:TabListRules> rules are applied by the model before this runs).
enum WebStateListRows {
    // MARK: - Reading

    /// The browser's revision, or `nil` when no such open browser exists.
    static func revision(_ db: Database, browser: BrowserID) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT revision FROM browsers WHERE id = ? AND closed_entry_id IS NULL"),
            arguments: [browser.uuidString])
    }

    /// Reads the browser's whole list (of an open browser, or also of a closed window if asked).
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``, ``StorageError/corrupt(path:reason:)``
    ///   when the stored rows break an invariant.
    static func load(_ db: Database, browser: BrowserID, includingClosed: Bool = false) throws -> StoredWebStateList {
        try load(db, browser: browser, includingClosed: includingClosed, pageSource: nil, pages: nil)
    }

    /// Reads the browser's whole list and each tab's current page in one pass
    /// over its tabs (a snapshot read anew: the first of a large browser).
    ///
    /// A page whose row cannot be read is left out and recorded in `repairs`, as in ``pages(_:browser:source:repairs:)``.
    static func loadWithPages(
        _ db: Database, browser: BrowserID, source: PageSource, repairs: RepairLog?
    ) throws -> (stored: StoredWebStateList, pages: [WebStateID: PageSummary]) {
        if source == .table, let scanned = try loadScanningPages(db, browser: browser, repairs: repairs) {
            return scanned
        }
        var pages: [WebStateID: PageSummary] = [:]
        let stored = try load(db, browser: browser, includingClosed: false, pageSource: source) { id, row, count in
            if pages.isEmpty { pages.reserveCapacity(count) }
            guard try row.decode(Int?.self, atIndex: Column.navigationIndex) != nil else { return }
            pages[id] = readablePage(row, at: Column.pageStart, of: id.uuidString, in: browser, repairs: repairs)
        }
        return (stored, pages)
    }

    /// Tabs from which a large browser's pages are read by one scan of `tab_pages` rather than
    /// a lookup per tab.
    private static let pageScanThreshold = 2_000

    /// ``loadWithPages(_:browser:source:repairs:)`` for a browser that holds a large share of the
    /// store's pages: its tabs in order, then one pass over `tab_pages`. A lookup by identifier
    /// per tab costs a b-tree descent each (about 4 µs at 100,000 tabs); the scan reads each page
    /// of the table once. `nil` when the browser is small beside the table: the join is cheaper.
    private static func loadScanningPages(
        _ db: Database, browser: BrowserID, repairs: RepairLog?
    ) throws -> (stored: StoredWebStateList, pages: [WebStateID: PageSummary])? {
        let count = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM tabs WHERE browser_id = ?"), arguments: [browser.uuidString]) ?? 0
        guard count >= pageScanThreshold else { return nil }
        // Counted no further than the answer needs: a store whose other pages (archived tabs', other
        // windows') outnumber this browser's is not read whole to learn it.
        let total = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM (SELECT 1 FROM tab_pages LIMIT ?)"),
            arguments: [count * 4 + 1]) ?? 0
        guard count * 4 >= total else { return nil }
        var showing = Set<WebStateID>(minimumCapacity: count)
        let stored = try load(db, browser: browser, includingClosed: false, pageSource: nil) { id, row, _ in
            if try row.decode(Int?.self, atIndex: Column.navigationIndex) != nil { showing.insert(id) }
        }
        var pages: [WebStateID: PageSummary] = [:]
        pages.reserveCapacity(showing.count)
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT tab_id, title, url, virtual_url, favicon_url FROM tab_pages"))
        while let row = try rows.next() {
            guard let text = try? row.decode(String.self, atIndex: 0), let id = WebStateID(uuidString: text),
                  showing.remove(id) != nil
            else { continue }
            pages[id] = readablePage(row, at: 1, of: text, in: browser, repairs: repairs)
        }
        // A tab with a current entry but no row: what the join reads as a missing page.
        for id in showing {
            repairs?.record([StoreRepair(
                kind: .pageSkipped, browser: browser, subject: id.uuidString, reason: "its current page is missing")])
        }
        return (stored, pages)
    }

    /// The page in `row` from column `start` on; `nil`, recorded in `repairs`, when it cannot be read
    /// (the tab then shows no page: one damaged entry never hides the window).
    private static func readablePage(
        _ row: Row, at start: Int, of tab: String, in browser: BrowserID, repairs: RepairLog?
    ) -> PageSummary? {
        do {
            return try page(row, at: start)
        } catch {
            let reason = (error as? StoredValueDamage)?.reason ?? "its current page's row cannot be read"
            repairs?.record([StoreRepair(kind: .pageSkipped, browser: browser, subject: tab, reason: reason)])
            return nil
        }
    }

    /// Where a tab's current page is read from.
    enum PageSource: Sendable {
        /// `tab_pages` (migration 0003): one row per tab that shows a page, kept by triggers.
        case table
        /// The tab's current history entry, for a binary that knows only the migrations before 0003.
        case history

        /// The join that gives a tab `t` its page's `title`, `url`, `virtual_url` and `favicon_url` as `e`.
        var join: String {
            switch self {
            case .table: "LEFT JOIN tab_pages AS e ON e.tab_id = t.id"
            case .history:
                "LEFT JOIN navigation_entries AS e ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index"
            }
        }
    }

    /// One tab's current page, `nil` when it shows none.
    ///
    /// - Throws: `StoredValueDamage` when the page's row cannot be read.
    static func page(_ db: Database, tab: WebStateID, source: PageSource) throws -> PageSummary? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT e.title, e.url, e.virtual_url, e.favicon_url FROM tabs AS t \(source.join)
            WHERE t.id = ? AND t.current_entry_index IS NOT NULL
            """), arguments: [tab.uuidString])
        else { return nil }
        return try page(row, at: 0)
    }

    /// The browser's groups, in no particular order.
    ///
    /// - Throws: ``StorageError/corrupt(path:reason:)`` (as `StoredValueDamage`) for a malformed identifier.
    static func groups(_ db: Database, browser: BrowserID) throws -> [TabGroup] {
        try Row.fetchAll(
            db, sql: "SELECT id, title, color, is_collapsed FROM tab_groups WHERE browser_id = ?",
            arguments: [browser.uuidString]
        ).map { row in
            TabGroup(
                id: try identifier(try row.decode(forColumn: "id"), TabGroupID.init(uuidString:)),
                visualData: TabGroupVisualData(
                    title: try row.decode(forColumn: "title"),
                    color: TabGroupColor(rawValue: try row.decode(forColumn: "color")) ?? .grey,
                    isCollapsed: try row.decode(forColumn: "is_collapsed")))
        }
    }

    /// A current page's columns (`title`, `url`, `virtual_url`, `favicon_url`), from column `start` on.
    static func page(_ row: Row, at start: Int) throws -> PageSummary {
        guard let url = try row.decode(String?.self, atIndex: start + 1) else {
            throw StoredValueDamage(reason: "its current page is missing")
        }
        return PageSummary(
            title: try row.decode(atIndex: start), url: url,
            virtualURL: try row.decode(atIndex: start + 2), faviconURL: try row.decode(atIndex: start + 3))
    }

    /// The columns of a list's read, by position (decoded without looking names up).
    private enum Column {
        static let id = 0, sortKey = 1, isPinned = 2, groupID = 3, navigationIndex = 4, createdAt = 5
        static let lastActiveAt = 6, openerID = 7, openerNavigationIndex = 8
        /// The page's `title`, `url`, `virtual_url` and `favicon_url` follow, when read.
        static let pageStart = 9
    }

    /// ``load(_:browser:includingClosed:)``, handing each tab's row to `pages` when given
    /// (the row then also holds its current page's columns).
    private static func load(
        _ db: Database, browser: BrowserID, includingClosed: Bool, pageSource: PageSource?,
        pages: ((WebStateID, Row, _ tabCount: Int) throws -> Void)?
    ) throws -> StoredWebStateList {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT revision, active_tab_id FROM browsers WHERE id = ? AND (closed_entry_id IS NULL OR ?)",
            arguments: [browser.uuidString, includingClosed])
        else { throw StorageError.unknownBrowser(browser.uuidString) }
        let revision: Int64 = try row.decode(forColumn: "revision")
        let activeTabText: String? = try row.decode(forColumn: "active_tab_id")
        // Parsed once: each row's identifier is compared as a value, not as text.
        let activeTabID = activeTabText.flatMap(WebStateID.init(uuidString:))

        let groups = try self.groups(db, browser: browser)

        // The count from the order index first: the arrays and tables below are made at their size once.
        let count = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM tabs WHERE browser_id = ?"), arguments: [browser.uuidString]) ?? 0
        var webStates: [WebState] = []
        var groupIDs: [TabGroupID?] = []
        var keys: [WebStateID: Int64] = [:]
        webStates.reserveCapacity(count)
        groupIDs.reserveCapacity(count)
        keys.reserveCapacity(count)
        var pinnedCount = 0
        var activeIndex: Int?
        // With pages, each tab's current entry joins in the same pass.
        let pageColumns = pageSource == nil ? "" : ", e.title, e.url, e.virtual_url, e.favicon_url"
        let pageJoin = pageSource?.join ?? ""
        let rows = try Row.fetchCursor(db, sql: """
            SELECT t.id, t.sort_key, t.is_pinned, t.group_id, t.current_entry_index, t.created_at,
                   t.last_active_at, o.opener_tab_id, o.opener_navigation_index\(pageColumns)
            FROM tabs AS t LEFT JOIN tab_openers AS o ON o.tab_id = t.id
            \(pageJoin)
            WHERE t.browser_id = ?
            ORDER BY t.sort_key
            """, arguments: [browser.uuidString])
        while let row = try rows.next() {
            let id = try identifier(try row.decode(atIndex: Column.id), WebStateID.init(uuidString:))
            let openerText: String? = try row.decode(atIndex: Column.openerID)
            let opener = try openerText.map {
                WebStateOpener(
                    openerID: try identifier($0, WebStateID.init(uuidString:)),
                    navigationIndex: try row.decode(atIndex: Column.openerNavigationIndex))
            }
            if try row.decode(atIndex: Column.isPinned) as Bool {
                // Pinned tabs form a prefix: a pinned tab after an unpinned one breaks the rules.
                guard pinnedCount == webStates.count else {
                    throw StoredValueDamage(reason: "the tab list of browser \(browser) has a pinned tab after an unpinned one")
                }
                pinnedCount += 1
            }
            if id == activeTabID { activeIndex = webStates.count }
            keys[id] = try row.decode(atIndex: Column.sortKey)
            webStates.append(WebState(
                id: id, opener: opener, navigationIndex: try row.decode(atIndex: Column.navigationIndex),
                createdAt: try row.storedDate(atIndex: Column.createdAt),
                lastActiveAt: try row.storedDate(atIndex: Column.lastActiveAt)))
            let groupText: String? = try row.decode(atIndex: Column.groupID)
            groupIDs.append(try groupText.map { try identifier($0, TabGroupID.init(uuidString:)) })
            try pages?(id, row, count)
        }
        let (splitIDs, splits) = try wholeSplits(
            db, browser: browser, webStates: webStates, pinnedCount: pinnedCount, groupIDs: groupIDs)
        do {
            let list = try WebStateList(
                webStates: webStates, pinnedCount: pinnedCount, groupIDs: groupIDs, groups: groups,
                splitIDs: splitIDs ?? Array(repeating: nil, count: webStates.count), splits: splits,
                activeIndex: activeIndex)
            return StoredWebStateList(revision: revision, list: list, keys: keys)
        } catch {
            throw StoredValueDamage(reason: "the tab list of browser \(browser) breaks its rules: \(error)")
        }
    }

    /// The current page of every tab of the browser that has one.
    ///
    /// A page whose row cannot be read is left out (the tab shows no page) and
    /// recorded in `repairs`, so one damaged entry never hides the window.
    static func pages(
        _ db: Database, browser: BrowserID, source: PageSource, repairs: RepairLog? = nil
    ) throws -> [WebStateID: PageSummary] {
        var pages: [WebStateID: PageSummary] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT t.id, e.title, e.url, e.virtual_url, e.favicon_url
            FROM tabs AS t \(source.join)
            WHERE t.browser_id = ? AND t.current_entry_index IS NOT NULL
            """, arguments: [browser.uuidString])
        while let row = try rows.next() {
            guard let text = try? row.decode(String.self, forColumn: "id"), let id = WebStateID(uuidString: text)
            else { continue }
            pages[id] = readablePage(row, at: 1, of: text, in: browser, repairs: repairs)
        }
        return pages
    }

    private static func identifier<ID>(_ text: String, _ parse: (String) -> ID?) throws -> ID {
        guard let id = parse(text) else {
            throw StoredValueDamage(reason: "malformed identifier \(text)")
        }
        return id
    }

    // MARK: - Writing

    /// Writes what `change` says turned `stored.list` into `list`, and returns the new stored state.
    ///
    /// Rows of removed tabs are the caller's to move out of the browser first (to
    /// recently closed, or to another browser: a closed tab keeps its history, so
    /// no removal deletes a row here); inserted tabs get a row,
    /// or take over their existing one (a restored or moved tab keeps its history); moved tabs a new `sort_key` (see
    /// ``SortKeyAllocator``); updated tabs their pinned state, group, opener and
    /// last-active time (the history index belongs to the history repository).
    /// The browser's `revision` grows by one.
    /// `stored`'s keys change in place (without a copy when the caller holds
    /// the only reference); then `stored` takes `list` and the new revision.
    static func write(
        _ db: Database, browser: BrowserID, stored: inout StoredWebStateList, list: WebStateList,
        change: WebStateListChange
    ) throws {
        guard !change.isEmpty else {
            stored.list = list
            return
        }

        // TabListRules.md, Removal: the caller has moved the removed tabs' rows out
        // (to recently closed, or to another browser); they leave the list's keys here.
        for removed in change.removed {
            stored.keys[removed.webState.id] = nil
            stored.rows[removed.webState.id] = nil
            stored.pageChanged(removed.webState.id, to: nil)
        }

        // Ended splits first: a new split may take their tabs.
        for id in change.splitsDeleted {
            try db.cachedStatement(sql: "DELETE FROM tab_splits WHERE id = ?").execute(arguments: [id.uuidString])
        }

        // Groups first, so tab rows can refer to them.
        for id in change.groupsCreated {
            guard let group = list.groups[id] else { continue }
            try insertGroup(db, group, browser: browser)
        }
        for id in change.groupsUpdated {
            guard let group = list.groups[id] else { continue }
            try db.cachedStatement(sql: "UPDATE tab_groups SET title = ?, color = ?, is_collapsed = ? WHERE id = ?")
                .execute(arguments: [
                    group.visualData.title, group.visualData.color.rawValue, group.visualData.isCollapsed, id.uuidString])
        }

        // Keys: inserted and moved tabs take new ones between kept neighbours.
        let needing = change.inserted.union(change.moved)
        var oldKeys: [WebStateID: Int64] = [:]
        for id in change.moved { oldKeys[id] = stored.keys.removeValue(forKey: id) }
        let positions = Self.positions(of: needing, in: list)
        let keys = stored.keys
        let assigned = SortKeyAllocator.assign(positions: positions.values, count: list.count) {
            keys[list.webStates[$0].id]
        }
        var newKeys: [WebStateID: Int64] = [:]
        for (position, key) in assigned {
            let id = list.webStates[position].id
            newKeys[id] = key
            if oldKeys[id] == nil, !change.inserted.contains(id) { oldKeys[id] = stored.keys[id] }
            stored.keys[id] = key
        }
        let rekeyed = newKeys.keys.filter { !change.inserted.contains($0) }
        // The unique (browser_id, sort_key) index: park rows whose new key is
        // still another rekeyed row's old key outside the key range first.
        let oldValues = Set(rekeyed.compactMap { oldKeys[$0] })
        if rekeyed.contains(where: { oldValues.contains(newKeys[$0]!) }) {
            for (offset, id) in rekeyed.enumerated() {
                try db.cachedStatement(sql: "UPDATE tabs SET sort_key = ? WHERE id = ?")
                    .execute(arguments: [Int64.min + Int64(offset), id.uuidString])
            }
        }
        for id in rekeyed where !change.updated.contains(id) {
            try db.cachedStatement(sql: "UPDATE tabs SET sort_key = ? WHERE id = ?")
                .execute(arguments: [newKeys[id]!, id.uuidString])
        }

        // Updated rows before inserts: a new tab may take a key an updated one is leaving.
        var openersToWrite: [WebState] = []
        let updatedPositions = Self.positions(of: change.updated, in: list)
        for (id, index) in updatedPositions {
            let webState = list.webStates[index]
            let image = TabRowImage(list, at: index)
            let before = stored.rows[id]
            // Only the columns that changed (the key too, when it moved): an index on a
            // column left alone is not written.
            var columns: [(String, (any DatabaseValueConvertible)?)] = []
            if before == nil || newKeys[id] != nil { columns.append(("sort_key", stored.keys[id])) }
            if before?.isPinned != image.isPinned { columns.append(("is_pinned", image.isPinned)) }
            if before == nil || before?.groupID != image.groupID { columns.append(("group_id", image.groupID?.uuidString)) }
            if before?.lastActiveAt != image.lastActiveAt { columns.append(("last_active_at", StoredDate(webState.lastActiveAt))) }
            if !columns.isEmpty {
                let assignments = columns.map { "\($0.0) = ?" }.joined(separator: ", ")
                try db.cachedStatement(sql: "UPDATE tabs SET \(assignments) WHERE id = ?")
                    .execute(arguments: StatementArguments(columns.map(\.1) + [id.uuidString]))
            }
            stored.rows[id] = image
            let previous = try before.map(\.opener) ?? Row.fetchOne(
                db.cachedStatement(sql: "SELECT opener_tab_id, opener_navigation_index FROM tab_openers WHERE tab_id = ?"),
                arguments: [id.uuidString]
            ).map { row in
                WebStateOpener(
                    openerID: WebStateID(uuidString: try row.decode(forColumn: "opener_tab_id")) ?? WebStateID(),
                    navigationIndex: try row.decode(forColumn: "opener_navigation_index"))
            }
            if previous != webState.opener {
                if previous != nil {
                    try db.cachedStatement(sql: "DELETE FROM tab_openers WHERE tab_id = ?")
                        .execute(arguments: [id.uuidString])
                }
                openersToWrite.append(webState)
            }
        }
        for (id, index) in Self.positions(of: change.inserted, in: list).sorted(by: { $0.value < $1.value }) {
            let webState = list.webStates[index]
            try db.cachedStatement(sql: """
                INSERT INTO tabs (id, browser_id, sort_key, is_pinned, group_id, created_at, last_active_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    browser_id = excluded.browser_id, closed_entry_id = NULL, sort_key = excluded.sort_key,
                    is_pinned = excluded.is_pinned, group_id = excluded.group_id,
                    last_active_at = excluded.last_active_at
                """).execute(arguments: [
                    id.uuidString, browser.uuidString, stored.keys[id], list.isPinned(at: index),
                    list.groupID(at: index)?.uuidString, StoredDate(webState.createdAt), StoredDate(webState.lastActiveAt)])
            openersToWrite.append(webState)
            // A tab taking over its existing row (restored, moved in) keeps its history index there.
            var image = TabRowImage(list, at: index)
            image.navigationIndex = webState.navigationIndex
            stored.rows[id] = image
            // Pages are kept only where `tab_pages` exists (see WebStateListCache).
            if stored.pages != nil { stored.pageChanged(id, to: try page(db, tab: id, source: .table)) }
        }
        // Openers once every inserted row exists: a new tab may be opened by another new one.
        for webState in openersToWrite {
            try writeOpener(db, of: webState)
        }

        for id in change.groupsDeleted {
            try db.cachedStatement(sql: "DELETE FROM tab_groups WHERE id = ?").execute(arguments: [id.uuidString])
        }
        try writeSplits(db, browser: browser, list: list, change: change)

        // The active tab's column only when it may have changed: writing it checks its foreign key.
        if change.activeChanged || !change.inserted.isEmpty || !change.removed.isEmpty {
            try db.cachedStatement(sql: "UPDATE browsers SET revision = revision + 1, active_tab_id = ? WHERE id = ?")
                .execute(arguments: [list.activeWebState?.id.uuidString, browser.uuidString])
        } else {
            try db.cachedStatement(sql: "UPDATE browsers SET revision = revision + 1 WHERE id = ?")
                .execute(arguments: [browser.uuidString])
        }
        // Only an inserted row can change a page here (the insert triggers of `tab_pages`, whose own
        // triggers move the revision on too): otherwise the revision is the next one, unread.
        let revision = change.inserted.isEmpty
            ? stored.revision + 1 : try Self.currentRevision(db, browser: browser)
        // A trigger moved the revision too (a page changed in a way this write did not follow): read the pages anew.
        if revision != stored.revision + 1 { stored.forgetPages() }
        stored.revision = revision ?? stored.revision + 1
        stored.list = list
    }

    /// The browser's revision, read back after an `UPDATE` moved it on. Not `UPDATE … RETURNING`:
    /// SQLite gathers returned rows in an ephemeral table, which costs a write more than the
    /// `UPDATE` itself (about 60 k instructions against 10 k for this read).
    static func currentRevision(_ db: Database, browser: BrowserID) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT revision FROM browsers WHERE id = ?"), arguments: [browser.uuidString])
    }

    /// Where the given tabs stand in `list`: a scan per tab for a few, one pass for many.
    static func positions(of ids: Set<WebStateID>, in list: WebStateList) -> [WebStateID: Int] {
        guard !ids.isEmpty else { return [:] }
        var positions: [WebStateID: Int] = [:]
        if ids.count <= 8 {
            for id in ids { if let index = list.index(of: id) { positions[id] = index } }
        } else {
            for (index, webState) in list.webStates.enumerated() where ids.contains(webState.id) {
                positions[webState.id] = index
            }
        }
        return positions
    }

    /// A new group's row.
    static func insertGroup(_ db: Database, _ group: TabGroup, browser: BrowserID) throws {
        try db.cachedStatement(sql: """
            INSERT INTO tab_groups (id, browser_id, title, color, is_collapsed, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                group.id.uuidString, browser.uuidString, group.visualData.title, group.visualData.color.rawValue,
                group.visualData.isCollapsed, StoredDate(Date())])
    }

    /// A tab's opener row, if it has an opener.
    static func writeOpener(_ db: Database, of webState: WebState) throws {
        guard let opener = webState.opener else { return }
        try db.cachedStatement(sql: """
            INSERT INTO tab_openers (tab_id, opener_tab_id, opener_navigation_index) VALUES (?, ?, ?)
            """).execute(arguments: [webState.id.uuidString, opener.openerID.uuidString, opener.navigationIndex])
    }
}
