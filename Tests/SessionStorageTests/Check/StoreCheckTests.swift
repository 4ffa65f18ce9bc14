import Foundation
import GRDB
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// `check` finds each invariant violation when one is planted with plain SQL.
@Suite struct StoreCheckTests {
    static let browser = "00000000-0000-4000-8000-0000000000b1"
    static let otherBrowser = "00000000-0000-4000-8000-0000000000b2"
    static let group = "00000000-0000-4000-8000-0000000000a0"
    static func tab(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    /// A sound store: browser b1 with "a* | b [ 0 c d ] e" (a pinned, c and d grouped), e opened by b.
    private func soundStore(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.file("s.sqlite")
        try SessionStoreFile.migrate(atPath: path)
        let now = "'2026-11-23 00:00:00.000'"
        var sql = """
            INSERT INTO browsers(id, created_at, last_active_at, active_tab_id) VALUES
                ('\(Self.browser)', \(now), \(now), '\(Self.tab(1))'),
                ('\(Self.otherBrowser)', \(now), \(now), NULL);
            INSERT INTO tab_groups(id, browser_id, title, color, created_at)
                VALUES ('\(Self.group)', '\(Self.browser)', 'Work', 'blue', \(now));

            """
        let rows: [(Int, Int, Int, String?)] = [(1, 100, 1, nil), (2, 200, 0, nil), (3, 300, 0, Self.group),
                                                (4, 400, 0, Self.group), (5, 500, 0, nil)]
        for (n, key, pinned, group) in rows {
            sql += """
                INSERT INTO tabs(id, browser_id, sort_key, is_pinned, group_id, created_at, last_active_at)
                VALUES ('\(Self.tab(n))', '\(Self.browser)', \(key), \(pinned), \(group.map { "'\($0)'" } ?? "NULL"), \(now), \(now));

                """
        }
        sql += """
            INSERT INTO tab_openers(tab_id, opener_tab_id, opener_navigation_index) VALUES ('\(Self.tab(5))', '\(Self.tab(2))', 0);
            INSERT INTO navigation_entries(tab_id, sequence, url, timestamp) VALUES
                ('\(Self.tab(2))', 0, 'https://a.example/', \(now)), ('\(Self.tab(2))', 1, 'https://b.example/', \(now));
            UPDATE tabs SET current_entry_index = 1 WHERE id = '\(Self.tab(2))';
            """
        try PlainSQLite.execute(sql, atPath: path)
        return path
    }

    @Test func check_soundStore_findsNothing() throws {
        try TemporaryDirectory.with { dir in
            let path = try soundStore(dir)
            #expect(try SessionStoreFile.check(atPath: path) == [])
        }
    }

    /// Each planted damage and a fragment of the problem it must produce.
    static let damages: [(String, String, String)] = [
        ("pinned not a prefix", "UPDATE tabs SET is_pinned = 1 WHERE id = '\(tab(5))'",
         "The pinned tab at index 4 follows a regular tab."),
        ("pinned and grouped", "UPDATE tabs SET is_pinned = 1 WHERE id = '\(tab(3))'",
         "both pinned and grouped."),
        ("group not contiguous", "UPDATE tabs SET sort_key = 600 WHERE id = '\(tab(3))'",
         "are not contiguous."),
        ("empty group", "UPDATE tabs SET group_id = NULL WHERE group_id = '\(group)'",
         "has no tab."),
        ("active tab in another browser", "UPDATE browsers SET active_tab_id = '\(tab(1))' WHERE id = '\(otherBrowser)'",
         "is not one of its tabs."),
        ("opener in another browser", "UPDATE tabs SET browser_id = '\(otherBrowser)' WHERE id = '\(tab(2))'",
         "is not in the list."),
        ("group of another browser", "UPDATE tab_groups SET browser_id = '\(otherBrowser)'",
         "belongs to unknown group"),
        ("current index out of range", "UPDATE tabs SET current_entry_index = 2 WHERE id = '\(tab(2))'",
         "current history index 2 is out of range for 2 entries."),
        ("current index without history", "UPDATE tabs SET current_entry_index = 0 WHERE id = '\(tab(3))'",
         "current history index 0 is out of range for 0 entries."),
        ("history numbering gap", "UPDATE navigation_entries SET sequence = 5 WHERE sequence = 1",
         "are not numbered 0 to 1."),
        ("dangling foreign key", "UPDATE tabs SET group_id = '00000000-0000-4000-8000-0000000000ff' WHERE id = '\(tab(5))'",
         "refers to a missing row of tab_groups."),
    ]

    @Test(arguments: damages)
    func check_plantedViolation_isReported(name: String, sql: String, expected: String) throws {
        try TemporaryDirectory.with { dir in
            let path = try soundStore(dir)
            try PlainSQLite.execute(sql, atPath: path)
            let before = fileBytes(path)
            let problems = try SessionStoreFile.check(atPath: path)
            #expect(problems.contains { $0.message.contains(expected) }, "\(name): \(problems)")
            #expect(fileBytes(path) == before)
        }
    }

    /// The value rules cover every column of every table the migrations make, and
    /// only those: a new migration's column cannot go unchecked.
    @Test func valueRules_coverEveryColumnOfTheSchema() throws {
        let queue = try DatabaseQueue()
        try SchemaMigrator().migrate(queue, path: ":memory:")
        let schema = try queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'
                AND name NOT IN ('grdb_migrations', 'schema_migrations', 'schema_compatibility')
                AND (name = 'tab_search_pages' OR name NOT GLOB 'tab_search*')
                """).map { table in
                (table, try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]))
            }
        }
        let rules = Dictionary(uniqueKeysWithValues: StoredTable.all.map { ($0.name, $0.columns.map(\.name)) })
        #expect(Set(rules.keys) == Set(schema.map(\.0)))
        for (table, columns) in schema {
            #expect(rules[table] == columns, "\(table)")
        }
    }

    /// A value of the wrong form is named by table, row and column, and the checks
    /// that decode rows are skipped rather than failing.
    @Test func check_valueOfTheWrongForm_isNamedByRowAndColumn() throws {
        try TemporaryDirectory.with { dir in
            let path = try soundStore(dir)
            try PlainSQLite.execute("""
                UPDATE tabs SET is_pinned = 'yes' WHERE id = '\(Self.tab(2))';
                UPDATE browsers SET active_tab_id = 'NOT-A-UUID' WHERE id = '\(Self.otherBrowser)';
                """, atPath: path)
            let problems = try SessionStoreFile.check(atPath: path).map(\.description)
            #expect(problems.contains("value tabs row 2: is_pinned holds text 'yes' where an integer belongs."), "\(problems)")
            #expect(problems.contains("value browsers row 2: active_tab_id holds 'NOT-A-UUID', not a lower-case UUID."), "\(problems)")
        }
    }
}
