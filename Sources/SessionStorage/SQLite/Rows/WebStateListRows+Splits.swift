import Foundation
internal import GRDB
import SessionModel

/// The `tab_splits` rows of a browser (migration 0008): read beside the tab list, written
/// from a change's split sets.
extension WebStateListRows {
    /// One stored split, as text.
    struct SplitRow {
        var id: TabSplitID
        var firstTab: String
        var secondTab: String
        var visualData: TabSplitVisualData
    }

    /// The splits stored for `browser`; empty where the store has no `tab_splits` table.
    static func splitRows(_ db: Database, browser: String) throws -> [SplitRow] {
        guard try db.tableExists("tab_splits") else { return [] }
        return try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT id, first_tab_id, second_tab_id, ratio, layout FROM tab_splits WHERE browser_id = ?"),
            arguments: [browser]
        ).compactMap { row in
            guard let id = TabSplitID(uuidString: try row.decode(forColumn: "id")) else { return nil }
            let layoutText: String = try row.decode(forColumn: "layout")
            return SplitRow(
                id: id, firstTab: try row.decode(forColumn: "first_tab_id"),
                secondTab: try row.decode(forColumn: "second_tab_id"),
                visualData: TabSplitVisualData(
                    ratio: try row.decode(forColumn: "ratio"), layout: TabSplitLayout(rawValue: layoutText) ?? .vertical))
        }
    }

    /// The split of each tab and the splits, for the stored splits that are whole.
    ///
    /// A split an older binary broke (its tabs no longer neighbours, or no longer both pinned or in
    /// one group) is left out: its tabs load as single tabs, `check` reports the row, and the
    /// next change that ends or makes a split of those tabs replaces it.
    /// - Returns: `nil` and no split when the browser has none.
    static func wholeSplits(
        _ db: Database, browser: BrowserID, webStates: [WebState], pinnedCount: Int, groupIDs: [TabGroupID?]
    ) throws -> (splitIDs: [TabSplitID?]?, splits: [TabSplit]) {
        let rows = try splitRows(db, browser: browser.uuidString)
        guard !rows.isEmpty else { return (nil, []) }
        var position: [String: Int] = [:]
        position.reserveCapacity(webStates.count)
        for (index, webState) in webStates.enumerated() { position[webState.id.uuidString] = index }
        var splitIDs = [TabSplitID?](repeating: nil, count: webStates.count)
        var splits: [TabSplit] = []
        for row in rows {
            guard let first = position[row.firstTab], let second = position[row.secondTab], second == first + 1,
                  (first < pinnedCount) == (second < pinnedCount), groupIDs[first] == groupIDs[second],
                  splitIDs[first] == nil, splitIDs[second] == nil
            else { continue }
            splitIDs[first] = row.id
            splitIDs[second] = row.id
            splits.append(TabSplit(id: row.id, visualData: row.visualData))
        }
        return (splitIDs, splits)
    }

    /// Writes the splits `change` created or updated, and those a replaced tab's successor joined.
    static func writeSplits(
        _ db: Database, browser: BrowserID, list: WebStateList, change: WebStateListChange
    ) throws {
        var splits = change.splitsCreated.union(change.splitsUpdated)
        if !list.splits.isEmpty, !change.inserted.isEmpty {
            for index in positions(of: change.inserted, in: list).values {
                if let split = list.splitID(at: index) { splits.insert(split) }
            }
        }
        for id in splits {
            guard let split = list.splits[id], let range = list.range(ofSplit: id) else { continue }
            try db.cachedStatement(sql: """
                INSERT INTO tab_splits (id, browser_id, first_tab_id, second_tab_id, ratio, layout)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    browser_id = excluded.browser_id, first_tab_id = excluded.first_tab_id,
                    second_tab_id = excluded.second_tab_id, ratio = excluded.ratio, layout = excluded.layout
                """).execute(arguments: [
                    id.uuidString, browser.uuidString, list.webStates[range.lowerBound].id.uuidString,
                    list.webStates[range.lowerBound + 1].id.uuidString, split.visualData.ratio,
                    split.visualData.layout.rawValue])
        }
    }
}
