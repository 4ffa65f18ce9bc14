import Foundation
internal import GRDB
import SessionModel

/// The first tabs of a browser, as a listing shows them: read through the
/// browser's order index, so the work is proportional to the tabs shown, not
/// to the browser's size. Not a ``WebStateListSnapshot``: the tabs past the
/// limit (and so their openers) are not read.
public struct TabListing: Sendable, Hashable {
    /// One listed tab.
    public struct Tab: Sendable, Hashable {
        /// The tab's identifier.
        public var id: WebStateID
        /// Whether it is pinned.
        public var isPinned: Bool
        /// Its group, if any.
        public var group: TabGroup?
        /// Its current page; `nil` when it has no history yet.
        public var page: PageSummary?
    }

    /// How many tabs the browser has.
    public var tabCount: Int
    /// The active tab's index in the whole list, if any.
    public var activeIndex: Int?
    /// The first tabs, in order.
    public var tabs: [Tab]
}

extension SQLiteWebStateListRepository {
    /// The first `limit` tabs of a browser with their current pages, its tab
    /// count and its active tab's index, in one read transaction.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``, ``StorageError/corrupt(path:reason:)``, and
    ///   ``StorageError`` (`closed`, `sqlite`).
    public func listing(of browser: BrowserID, limit: Int) throws -> TabListing {
        let pageJoin = database.lists.pageSource.join
        return try database.read { db in
            guard let active = try Row.fetchOne(
                db, sql: "SELECT active_tab_id FROM browsers WHERE id = ? AND closed_entry_id IS NULL",
                arguments: [browser.uuidString])
            else { throw StorageError.unknownBrowser(browser.uuidString) }
            let activeID: String? = try active.decode(forColumn: "active_tab_id")
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM tabs WHERE browser_id = ?", arguments: [browser.uuidString]) ?? 0
            let activeIndex = try activeID.flatMap { id in
                try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM tabs
                    WHERE browser_id = ?1 AND sort_key < (SELECT sort_key FROM tabs WHERE id = ?2 AND browser_id = ?1)
                    """, arguments: [browser.uuidString, id])
            }
            let groups = Dictionary(
                try WebStateListRows.groups(db, browser: browser).map { ($0.id.uuidString, $0) },
                uniquingKeysWith: { first, _ in first })
            var tabs: [TabListing.Tab] = []
            let rows = try Row.fetchCursor(db, sql: """
                SELECT t.id, t.is_pinned, t.group_id, t.current_entry_index, e.title, e.url, e.virtual_url, e.favicon_url
                FROM tabs AS t \(pageJoin)
                WHERE t.browser_id = ? ORDER BY t.sort_key LIMIT ?
                """, arguments: [browser.uuidString, max(0, limit)])
            while let row = try rows.next() {
                guard let id = WebStateID(uuidString: try row.decode(forColumn: "id")) else {
                    throw StoredValueDamage(reason: "a tab of browser \(browser) has a malformed identifier")
                }
                let group: String? = try row.decode(forColumn: "group_id")
                let hasPage = try row.decode(Int?.self, forColumn: "current_entry_index") != nil
                    && row.decode(String?.self, forColumn: "url") != nil
                tabs.append(TabListing.Tab(
                    id: id, isPinned: try row.decode(forColumn: "is_pinned"), group: group.flatMap { groups[$0] },
                    page: hasPage ? try WebStateListRows.page(row, at: 4) : nil))
            }
            return TabListing(tabCount: count, activeIndex: activeIndex, tabs: tabs)
        }
    }
}
