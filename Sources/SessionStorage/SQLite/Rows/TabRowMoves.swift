import Foundation
internal import GRDB
import SessionModel

/// Moving many tabs' rows to a browser that is not a window (a saved group's holder) at once:
/// set-wide statements that re-parent the rows and drop their opener links, touching no history
/// entry or engine-state blob. The archive has statements of its own, which read what a
/// restore needs from the same rows.
enum TabRowMoves {
    /// Moves the rows of `ids` (in list order) to the end of `browser`'s order, unpinned, and
    /// drops their opener links; each keeps its group.
    ///
    /// The statements walk the tabs in identifier order, the tables' key order.
    static func move(_ db: Database, _ ids: [WebStateID], to browser: BrowserID) throws {
        guard !ids.isEmpty else { return }
        let json = try orderedJSON(ids)
        try db.execute(sql: """
            DELETE FROM tab_openers WHERE tab_id IN (SELECT json_extract(value, '$[0]') FROM json_each(?))
            """, arguments: [json])
        let base = (try Int64.fetchOne(
            db, sql: "SELECT max(sort_key) FROM tabs WHERE browser_id = ?", arguments: [browser.uuidString]
        ) ?? 0) + (1 << 32)
        try db.execute(sql: """
            UPDATE tabs SET browser_id = ?, is_pinned = 0,
                sort_key = ? + json_extract(j.value, '$[1]') * 4294967296
            FROM json_each(?) AS j WHERE tabs.id = json_extract(j.value, '$[0]')
            """, arguments: [browser.uuidString, base, json])
    }

    /// A tab's stored fields as the list model takes them back (a tab coming back to a window).
    static func storedWebState(_ db: Database, _ id: WebStateID) throws -> WebState {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT current_entry_index, created_at, last_active_at FROM tabs WHERE id = ?",
            arguments: [id.uuidString])
        else { throw StorageError.unknownTab(id.uuidString) }
        return WebState(
            id: id, navigationIndex: row["current_entry_index"], createdAt: try row.storedDate(atIndex: 1),
            lastActiveAt: try row.storedDate(atIndex: 2))
    }

    /// `[[id, rank], …]` sorted by identifier, `rank` the tab's place in `ids`.
    private static func orderedJSON(_ ids: [WebStateID]) throws -> String {
        let pairs = ids.enumerated().map { ($0.element.uuidString, $0.offset) }.sorted { $0.0 < $1.0 }
        var text = "["
        text.reserveCapacity(pairs.count * 48)
        for (offset, pair) in pairs.enumerated() {
            if offset > 0 { text += "," }
            text += "[\"\(pair.0)\",\(pair.1)]"
        }
        return text + "]"
    }
}
