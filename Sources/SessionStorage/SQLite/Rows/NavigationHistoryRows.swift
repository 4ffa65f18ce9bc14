import Foundation
internal import GRDB
import SessionModel

/// The SQL that reads and writes one tab's history.
///
/// A tab's entries have consecutive `sequence` numbers from `tabs.history_start`.
/// A write aligns the new history with the stored one and writes only the
/// difference: dropped oldest entries move `history_start`, dropped forward
/// entries are deleted, changed entries are updated in place, new ones inserted.
enum NavigationHistoryRows {
    /// A history as stored: the value, the sequence of its first entry, and each entry's row id.
    struct Stored {
        var tab: WebStateID
        var browser: BrowserID?
        var history: NavigationHistory
        var start: Int64
        var rowIDs: [Int64]
    }

    // MARK: - Reading

    /// Reads the tab's history.
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``, ``StorageError/corrupt(path:reason:)`` (as `StoredValueDamage` until it leaves the store).
    static func load(_ db: Database, tab: WebStateID) throws -> Stored {
        try load(db, tab: tab, row: try tabRow(db, tab: tab))
    }

    /// The tab's `browser_id`, `current_entry_index` and `history_start`.
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``.
    static func tabRow(_ db: Database, tab: WebStateID) throws -> Row {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT browser_id, current_entry_index, history_start FROM tabs WHERE id = ?"),
            arguments: [tab.uuidString])
        else { throw StorageError.unknownTab(tab.uuidString) }
        return row
    }

    /// Reads the tab's history, its row (``tabRow(_:tab:)``) already read.
    static func load(_ db: Database, tab: WebStateID, row: Row) throws -> Stored {
        let start: Int64 = try row.decode(forColumn: "history_start")
        var items: [NavigationItem] = []
        var rowIDs: [Int64] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT e.id, e.url, e.virtual_url, e.title, e.referrer_url, e.referrer_policy, e.transition_type,
                   e.timestamp, e.http_status, e.is_post, e.favicon_url, e.user_agent_type, p.data AS page_state
            FROM navigation_entries AS e LEFT JOIN navigation_page_states AS p ON p.entry_id = e.id
            WHERE e.tab_id = ? ORDER BY e.sequence
            """), arguments: [tab.uuidString])
        while let row = try rows.next() {
            rowIDs.append(try row.decode(forColumn: "id"))
            items.append(NavigationItem(
                url: try row.decode(forColumn: "url"), virtualURL: try row.decode(forColumn: "virtual_url"), title: try row.decode(forColumn: "title"),
                referrerURL: try row.decode(forColumn: "referrer_url"),
                referrerPolicy: ReferrerPolicy(rawValue: try row.decode(forColumn: "referrer_policy")) ?? .default,
                transition: NavigationTransition(rawValue: try row.decode(forColumn: "transition_type")) ?? .link,
                timestamp: try row.storedDate("timestamp"), httpStatus: try row.decode(forColumn: "http_status"), isPost: try row.decode(forColumn: "is_post"),
                faviconURL: try row.decode(forColumn: "favicon_url"),
                userAgentType: UserAgentType(rawValue: try row.decode(forColumn: "user_agent_type")) ?? .automatic,
                pageState: try row.decode(forColumn: "page_state")))
        }
        do {
            let history = try NavigationHistory(items: items, currentIndex: try row.decode(forColumn: "current_entry_index"))
            let browserText: String? = try row.decode(forColumn: "browser_id")
            return Stored(
                tab: tab, browser: browserText.flatMap(BrowserID.init(uuidString:)), history: history, start: start,
                rowIDs: rowIDs)
        } catch {
            throw StoredValueDamage(reason: "the history of tab \(tab) is invalid: \(error)")
        }
    }

    // MARK: - Writing

    /// Writes the difference between `stored` and `history`.
    ///
    /// When the current index changes, the tab's browser's `revision` grows:
    /// a cached tab list holds each tab's history index (for opener rules), so
    /// other processes read the list anew; this process patches its cache
    /// (`WebStateListCache/historyWritten`). When the tab's page changes, the
    /// triggers of `tab_pages` move the revision on as well.
    /// - Returns: The browser's revision before and after, when the write moved it, else `nil`.
    @discardableResult
    static func write(_ db: Database, from stored: Stored, to history: NavigationHistory) throws -> RevisionStep? {
        try writing(db, from: stored, to: history).revision
    }

    /// How a write moved a browser's revision.
    struct RevisionStep: Sendable, Equatable {
        var before: Int64
        var after: Int64
    }

    /// ``write(_:from:to:)``, also returning the history as now stored (its rows' ids and start).
    static func writing(
        _ db: Database, from stored: Stored, to history: NavigationHistory
    ) throws -> (revision: RevisionStep?, stored: Stored) {
        let old = stored.history.items
        let new = history.items
        if old == new && stored.history.currentIndex == history.currentIndex { return (nil, stored) }
        let before = try stored.browser.flatMap {
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT revision FROM browsers WHERE id = ?"), arguments: [$0.uuidString])
        }

        let dropped = bestAlignment(old: old, new: new)
        let overlap = min(old.count - dropped, new.count)
        // A start near the largest integer (set by hand) would trap below: damage, not a crash.
        guard !stored.start.addingReportingOverflow(Int64(dropped) + Int64(new.count)).overflow else {
            throw StoredValueDamage(reason: "the history of tab \(stored.tab) starts at \(stored.start), too close to the largest integer")
        }
        let start = stored.start + Int64(dropped)
        let deleted = Array(stored.rowIDs[0..<dropped]) + Array(stored.rowIDs[(dropped + overlap)...])
        for id in deleted {
            try db.cachedStatement(sql: "DELETE FROM navigation_entries WHERE id = ? AND tab_id = ?")
                .execute(arguments: [id, stored.tab.uuidString])
        }
        for offset in 0..<overlap where old[dropped + offset] != new[offset] {
            let rowID = stored.rowIDs[dropped + offset]
            try db.cachedStatement(sql: """
                UPDATE navigation_entries SET url = ?, virtual_url = ?, title = ?, referrer_url = ?,
                    referrer_policy = ?, transition_type = ?, timestamp = ?, http_status = ?, is_post = ?,
                    favicon_url = ?, user_agent_type = ?
                WHERE id = ? AND tab_id = ?
                """).execute(arguments: fields(of: new[offset]) + [rowID, stored.tab.uuidString])
            if old[dropped + offset].pageState != new[offset].pageState {
                try writePageState(db, entry: rowID, data: new[offset].pageState, replacing: true)
            }
        }
        var rowIDs = Array(stored.rowIDs[dropped..<(dropped + overlap)])
        for offset in overlap..<new.count {
            try db.cachedStatement(sql: """
                INSERT INTO navigation_entries (tab_id, sequence, url, virtual_url, title, referrer_url,
                    referrer_policy, transition_type, timestamp, http_status, is_post, favicon_url, user_agent_type)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [stored.tab.uuidString, start + Int64(offset)] + fields(of: new[offset]))
            rowIDs.append(db.lastInsertedRowID)
            if let data = new[offset].pageState {
                try writePageState(db, entry: db.lastInsertedRowID, data: data, replacing: false)
            }
        }
        if start != stored.start || history.currentIndex != stored.history.currentIndex {
            try db.cachedStatement(sql: "UPDATE tabs SET history_start = ?, current_entry_index = ? WHERE id = ?")
                .execute(arguments: [start, history.currentIndex, stored.tab.uuidString])
        }
        let written = Stored(tab: stored.tab, browser: stored.browser, history: history, start: start, rowIDs: rowIDs)
        guard let browser = stored.browser, let before else { return (nil, written) }
        let after = try revisionAfterWrite(
            db, browser: browser, indexMoved: history.currentIndex != stored.history.currentIndex)
        guard let after, after != before else { return (nil, written) }
        return (RevisionStep(before: before, after: after), written)
    }

    /// The browser's revision once a history of one of its tabs is written: moved on
    /// here when the tab's current index moved (the triggers of `tab_pages` move it
    /// when the tab's page changed).
    static func revisionAfterWrite(_ db: Database, browser: BrowserID, indexMoved: Bool) throws -> Int64? {
        if indexMoved {
            try db.cachedStatement(sql: "UPDATE browsers SET revision = revision + 1 WHERE id = ?")
                .execute(arguments: [browser.uuidString])
        }
        return try WebStateListRows.currentRevision(db, browser: browser)
    }

    /// How many of the oldest stored entries to drop so that the fewest rows are written.
    ///
    /// The stored entries from that point are compared position by position
    /// with the new ones: equal ones stay, different ones are updated in place,
    /// the rest are deleted or inserted. Histories are short (75 entries by
    /// default), so trying every alignment is cheap.
    private static func bestAlignment(old: [NavigationItem], new: [NavigationItem]) -> Int {
        var best = 0
        var bestCost = Int.max
        for dropped in 0...old.count {
            let overlap = min(old.count - dropped, new.count)
            var cost = old.count - overlap + (new.count - overlap)
            guard cost < bestCost else { continue }
            for offset in 0..<overlap where old[dropped + offset] != new[offset] {
                cost += 1
                if cost >= bestCost { break }
            }
            if cost < bestCost {
                bestCost = cost
                best = dropped
            }
        }
        return best
    }

    static func fields(of item: NavigationItem) -> StatementArguments {
        [item.url, item.virtualURL, item.title, item.referrerURL, item.referrerPolicy.rawValue,
         item.transition.rawValue, StoredDate(item.timestamp), item.httpStatus, item.isPost, item.faviconURL,
         item.userAgentType.rawValue]
    }

    private static func writePageState(_ db: Database, entry: Int64, data: Data?, replacing: Bool) throws {
        if replacing {
            try db.cachedStatement(sql: "DELETE FROM navigation_page_states WHERE entry_id = ?").execute(arguments: [entry])
        }
        if let data {
            try db.cachedStatement(sql: "INSERT INTO navigation_page_states (entry_id, data) VALUES (?, ?)")
                .execute(arguments: [entry, data])
        }
    }
}
