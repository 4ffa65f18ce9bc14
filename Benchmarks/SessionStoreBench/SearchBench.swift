import Foundation
import SessionStorage

/// A search for a word among every open tab's current page: the store's FTS5
/// index (`SQLiteTabSearchRepository`) against a `LIKE` scan of the same rows
/// (each tab joined to its current entry) on the raw copy of the same file.
///
/// Two queries: a rare word (one section number, in one tab's title) and a word
/// every page holds ("example"), both limited to 50 matches. The scan stops at
/// 50 rows for the common word, while the index ranks every match first.
enum SearchBench {
    struct Result {
        var rare: (store: Samples, raw: Samples)
        var common: (store: Samples, raw: Samples)
    }

    static func run(
        storePath: String, rawPath: String, size: Int, rounds: Int, configuration: SessionDatabase.Configuration,
        synchronous: String
    ) throws -> Result {
        let database = try SessionDatabase.open(atPath: storePath, configuration: configuration)
        defer { try? database.close() }
        let search = SQLiteTabSearchRepository(database: database)
        let connection = try RawConnection(path: rawPath, synchronous: synchronous)
        let like = try connection.prepare("""
            SELECT t.id, e.title, e.url
            FROM tabs AS t
            JOIN browsers AS b ON b.id = t.browser_id AND b.closed_entry_id IS NULL
            JOIN navigation_entries AS e ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
            WHERE e.title LIKE ?1 OR e.url LIKE ?1
            LIMIT 50
            """)
        var result = Result(rare: (Samples(), Samples()), common: (Samples(), Samples()))
        for round in 0..<rounds {
            // A section number in one seeded tab's title ("Article 19 of section 1234 – Example News").
            let rare = "\(size > 1 ? (round * 7919 + 1) % size : 0)"
            let storeRare = try result.rare.store.measure { try search.searchTabs(rare, includingClosed: false, limit: 50) }
            var rawRare = 0
            try result.rare.raw.measure { try like.query([.text("%\(rare)%")]) { _ in rawRare += 1 } }
            _ = try result.common.store.measure { try search.searchTabs("example", includingClosed: false, limit: 50) }
            var rawCommon = 0
            try result.common.raw.measure { try like.query([.text("%example%")]) { _ in rawCommon += 1 } }
            guard !storeRare.isEmpty, rawRare > 0, rawCommon > 0 else {
                throw BenchError("search for \(rare) found \(storeRare.count) with the index, \(rawRare) with LIKE")
            }
        }
        return result
    }
}
