import Foundation
internal import GRDB
import SessionModel

extension SessionStoreFile {
    /// One problem `sessionstore check` found: what is wrong and where.
    public struct Problem: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The family of check: `integrity`, `foreign_key`, `tab_list` or `history`.
        public var check: String
        /// Where: a table and row, or a browser and tab.
        public var location: String
        /// One sentence saying what is wrong.
        public var message: String

        /// `check location: message`.
        public var description: String { "\(check) \(location): \(message)" }
    }

    /// Checks the file at `path` without changing it.
    ///
    /// Runs `PRAGMA integrity_check`, `PRAGMA foreign_key_check`, the tab-list
    /// invariants of the tab-list rules (<doc:TabListRules>) on every browser (through the model's
    /// `WebStateListInvariants`, the same code the live lists obey), and the
    /// history invariants (entries numbered 0..n-1 from the tab's `history_start`, current index in range).
    ///
    /// - Returns: Every problem found; empty for a sound store.
    /// - Throws: ``StorageError`` when the file cannot be read as a current session store.
    public static func check(
        atPath path: String, configuration: SessionDatabase.Configuration = .init()
    ) throws -> [Problem] {
        try readOnly(atPath: path, configuration: configuration, operation: "checking") { db in
            let schema = try SchemaMigrator().status(db, path: path)
            guard schema.isCurrent else {
                throw StorageError.migrationsPending(path: path, pending: schema.pending)
            }
            return try StoreChecker(db: db).problems()
        }
    }
}

/// The queries behind ``SessionStoreFile/check(atPath:configuration:)``.
struct StoreChecker {
    typealias Problem = SessionStoreFile.Problem
    let db: Database

    func problems() throws -> [Problem] {
        let integrity = try integrity()
        // Rows of a damaged file cannot be trusted to decode: report the damage alone.
        guard integrity.isEmpty else { return integrity }
        var problems = try foreignKeys()
        problems += try tabLists()
        problems += try histories()
        return problems
    }

    private func integrity() throws -> [Problem] {
        try String.fetchAll(db, sql: "PRAGMA integrity_check")
            .filter { $0 != "ok" }
            .map { Problem(check: "integrity", location: "file", message: $0) }
    }

    private func foreignKeys() throws -> [Problem] {
        try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
            let table: String = try row.decode(atIndex: 0)
            let rowID: Int64? = try row.decode(atIndex: 1)
            let parent: String = try row.decode(atIndex: 2)
            return Problem(
                check: "foreign_key", location: "\(table) row \(rowID.map(String.init) ?? "?")",
                message: "refers to a missing row of \(parent).")
        }
    }

    /// <doc:TabListRules>, Invariants, on every browser's stored list.
    private func tabLists() throws -> [Problem] {
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
                    openerID: openerText.flatMap(WebStateID.init(uuidString:))))
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
                entries: entries, groups: groups, activeIndex: activeIndex)
            {
                problems.append(Problem(check: "tab_list", location: location, message: violation.description))
            }
        }
        return problems
    }

    /// <doc:TabListRules>, Navigation history: entries numbered 0..n-1 and a current index in range.
    private func histories() throws -> [Problem] {
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
}
