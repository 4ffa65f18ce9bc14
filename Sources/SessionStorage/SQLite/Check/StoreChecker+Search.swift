import Foundation
internal import GRDB

extension StoreChecker {
    /// The search index's content (migration 0002) against what it derives from:
    /// one row per tab that shows a page, holding that page's title and URL.
    ///
    /// The triggers keep it so whoever writes; a row missing, left over or stale
    /// means a writer ran without them (for example an old copy of the schema).
    /// The FTS5 index over the content is FTS5's own structure, which
    /// `PRAGMA integrity_check` covers only from SQLite 3.44; `recover` rebuilds it.
    func searchIndex() throws -> [Problem] {
        let limit = Self.listedProblems
        let currentPage = """
            FROM tabs AS t JOIN navigation_entries AS e
                ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
            """
        var problems: [Problem] = []
        for id in try String.fetchAll(db, sql: """
            SELECT t.id \(currentPage)
            WHERE NOT EXISTS (SELECT 1 FROM tab_search_pages WHERE tab_id = t.id)
            ORDER BY t.id LIMIT ?
            """, arguments: [limit]) {
            problems.append(Problem(check: "search", location: "tab \(id)", message: "is missing from the search index."))
        }
        for id in try String.fetchAll(db, sql: """
            SELECT p.tab_id FROM tab_search_pages AS p
            WHERE NOT EXISTS (SELECT 1 \(currentPage) WHERE t.id = p.tab_id)
            ORDER BY p.tab_id LIMIT ?
            """, arguments: [limit]) {
            problems.append(Problem(
                check: "search", location: "tab_search_pages tab \(id)",
                message: "indexes a page for a tab that shows none (or that the store does not have)."))
        }
        for id in try String.fetchAll(db, sql: """
            SELECT p.tab_id FROM tab_search_pages AS p JOIN tabs AS t ON t.id = p.tab_id
            JOIN navigation_entries AS e ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
            WHERE p.title IS NOT e.title OR p.url IS NOT coalesce(e.virtual_url, e.url)
            ORDER BY p.tab_id LIMIT ?
            """, arguments: [limit]) {
            problems.append(Problem(
                check: "search", location: "tab \(id)", message: "is indexed under a page it no longer shows."))
        }
        // The FTS5 index against its content table: one document per content row
        // (its `docsize` row), read without FTS5's `integrity-check`, which writes.
        let strays = try Int.fetchOne(db, sql: """
            SELECT (SELECT count(*) FROM tab_search_docsize WHERE id NOT IN (SELECT id FROM tab_search_pages))
                 + (SELECT count(*) FROM tab_search_pages WHERE id NOT IN (SELECT id FROM tab_search_docsize))
            """) ?? 0
        if strays > 0 {
            problems.append(Problem(
                check: "search", location: "tab_search",
                message: "the full-text index is out of step with its content (\(strays) rows); `sessionstore recover` rebuilds it."))
        }
        return problems
    }
}
