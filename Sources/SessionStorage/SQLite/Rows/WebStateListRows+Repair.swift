import Foundation
internal import GRDB
import SessionModel

/// Reading a browser's list whose rows break the rules, row by row, and
/// repairing it by the tab-list rules: the path taken only when the strict
/// read (``WebStateListRows/load(_:browser:includingClosed:)``) fails.
extension WebStateListRows {
    /// A list read leniently: what could be kept, what was repaired, and what
    /// the rows need to say the same.
    struct Repaired {
        var stored: StoredWebStateList
        var repairs: [StoreRepair]
        /// Row ids of tab rows that could not be read.
        var skippedTabRows: [Int64]
        /// Row ids of group rows that could not be read or were dropped.
        var droppedGroupRows: [Int64]
        /// Tabs whose opener link was dropped.
        var droppedOpeners: [WebStateID]
        /// Whether the browser's active tab was cleared.
        var activeCleared: Bool
    }

    /// Reads the browser's list (of an open browser, or also of a closed window if
    /// asked) row by row, skipping rows that cannot be read and repairing what
    /// breaks the rules. The order of the tabs is kept.
    static func loadRepairing(_ db: Database, browser: BrowserID, includingClosed: Bool = false) throws -> Repaired {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT revision, active_tab_id FROM browsers WHERE id = ? AND (? OR closed_entry_id IS NULL)",
            arguments: [browser.uuidString, includingClosed])
        else { throw StorageError.unknownBrowser(browser.uuidString) }
        let revision: Int64 = try row.decode(forColumn: "revision")
        let activeTabText = try? row.decode(String?.self, forColumn: "active_tab_id")
        var repairs: [StoreRepair] = []
        func repair(_ kind: StoreRepair.Kind, _ subject: String?, _ reason: String) {
            repairs.append(StoreRepair(kind: kind, browser: browser, subject: subject, reason: reason))
        }

        // Groups, each row on its own.
        var groups: [TabGroupID: (rowID: Int64, group: TabGroup)] = [:]
        var droppedGroupRows: [Int64] = []
        for row in try Row.fetchAll(
            db, sql: "SELECT rowid, id, title, color, is_collapsed FROM tab_groups WHERE browser_id = ?",
            arguments: [browser.uuidString])
        {
            let rowID: Int64 = row["rowid"]
            do {
                let text: String = try row.decode(forColumn: "id")
                guard let id = TabGroupID(uuidString: text) else { throw StoredValueDamage(reason: "malformed identifier") }
                let group = TabGroup(
                    id: id,
                    visualData: TabGroupVisualData(
                        title: try row.decode(forColumn: "title"),
                        color: TabGroupColor(rawValue: try row.decode(forColumn: "color")) ?? .grey,
                        isCollapsed: try row.decode(forColumn: "is_collapsed")))
                groups[id] = (rowID, group)
            } catch {
                droppedGroupRows.append(rowID)
                repair(.groupDropped, (try? row.decode(String.self, forColumn: "id")) ?? "row \(rowID)", "its row cannot be read")
            }
        }

        // Tabs, each row on its own, in their stored order.
        var webStates: [WebState] = []
        var pinned: [Bool] = []
        var groupIDs: [TabGroupID?] = []
        var keys: [WebStateID: Int64] = [:]
        var skippedTabRows: [Int64] = []
        let rows = try Row.fetchAll(db, sql: """
            SELECT t.rowid, t.id, t.sort_key, t.is_pinned, t.group_id, t.current_entry_index, t.created_at,
                   t.last_active_at, o.opener_tab_id, o.opener_navigation_index
            FROM tabs AS t LEFT JOIN tab_openers AS o ON o.tab_id = t.id
            WHERE t.browser_id = ?
            ORDER BY t.sort_key, t.rowid
            """, arguments: [browser.uuidString])
        for row in rows {
            let rowID: Int64 = row["rowid"]
            do {
                let text: String = try row.decode(forColumn: "id")
                guard let id = WebStateID(uuidString: text), keys[id] == nil else {
                    throw StoredValueDamage(reason: "malformed identifier")
                }
                let openerText: String? = try row.decode(forColumn: "opener_tab_id")
                var opener: WebStateOpener?
                if let openerText {
                    if let openerID = WebStateID(uuidString: openerText) {
                        opener = WebStateOpener(
                            openerID: openerID, navigationIndex: try row.decode(forColumn: "opener_navigation_index"))
                    }
                }
                let groupText: String? = try row.decode(forColumn: "group_id")
                let webState = WebState(
                    id: id, opener: opener, navigationIndex: try row.decode(forColumn: "current_entry_index"),
                    createdAt: try row.storedDate("created_at"),
                    lastActiveAt: try row.storedDate("last_active_at"))
                let isPinned: Bool = try row.decode(forColumn: "is_pinned")
                keys[id] = try row.decode(forColumn: "sort_key")
                webStates.append(webState)
                pinned.append(isPinned)
                groupIDs.append(groupText.map { TabGroupID(uuidString: $0) ?? TabGroupID() })
                if openerText != nil && opener == nil {
                    webStates[webStates.count - 1].opener = nil
                    repair(.openerDropped, text, "its opener's identifier is malformed")
                }
            } catch {
                skippedTabRows.append(rowID)
                repair(.tabSkipped, (try? row.decode(String.self, forColumn: "id")) ?? "row \(rowID)", "its row cannot be read")
            }
        }

        // Pinned tabs form a prefix; a tab is pinned, grouped or neither.
        var pinnedCount = 0
        for index in webStates.indices where pinned[index] {
            if index == pinnedCount {
                pinnedCount += 1
                if groupIDs[index] != nil {
                    groupIDs[index] = nil
                    repair(.tabUngrouped, webStates[index].id.uuidString, "a pinned tab cannot be in a group")
                }
            } else {
                pinned[index] = false
                repair(.tabUnpinned, webStates[index].id.uuidString, "pinned after an unpinned tab")
            }
        }
        // Every group exists and is one contiguous run; empty groups go.
        var seen: Set<TabGroupID> = []
        for index in webStates.indices {
            guard let group = groupIDs[index] else { continue }
            if groups[group] == nil {
                groupIDs[index] = nil
                repair(.tabUngrouped, webStates[index].id.uuidString, "its group does not exist")
            } else if seen.contains(group) && groupIDs[index - 1] != group {
                groupIDs[index] = nil
                repair(.tabUngrouped, webStates[index].id.uuidString, "cut off from the rest of its group")
            } else {
                seen.insert(group)
            }
        }
        for (id, entry) in groups where !seen.contains(id) {
            droppedGroupRows.append(entry.rowID)
            repair(.groupDropped, id.uuidString, "no tab is in it")
        }
        // Openers point into the list.
        let present = Set(webStates.map(\.id))
        var droppedOpeners: [WebStateID] = []
        for index in webStates.indices {
            guard let opener = webStates[index].opener else { continue }
            if !present.contains(opener.openerID) || opener.openerID == webStates[index].id {
                webStates[index].opener = nil
                droppedOpeners.append(webStates[index].id)
                repair(.openerDropped, webStates[index].id.uuidString, "its opener is not in the list")
            }
        }
        // The active tab is one of the list's.
        var activeIndex: Int?
        var activeCleared = false
        if let activeTabText {
            activeIndex = webStates.firstIndex { $0.id.uuidString == activeTabText }
            if activeIndex == nil {
                activeCleared = true
                repair(.activeTabCleared, activeTabText, "the active tab is not in the list")
            }
        } else if (try? row.decode(String?.self, forColumn: "active_tab_id")) == nil, row["active_tab_id"] != nil {
            activeCleared = true
            repair(.activeTabCleared, nil, "the active tab's identifier cannot be read")
        }

        let keptGroups = groups.values.map(\.group).filter { seen.contains($0.id) }
        let list: WebStateList
        do {
            list = try WebStateList(
                webStates: webStates, pinnedCount: pinnedCount, groupIDs: groupIDs, groups: keptGroups,
                activeIndex: activeIndex)
        } catch {
            throw StoredValueDamage(reason: "the tab list of browser \(browser) cannot be repaired: \(error)")
        }
        return Repaired(
            stored: StoredWebStateList(revision: revision, list: list, keys: keys), repairs: repairs,
            skippedTabRows: skippedTabRows, droppedGroupRows: droppedGroupRows, droppedOpeners: droppedOpeners,
            activeCleared: activeCleared)
    }

    /// Writes a repaired list back, inside the current write transaction, so
    /// the rows say what the list says; returns the list at its new revision.
    static func persist(_ repaired: Repaired, browser: BrowserID, in db: Database) throws -> StoredWebStateList {
        for rowID in repaired.skippedTabRows {
            try db.execute(sql: "DELETE FROM tabs WHERE rowid = ?", arguments: [rowID])
        }
        if !repaired.skippedTabRows.isEmpty {
            // A row whose identifier was damaged leaves rows that still name its old
            // identifier: they belong to no tab now.
            try db.execute(sql: """
                DELETE FROM navigation_entries WHERE tab_id NOT IN (SELECT id FROM tabs);
                DELETE FROM navigation_page_states WHERE entry_id NOT IN (SELECT id FROM navigation_entries);
                DELETE FROM tab_engine_states WHERE tab_id NOT IN (SELECT id FROM tabs);
                DELETE FROM tab_openers
                WHERE tab_id NOT IN (SELECT id FROM tabs) OR opener_tab_id NOT IN (SELECT id FROM tabs);
                """)
        }
        for id in repaired.droppedOpeners {
            try db.execute(sql: "DELETE FROM tab_openers WHERE tab_id = ?", arguments: [id.uuidString])
        }
        let list = repaired.stored.list
        for (index, webState) in list.webStates.enumerated() {
            try db.cachedStatement(sql: "UPDATE tabs SET is_pinned = ?, group_id = ? WHERE id = ?")
                .execute(arguments: [list.isPinned(at: index), list.groupID(at: index)?.uuidString, webState.id.uuidString])
        }
        for rowID in repaired.droppedGroupRows {
            try db.execute(sql: "DELETE FROM tab_groups WHERE rowid = ?", arguments: [rowID])
        }
        try db.execute(
            sql: "UPDATE browsers SET active_tab_id = ?, revision = revision + 1 WHERE id = ?",
            arguments: [list.activeWebState?.id.uuidString, browser.uuidString])
        var stored = repaired.stored
        stored.revision += 1
        return stored
    }
}
