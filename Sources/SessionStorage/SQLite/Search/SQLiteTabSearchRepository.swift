import Foundation
internal import GRDB
import SessionModel

/// The SQLite implementation of ``TabSearchRepository``, over the `tab_search`
/// FTS5 index (migration `0002_tab_search`).
public final class SQLiteTabSearchRepository: TabSearchRepository {
    private let database: SessionDatabase

    /// A repository over `database`.
    public init(database: SessionDatabase) {
        self.database = database
    }

    public func searchTabs(_ query: String, includingClosed: Bool = false, limit: Int = 50) throws -> [TabSearchMatch] {
        try database.read(searching(query, includingClosed: includingClosed, limit: limit))
    }

    public func searchTabs(_ query: String, includingClosed: Bool = false, limit: Int = 50) async throws
        -> [TabSearchMatch]
    {
        try await database.read(searching(query, includingClosed: includingClosed, limit: limit))
    }

    /// `query` as an FTS5 expression: every word a quoted prefix (`"git"* "hub"*`),
    /// so that no character a person types is taken for FTS5 syntax. `nil` when
    /// the query has no word.
    static func expression(for query: String) -> String? {
        let words = query.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation || $0.isSymbol })
        guard !words.isEmpty else { return nil }
        return words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }.joined(separator: " ")
    }

    private func searching(_ query: String, includingClosed: Bool, limit: Int)
        -> @Sendable (Database) throws -> [TabSearchMatch]
    {
        { db in
            guard limit > 0, let expression = Self.expression(for: query) else { return [] }
            // Archived tabs and saved groups' tabs (migrations 0009 and 0010) sit in browsers that are no window.
            let archived = try db.tableExists("tab_archives")
                ? "t.browser_id IN (SELECT browser_id FROM tab_archives)" : "0"
            let saved = try db.tableExists("saved_groups")
                ? "(SELECT group_id FROM saved_groups WHERE browser_id = t.browser_id)" : "NULL"
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT p.tab_id, p.title, p.url, bm25(tab_search, 2.0, 1.0) AS rank,
                           t.browser_id, coalesce(t.closed_entry_id, b.closed_entry_id) AS closed_entry_id,
                           \(archived) AS archived, \(saved) AS saved_group
                    FROM tab_search
                    JOIN tab_search_pages AS p ON p.id = tab_search.rowid
                    JOIN tabs AS t ON t.id = p.tab_id
                    LEFT JOIN browsers AS b ON b.id = t.browser_id
                    WHERE tab_search MATCH ?
                      AND (? OR (t.browser_id IS NOT NULL AND b.closed_entry_id IS NULL))
                    ORDER BY rank, p.tab_id
                    LIMIT ?
                    """,
                arguments: [expression, includingClosed, limit])
            var matches: [TabSearchMatch] = []
            for row in rows {
                guard let tab = WebStateID(uuidString: row["tab_id"]) else { continue }
                let closedEntry = (row["closed_entry_id"] as String?).flatMap(ClosedEntryID.init(uuidString:))
                let isArchived: Bool = row["archived"]
                let savedGroup = (row["saved_group"] as String?).flatMap(TabGroupID.init(uuidString:))
                let browser = closedEntry == nil && !isArchived && savedGroup == nil
                    ? (row["browser_id"] as String?).flatMap(BrowserID.init(uuidString:)) : nil
                var match = TabSearchMatch(
                    tab: tab, browser: browser, index: nil, closedEntry: closedEntry, title: row["title"],
                    url: row["url"], rank: row["rank"])
                match.isArchived = isArchived
                match.savedGroup = savedGroup
                matches.append(match)
            }
            try Self.fillIndexes(db, &matches)
            return matches
        }
    }

    /// Sets each open match's index in its browser: one walk of the browser's
    /// order (its sort-key index) per browser with a match.
    private static func fillIndexes(_ db: Database, _ matches: inout [TabSearchMatch]) throws {
        let byBrowser = Dictionary(grouping: matches.indices.filter { matches[$0].browser != nil }) {
            matches[$0].browser!
        }
        for (browser, positions) in byBrowser {
            var wanted: [String: [Int]] = [:]
            for position in positions { wanted[matches[position].tab.uuidString, default: []].append(position) }
            let ids = try String.fetchCursor(
                db, sql: "SELECT id FROM tabs WHERE browser_id = ? ORDER BY sort_key",
                arguments: [browser.uuidString])
            var index = 0
            var remaining = wanted.count
            while remaining > 0, let id = try ids.next() {
                if let found = wanted[id] {
                    for position in found { matches[position].index = index }
                    remaining -= 1
                }
                index += 1
            }
        }
    }
}
