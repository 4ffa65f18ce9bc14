import Foundation
internal import GRDB

extension StoreChecker {
    /// `tab_pages` (migration 0003) against what it derives from: one row per tab
    /// that shows a page, holding that page's title, URLs and favicon URL.
    ///
    /// The triggers keep it so whoever writes; a row missing, left over or stale
    /// means a writer ran without them. `recover` rebuilds the table. An archived
    /// tab (migration 0009) needs none: archiving drops it, restoring writes it back,
    /// and one an older binary wrote back is no problem either.
    func tabPages() throws -> [Problem] {
        guard try db.tableExists("tab_pages") else { return [] }
        let archived = try db.tableExists("tab_archives")
            ? "t.browser_id NOT IN (SELECT browser_id FROM tab_archives)" : "true"
        return try derivedPageProblems(
            table: "tab_pages", check: "pages", missing: "has no row in tab_pages.", needing: archived,
            stray: "holds a page for a tab that shows none (or that the store does not have).",
            stale: """
                p.title IS NOT e.title OR p.url IS NOT e.url OR p.virtual_url IS NOT e.virtual_url
                    OR p.favicon_url IS NOT e.favicon_url
                """,
            staleMessage: "has a row in tab_pages for a page it no longer shows.")
    }

    /// The rows of `table` (`p`, one per tab that shows a page, keyed by `tab_id`)
    /// against each tab's current entry (`e`): tabs without a row (of those where
    /// `needing` holds), rows without a tab that shows a page, and rows where `stale` holds.
    func derivedPageProblems(
        table: String, check: String, missing: String, needing: String = "true", stray: String, stale: String,
        staleMessage: String
    ) throws -> [Problem] {
        let limit = Self.listedProblems
        let currentPage = """
            FROM tabs AS t JOIN navigation_entries AS e
                ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
            """
        var problems: [Problem] = []
        for id in try String.fetchAll(db, sql: """
            SELECT t.id \(currentPage)
            WHERE NOT EXISTS (SELECT 1 FROM \(table) WHERE tab_id = t.id) AND \(needing)
            ORDER BY t.id LIMIT ?
            """, arguments: [limit]) {
            problems.append(Problem(check: check, location: "tab \(id)", message: missing))
        }
        for id in try String.fetchAll(db, sql: """
            SELECT p.tab_id FROM \(table) AS p
            WHERE NOT EXISTS (SELECT 1 \(currentPage) WHERE t.id = p.tab_id)
            ORDER BY p.tab_id LIMIT ?
            """, arguments: [limit]) {
            problems.append(Problem(check: check, location: "\(table) tab \(id)", message: stray))
        }
        for id in try String.fetchAll(db, sql: """
            SELECT p.tab_id FROM \(table) AS p JOIN tabs AS t ON t.id = p.tab_id
            JOIN navigation_entries AS e ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
            WHERE \(stale)
            ORDER BY p.tab_id LIMIT ?
            """, arguments: [limit]) {
            problems.append(Problem(check: check, location: "tab \(id)", message: staleMessage))
        }
        return problems
    }
}
