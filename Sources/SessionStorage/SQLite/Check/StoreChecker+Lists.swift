import Foundation
internal import GRDB
import SessionModel

extension StoreChecker {
    /// <doc:TabListRules>, Invariants, on every browser's stored list.
    func tabLists() throws -> [Problem] {
        var problems: [Problem] = []
        let browsers = try Row.fetchAll(db, sql: "SELECT id, active_tab_id FROM browsers ORDER BY id")
        for browser in browsers {
            let browserID: String = try browser.decode(forColumn: "id")
            let activeTabID: String? = try browser.decode(forColumn: "active_tab_id")
            let location = "browser \(browserID)"
            let rows = try Row.fetchAll(db, sql: """
                SELECT t.id, t.is_pinned, t.group_id, o.opener_tab_id
                FROM tabs AS t LEFT JOIN tab_openers AS o ON o.tab_id = t.id
                WHERE t.browser_id = ? ORDER BY t.sort_key
                """, arguments: [browserID])
            let groupRows = try String.fetchAll(
                db, sql: "SELECT id FROM tab_groups WHERE browser_id = ?", arguments: [browserID])
            let splitRows = try WebStateListRows.splitRows(db, browser: browserID)
            var splitOfTab: [String: TabSplitID] = [:]
            for split in splitRows {
                splitOfTab[split.firstTab] = split.id
                splitOfTab[split.secondTab] = split.id
            }
            var entries: [WebStateListEntry] = []
            var malformed = false
            for row in rows {
                let text: String = try row.decode(forColumn: "id")
                let groupText: String? = try row.decode(forColumn: "group_id")
                let openerText: String? = try row.decode(forColumn: "opener_tab_id")
                guard let id = WebStateID(uuidString: text),
                      groupText.map({ TabGroupID(uuidString: $0) != nil }) ?? true,
                      openerText.map({ WebStateID(uuidString: $0) != nil }) ?? true
                else {
                    problems.append(Problem(check: "tab_list", location: "\(location) tab \(text)",
                                            message: "has a malformed identifier."))
                    malformed = true
                    continue
                }
                entries.append(WebStateListEntry(
                    id: id, isPinned: try row.decode(forColumn: "is_pinned"),
                    groupID: groupText.flatMap(TabGroupID.init(uuidString:)),
                    openerID: openerText.flatMap(WebStateID.init(uuidString:)),
                    splitID: splitOfTab[text]))
            }
            guard !malformed else { continue }
            var activeIndex: Int?
            if let activeTabID {
                activeIndex = entries.firstIndex { $0.id.uuidString == activeTabID }
                if activeIndex == nil {
                    problems.append(Problem(check: "tab_list", location: location,
                                            message: "its active tab \(activeTabID) is not one of its tabs."))
                }
            }
            let groups = Set(groupRows.compactMap(TabGroupID.init(uuidString:)))
            for violation in WebStateListInvariants.violations(
                entries: entries, groups: groups, splits: Set(splitRows.map(\.id)), activeIndex: activeIndex)
            {
                problems.append(Problem(check: "tab_list", location: location, message: violation.description))
            }
        }
        return problems
    }

    /// <doc:TabListRules>, Navigation history: entries numbered 0..n-1 and a current index in range.
    func histories() throws -> [Problem] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT t.id, t.current_entry_index AS current,
                   count(e.id) AS count, min(e.sequence) - t.history_start AS first,
                   max(e.sequence) - t.history_start AS last
            FROM tabs AS t LEFT JOIN navigation_entries AS e ON e.tab_id = t.id
            GROUP BY t.id
            HAVING (count(e.id) = 0 AND t.current_entry_index IS NOT NULL)
                OR (count(e.id) > 0 AND (t.current_entry_index IS NULL OR t.current_entry_index >= count(e.id)))
                OR (count(e.id) > 0 AND (min(e.sequence) <> t.history_start
                                         OR max(e.sequence) <> t.history_start + count(e.id) - 1))
            ORDER BY t.id
            """)
        return try rows.map { row in
            let id: String = try row.decode(forColumn: "id")
            let current: Int? = try row.decode(forColumn: "current")
            let count: Int = try row.decode(forColumn: "count")
            let first: Int? = try row.decode(forColumn: "first")
            let last: Int? = try row.decode(forColumn: "last")
            let message: String
            if count > 0, first != 0 || last != count - 1 {
                message = "its \(count) history entries are not numbered 0 to \(count - 1)."
            } else {
                message = "its current history index \(current.map(String.init) ?? "none") is out of range for \(count) entries."
            }
            return Problem(check: "history", location: "tab \(id)", message: message)
        }
    }

    /// Two tabs of one browser with one sort key have no defined order (the unique
    /// index `tabs_by_browser_order` prevents it while it exists).
    func sortKeys() throws -> [Problem] {
        try Row.fetchAll(db, sql: """
            SELECT browser_id, sort_key, group_concat(id, ', ') AS ids FROM tabs WHERE browser_id IS NOT NULL
            GROUP BY browser_id, sort_key HAVING count(*) > 1 ORDER BY browser_id, sort_key
            LIMIT \(Self.listedProblems)
            """).map { row in
            let browser: String = try row.decode(forColumn: "browser_id")
            let key: Int64 = try row.decode(forColumn: "sort_key")
            let ids: String = try row.decode(forColumn: "ids")
            return Problem(check: "tab_list", location: "browser \(browser)",
                           message: "tabs \(ids) share the sort key \(key), so their order is undefined.")
        }
    }

    /// <doc:TabListRules>, Recently closed: a closed tab entry holds one tab, a
    /// closed group entry its tabs, and a closed window entry is one browser's,
    /// holding no tabs itself. Closed tabs keep no opener or group of their own.
    func closedEntries() throws -> [Problem] {
        var problems: [Problem] = []
        let entries = try Row.fetchAll(db, sql: """
            SELECT id, kind,
                   (SELECT count(*) FROM tabs WHERE closed_entry_id = c.id) AS tabs,
                   (SELECT count(*) FROM browsers WHERE closed_entry_id = c.id) AS windows
            FROM closed_entries AS c ORDER BY c.rowid
            """)
        for entry in entries {
            let id: String = try entry.decode(forColumn: "id")
            let kind: String = try entry.decode(forColumn: "kind")
            let tabs: Int = try entry.decode(forColumn: "tabs")
            let windows: Int = try entry.decode(forColumn: "windows")
            var messages: [String] = []
            switch kind {
            case "tab" where tabs != 1:
                messages.append("a closed tab entry must hold one tab; it holds \(tabs).")
            case "group" where tabs == 0:
                messages.append("a closed group entry holds no tabs.")
            case "window":
                if tabs > 0 { messages.append("a closed window entry holds \(tabs) tabs itself; its browser holds them.") }
                // Its browser_id may say otherwise (stores imported before it was set): the naming browser counts.
                if windows != 1 { messages.append("a closed window entry must be one browser's; \(windows) browsers name it.") }
            default:
                break
            }
            if kind != "window" && windows > 0 {
                messages.append("\(windows) browsers name this closed \(kind) entry as their closed window.")
            }
            problems += messages.map { Problem(check: "closed", location: "closed entry \(id)", message: $0) }
        }
        let tabs = try Row.fetchAll(db, sql: """
            SELECT id, group_id IS NOT NULL AS grouped,
                   EXISTS (SELECT 1 FROM tab_openers WHERE tab_id = t.id OR opener_tab_id = t.id) AS linked
            FROM tabs AS t WHERE closed_entry_id IS NOT NULL AND (grouped OR linked) ORDER BY rowid
            LIMIT \(Self.listedProblems)
            """)
        for tab in tabs {
            let id: String = try tab.decode(forColumn: "id")
            let what = try tab.decode(forColumn: "grouped") as Bool ? "a group" : "an opener link"
            problems.append(Problem(check: "closed", location: "tab \(id)",
                                    message: "a closed tab keeps \(what) of its own; the entry holds its group, and closing drops its links."))
        }
        return problems
    }
}
