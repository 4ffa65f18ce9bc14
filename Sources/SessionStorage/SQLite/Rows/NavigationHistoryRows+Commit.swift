import Foundation
internal import GRDB
import SessionModel

extension NavigationHistoryRows {
    /// What ``commit(_:tab:maximum:item:)`` wrote.
    struct Commit {
        var browser: BrowserID?
        var change: NavigationHistoryChange
        var revision: RevisionStep?
    }

    /// Commits the entry `item` gives (validated and at stored precision; asked for once
    /// the tab is known to exist) to the tab's history
    /// without reading its entries: one row says the tab's browser and revision,
    /// its current index and `history_start`, and the count and bounds of its
    /// entries' sequences. The forward entries and the oldest past `maximum` are
    /// deleted, `item` inserted after the current one, the tab's row moved on:
    /// the rows ``writing(_:from:to:)`` writes for the same commit.
    ///
    /// - Returns: What was written; `nil`, having written nothing, when the rows do
    ///   not hold a history as the rules say (sequences consecutive from
    ///   `history_start`, a current index within them) or `maximum` is below 1:
    ///   the caller reads the whole history, which reports the damage.
    /// - Throws: ``StorageError/unknownTab(_:)``.
    static func commit(
        _ db: Database, tab: WebStateID, maximum: Int, item: () throws -> NavigationItem
    ) throws -> Commit? {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT t.browser_id, t.current_entry_index, t.history_start, b.revision, e.n, e.lo, e.hi
                FROM tabs AS t LEFT JOIN browsers AS b ON b.id = t.browser_id,
                    (SELECT count(*) AS n, min(sequence) AS lo, max(sequence) AS hi
                     FROM navigation_entries WHERE tab_id = ?1) AS e
                WHERE t.id = ?1
                """),
            arguments: [tab.uuidString])
        else { throw StorageError.unknownTab(tab.uuidString) }
        let browserText: String? = row[0]
        let current: Int? = row[1]
        let start: Int64 = row[2]
        let before: Int64? = row[3]
        let count: Int = row[4]
        guard maximum >= 1, Self.isConsecutive(count: count, current: current, start: start, bounds: (row[5], row[6]))
        else { return nil }
        let item = try item()
        let change = NavigationHistoryChange.committing(count: count, currentIndex: current, maximum: maximum)
        let kept = (current ?? -1) + 1
        let dropped = kept - (change.currentIndex ?? kept)
        let newStart = start + Int64(dropped)
        if dropped > 0 {
            try db.cachedStatement(sql: "DELETE FROM navigation_entries WHERE tab_id = ? AND sequence < ?")
                .execute(arguments: [tab.uuidString, newStart])
        }
        if kept < count {
            try db.cachedStatement(sql: "DELETE FROM navigation_entries WHERE tab_id = ? AND sequence >= ?")
                .execute(arguments: [tab.uuidString, start + Int64(kept)])
        }
        try db.cachedStatement(sql: """
            INSERT INTO navigation_entries (tab_id, sequence, url, virtual_url, title, referrer_url,
                referrer_policy, transition_type, timestamp, http_status, is_post, favicon_url, user_agent_type)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [tab.uuidString, start + Int64(kept)] + fields(of: item))
        if let data = item.pageState {
            try db.cachedStatement(sql: "INSERT INTO navigation_page_states (entry_id, data) VALUES (?, ?)")
                .execute(arguments: [db.lastInsertedRowID, data])
        }
        try db.cachedStatement(sql: "UPDATE tabs SET history_start = ?, current_entry_index = ? WHERE id = ?")
            .execute(arguments: [newStart, change.currentIndex, tab.uuidString])
        let browser = browserText.flatMap(BrowserID.init(uuidString:))
        guard let browser, let before else { return Commit(browser: browser, change: change, revision: nil) }
        let after = try revisionAfterWrite(db, browser: browser, indexMoved: change.currentIndex != current)
        let revision = after.flatMap { $0 == before ? nil : RevisionStep(before: before, after: $0) }
        return Commit(browser: browser, change: change, revision: revision)
    }

    /// Whether `count` entries whose sequences run over `bounds` are consecutive from
    /// `start`, with `current` designating one of them (`nil` exactly when there are none),
    /// and room after them for one more.
    private static func isConsecutive(count: Int, current: Int?, start: Int64, bounds: (Int64?, Int64?)) -> Bool {
        guard let current else { return count == 0 }
        guard count > 0, (0..<count).contains(current), let low = bounds.0, let high = bounds.1,
              !start.addingReportingOverflow(Int64(count) + 1).overflow
        else { return false }
        return low == start && high == start + Int64(count) - 1
    }
}

extension NavigationHistoryChange {
    /// What committing one entry to a history of `count` entries at `currentIndex`
    /// changes, once it is trimmed to `maximum` entries (1 or more): the forward
    /// entries and the oldest past `maximum` go, the new entry is current.
    static func committing(count: Int, currentIndex: Int?, maximum: Int) -> NavigationHistoryChange {
        let kept = (currentIndex ?? -1) + 1
        // After a commit the current entry is the last: trimming drops the oldest.
        let dropped = max(0, kept + 1 - maximum)
        return NavigationHistoryChange(
            removedIndexes: Array(0..<dropped) + Array(kept..<count), insertedIndexes: [kept - dropped],
            previousCurrentIndex: currentIndex, currentIndex: kept - dropped)
    }
}
