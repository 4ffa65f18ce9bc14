import SessionModel

/// What each column of the store may hold: the values the store writes, and the
/// schema's types and `CHECK` constraints restated.
///
/// SQLite stores any value in any column, `PRAGMA ignore_check_constraints` lets a
/// writer skip the `CHECK`s, and `PRAGMA integrity_check` names only the table
/// (and skips `CHECK`s on a read-only connection). With these rules, `check`
/// names the row and the column of every value the store could not read back.
struct StoredTable {
    /// One column's rule.
    struct Column {
        enum Kind {
            /// A lower-case UUID, as `WebStateID.uuidString` writes it.
            case identifier
            /// UTC text `YYYY-MM-DD HH:MM:SS.SSS`, years 0001 to 9999, as ``StoredTime`` writes it.
            case time
            /// An integer in `range` (any integer when `nil`).
            case integer(ClosedRange<Int64>?)
            /// One of `values`.
            case choice([String])
            /// UTF-8 text without NUL, at most `maximumLength` characters, non-empty if `nonEmpty`.
            case text(maximumLength: Int?, nonEmpty: Bool)
            /// Bytes.
            case blob
            /// A number from 0 to 1.
            case fraction
        }

        var name: String
        var kind: Kind
        var isOptional: Bool

        init(_ name: String, _ kind: Kind, optional: Bool = false) {
            self.name = name
            self.kind = kind
            self.isOptional = optional
        }
    }

    /// A constraint on a whole row: `sql` must hold, or the row has `problem`.
    struct RowRule {
        var sql: String
        var problem: String
    }

    var name: String
    var columns: [Column]
    var rowRules: [RowRule] = []
    /// What names a row: its `rowid`, or the key of a `WITHOUT ROWID` table.
    var key = "rowid"

    /// Every table of the schema, with every column.
    static let all: [StoredTable] = {
        let colors = TabGroupColor.allCases.map(\.rawValue)
        let url = Column.Kind.text(maximumLength: NavigationLimits.maximumURLLength, nonEmpty: false)
        let flag = Column.Kind.integer(0...1)
        let count = Column.Kind.integer(0...Int64.max)
        return [
            StoredTable(name: "closed_entries", columns: [
                Column("id", .identifier),
                Column("kind", .choice(RecentlyClosedEntry.Kind.allCases.map(\.rawValue))),
                Column("closed_at", .time),
                Column("browser_id", .identifier, optional: true),
                Column("tab_index", count, optional: true),
                Column("group_id", .identifier, optional: true),
                Column("group_title", .text(maximumLength: nil, nonEmpty: false), optional: true),
                Column("group_color", .choice(colors), optional: true),
                Column("group_collapsed", flag, optional: true),
            ], rowRules: [
                RowRule(sql: "kind <> 'group' OR group_id IS NOT NULL", problem: "a closed group entry has no group_id."),
            ]),
            StoredTable(name: "browsers", columns: [
                Column("id", .identifier),
                Column("created_at", .time),
                Column("last_active_at", .time),
                Column("active_tab_id", .identifier, optional: true),
                Column("revision", count),
                Column("closed_entry_id", .identifier, optional: true),
            ]),
            StoredTable(name: "tab_groups", columns: [
                Column("id", .identifier),
                Column("browser_id", .identifier),
                Column("title", .text(maximumLength: nil, nonEmpty: false)),
                Column("color", .choice(colors)),
                Column("is_collapsed", flag),
                Column("created_at", .time),
            ]),
            StoredTable(name: "tabs", columns: [
                Column("id", .identifier),
                Column("browser_id", .identifier, optional: true),
                Column("closed_entry_id", .identifier, optional: true),
                Column("sort_key", .integer(nil)),
                Column("is_pinned", flag),
                Column("group_id", .identifier, optional: true),
                Column("current_entry_index", count, optional: true),
                // Trimming moves the start up one entry at a time: far below 2^62 for ever.
                Column("history_start", .integer(0...(1 << 62))),
                Column("created_at", .time),
                Column("last_active_at", .time),
            ], rowRules: [
                RowRule(sql: "(browser_id IS NULL) <> (closed_entry_id IS NULL)",
                        problem: "the tab must belong to exactly one of a browser (browser_id) and a closed entry (closed_entry_id)."),
                RowRule(sql: "NOT (is_pinned = 1 AND group_id IS NOT NULL)", problem: "the tab is both pinned and grouped."),
            ]),
            StoredTable(name: "tab_openers", columns: [
                Column("tab_id", .identifier),
                Column("opener_tab_id", .identifier),
                Column("opener_navigation_index", count, optional: true),
            ], rowRules: [
                RowRule(sql: "tab_id <> opener_tab_id", problem: "the tab is its own opener."),
            ]),
            StoredTable(name: "navigation_entries", columns: [
                Column("id", .integer(nil)),
                Column("tab_id", .identifier),
                Column("sequence", .integer(nil)),
                Column("url", .text(maximumLength: NavigationLimits.maximumURLLength, nonEmpty: true)),
                Column("virtual_url", url, optional: true),
                Column("title", .text(maximumLength: NavigationLimits.maximumTitleLength, nonEmpty: false)),
                Column("referrer_url", url, optional: true),
                Column("referrer_policy", .choice(ReferrerPolicy.allCases.map(\.rawValue))),
                Column("transition_type", .choice(NavigationTransition.allCases.map(\.rawValue))),
                Column("timestamp", .time),
                Column("http_status", .integer(0...999), optional: true),
                Column("is_post", flag),
                Column("favicon_url", url, optional: true),
                Column("user_agent_type", .choice(UserAgentType.allCases.map(\.rawValue))),
            ]),
            StoredTable(name: "navigation_page_states", columns: [
                Column("entry_id", .integer(nil)),
                Column("data", .blob),
            ]),
            StoredTable(name: "tab_engine_states", columns: [
                Column("tab_id", .identifier),
                Column("data", .blob),
                Column("updated_at", .time),
            ]),
            // The search index's content (migration 0002): each tab's current page. The
            // FTS5 table over it and its shadow tables are FTS5's own, checked by its
            // `integrity-check` command (StoreChecker+Search).
            StoredTable(name: "tab_search_pages", columns: [
                Column("id", .integer(nil)),
                Column("tab_id", .identifier),
                Column("title", .text(maximumLength: NavigationLimits.maximumTitleLength, nonEmpty: false)),
                Column("url", url),
            ]),
            // Each tab's current page (migration 0003), kept by triggers.
            StoredTable(name: "tab_pages", columns: [
                Column("tab_id", .identifier),
                Column("title", .text(maximumLength: NavigationLimits.maximumTitleLength, nonEmpty: false)),
                Column("url", url),
                Column("virtual_url", url, optional: true),
                Column("favicon_url", url, optional: true),
            ], key: "tab_id"),
        ] + syncTables
    }()

    /// The tables of sync (migration 0004): this device's state and outbox, and
    /// the other devices' records as they were received.
    private static let syncTables: [StoredTable] = {
        let text = Column.Kind.text(maximumLength: nil, nonEmpty: false)
        let recordID = Column.Kind.text(maximumLength: 32, nonEmpty: true)
        let kinds = Column.Kind.choice(["device", "tab", "group", "closed"])
        let formFactors = Column.Kind.choice(["desktop", "phone", "tablet", "unknown"])
        let integer = Column.Kind.integer(nil)
        return [
            StoredTable(name: "sync_state", columns: [
                Column("id", .integer(1...1)),
                Column("enabled", .integer(0...1)),
                Column("account_id", recordID, optional: true),
                Column("device_id", .identifier, optional: true),
                Column("device_name", text),
                Column("form_factor", formFactors),
                Column("server_url", text, optional: true),
                Column("next_version", .integer(1...Int64.max)),
                Column("cursor", .integer(0...Int64.max)),
                Column("last_sync_at", .time, optional: true),
                Column("last_error", text, optional: true),
                Column("full_sync_needed", .integer(0...Int64.max)),
            ]),
            StoredTable(name: "sync_outbox", columns: [
                Column("kind", kinds),
                Column("local_id", text),
                Column("generation", integer),
                Column("marked_at", .time),
            ], key: "kind || ' ' || local_id"),
            StoredTable(name: "sync_remote_records", columns: [
                Column("record_id", recordID),
                Column("device_id", text),
                Column("kind", kinds),
                Column("version", integer),
                Column("seq", integer),
                Column("modified_at", .time),
                Column("payload", text),
            ], key: "record_id"),
            StoredTable(name: "sync_remote_devices", columns: [
                Column("device_id", text),
                Column("name", text),
                Column("form_factor", text),
                Column("last_seen_at", .time),
            ], key: "device_id"),
            StoredTable(name: "sync_remote_tabs", columns: [
                Column("record_id", recordID),
                Column("device_id", text),
                Column("tab_id", text),
                Column("window_id", text),
                Column("sort_key", integer),
                Column("is_pinned", .integer(0...1)),
                Column("group_id", text, optional: true),
                Column("title", text),
                Column("url", text),
                Column("last_active_at", .time),
            ], key: "record_id"),
            // Migration 0011: archived tabs in sync, and what other devices' tab records say beyond the above.
            StoredTable(name: "sync_options", columns: [
                Column("id", .integer(1...1)),
                Column("uploads_archived_tabs", .integer(0...1)),
            ]),
            StoredTable(name: "sync_remote_tab_details", columns: [
                Column("record_id", recordID),
                Column("is_archived", .integer(0...1)),
                Column("split_id", text, optional: true),
            ], key: "record_id"),
            // Migration 0012: saved groups synced across the account's devices.
            StoredTable(name: "sync_saved_group_records", columns: [
                Column("record_id", recordID),
                Column("kind", text),
                Column("local_id", text),
                Column("group_id", text),
                Column("version", integer),
                Column("payload", text),
                Column("dirty", .integer(0...1)),
            ], key: "record_id"),
            StoredTable(name: "sync_saved_group_bases", columns: [
                Column("group_id", text),
                Column("snapshot", text),
            ], key: "group_id"),
            StoredTable(name: "sync_saved_group_marks", columns: [
                Column("group_id", text),
                Column("marked_ms", integer),
            ], key: "group_id"),
            StoredTable(name: "sync_saved_group_clock", columns: [
                Column("id", .integer(1...1)),
                Column("ms", integer),
                Column("counter", integer),
            ]),
            StoredTable(name: "sync_remote_groups", columns: [
                Column("record_id", recordID),
                Column("device_id", text),
                Column("group_id", text),
                Column("window_id", text),
                Column("title", text),
                Column("color", text),
                Column("is_collapsed", .integer(0...1)),
            ], key: "record_id"),
            StoredTable(name: "sync_remote_closed", columns: [
                Column("record_id", recordID),
                Column("device_id", text),
                Column("tab_id", text),
                Column("closed_at", .time),
                Column("title", text),
                Column("url", text),
            ], key: "record_id"),
            StoredTable(name: "sync_applied_commands", columns: [
                Column("command_id", text),
                Column("applied_at", .time),
            ], key: "command_id"),
            // Migration 0005: commands waiting to leave.
            StoredTable(name: "sync_outgoing_commands", columns: [
                Column("command_id", .identifier),
                Column("target_device_id", text),
                Column("payload", text),
                Column("created_at", .time),
                Column("send_after", .time),
                Column("expires_at", .time),
            ], key: "command_id"),
            // Migration 0006: the browser that mirrors a window.
            StoredTable(name: "browser_sources", columns: [
                Column("browser_id", .identifier),
                Column("source", .text(maximumLength: 64, nonEmpty: true)),
            ], key: "browser_id"),
            // Migration 0008: split views.
            StoredTable(name: "tab_splits", columns: [
                Column("id", .identifier),
                Column("browser_id", .identifier),
                Column("first_tab_id", .identifier),
                Column("second_tab_id", .identifier),
                Column("ratio", .fraction),
                Column("layout", .choice(["vertical", "horizontal"])),
            ]),
            // Migration 0009: the tab archive.
            StoredTable(name: "tab_archives", columns: [
                Column("browser_id", .identifier),
                Column("created_at", .time),
            ]),
            StoredTable(name: "archived_tabs", columns: [
                Column("tab_id", .identifier),
                Column("former_browser_id", .identifier, optional: true),
                Column("former_index", .integer(0...Int64.max)),
                Column("former_opener_id", .identifier, optional: true),
                Column("former_group_id", .identifier, optional: true),
                Column("former_group_title", .text(maximumLength: nil, nonEmpty: false), optional: true),
                Column("former_group_color", .choice(TabGroupColor.allCases.map(\.rawValue)), optional: true),
                Column("archived_at", .time),
            ]),
            // Migration 0010: saved tab groups.
            StoredTable(name: "saved_groups", columns: [
                Column("browser_id", .identifier),
                Column("group_id", .identifier),
                Column("source_browser_id", .identifier, optional: true),
                Column("saved_at", .time),
            ]),
            // Migration 0007: the highest version seen of each other device's record.
            StoredTable(name: "sync_record_floors", columns: [
                Column("record_id", recordID),
                Column("device_id", text),
                Column("version", .integer(1...Int64.max)),
                Column("digest", text),
                Column("received_at", .time),
            ], key: "record_id"),
        ]
    }()

    /// The columns whose text the SQL rules cannot judge byte by byte: free text,
    /// checked in Swift for UTF-8 and NUL.
    var freeTextColumns: [String] {
        columns.compactMap { column in
            if case .text = column.kind { column.name } else { nil }
        }
    }
}

extension StoredTable.Column {
    /// A SQL expression that is `NULL` when the column's value is sound, and
    /// otherwise says what is wrong with it.
    var problemSQL: String {
        let column = "\"\(name)\""
        let shown = "substr(quote(\(column)), 1, 60)"
        let missing = isOptional ? "NULL" : "'is missing'"
        func wrongType(_ expected: String, _ what: String) -> String {
            "WHEN typeof(\(column)) <> '\(expected)' THEN 'holds ' || typeof(\(column)) || ' ' || \(shown) || ' where \(what) belongs'"
        }
        var cases = ["WHEN \(column) IS NULL THEN \(missing)"]
        switch kind {
        case .identifier:
            let hex = { (count: Int) in String(repeating: "[0-9a-f]", count: count) }
            let pattern = [hex(8), hex(4), hex(4), hex(4), hex(12)].joined(separator: "-")
            cases.append(wrongType("text", "an identifier"))
            cases.append("WHEN \(column) NOT GLOB '\(pattern)' THEN 'holds ' || \(shown) || ', not a lower-case UUID'")
        case .time:
            let digits = { (count: Int) in String(repeating: "[0-9]", count: count) }
            let pattern = "\(digits(4))-\(digits(2))-\(digits(2)) \(digits(2)):\(digits(2)):\(digits(2)).\(digits(3))"
            cases.append(wrongType("text", "a time"))
            cases.append("""
                WHEN NOT (\(column) GLOB '\(pattern)' AND \(column) >= '0001' \
                AND strftime('%Y-%m-%d %H:%M:%f', \(column)) IS \(column)) \
                THEN 'holds ' || \(shown) || ', not a time (UTC YYYY-MM-DD HH:MM:SS.SSS)'
                """)
        case .integer(let range):
            cases.append(wrongType("integer", "an integer"))
            if let range {
                cases.append("""
                    WHEN \(column) NOT BETWEEN \(range.lowerBound) AND \(range.upperBound) \
                    THEN 'holds ' || \(column) || ', outside \(range.lowerBound)...\(range.upperBound == .max ? "" : String(range.upperBound))'
                    """)
            }
        case .choice(let values):
            let list = values.map { "'\($0)'" }.joined(separator: ", ")
            cases.append(wrongType("text", "text"))
            cases.append("WHEN \(column) NOT IN (\(list)) THEN 'holds ' || \(shown) || ', not one of \(values.joined(separator: ", "))'")
        case .text(let maximumLength, let nonEmpty):
            cases.append(wrongType("text", "text"))
            if nonEmpty {
                cases.append("WHEN \(column) = '' THEN 'is empty'")
            }
            if let maximumLength {
                cases.append("""
                    WHEN length(\(column)) > \(maximumLength) \
                    THEN 'is ' || length(\(column)) || ' characters long, over the limit of \(maximumLength)'
                    """)
            }
        case .blob:
            cases.append(wrongType("blob", "data"))
        case .fraction:
            cases.append("""
                WHEN typeof(\(column)) NOT IN ('real', 'integer') \
                THEN 'holds ' || typeof(\(column)) || ' ' || \(shown) || ' where a number belongs'
                """)
            cases.append("WHEN \(column) NOT BETWEEN 0 AND 1 THEN 'holds ' || \(column) || ', outside 0...1'")
        }
        return "CASE \(cases.joined(separator: " ")) END"
    }
}
