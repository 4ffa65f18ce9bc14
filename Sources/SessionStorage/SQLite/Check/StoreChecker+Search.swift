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
        var problems = try derivedPageProblems(
            table: "tab_search_pages", check: "search", missing: "is missing from the search index.",
            stray: "indexes a page for a tab that shows none (or that the store does not have).",
            stale: "p.title IS NOT e.title OR p.url IS NOT coalesce(e.virtual_url, e.url)",
            staleMessage: "is indexed under a page it no longer shows.")
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
