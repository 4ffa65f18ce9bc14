import Foundation
import SessionStorage

/// The file of the second raw subject: the first schema only (`0001`: no search index,
/// no `tab_pages`, no sync triggers), holding the same rows as the store's file, so
/// that the cost of the store's derived data shows as a column of its own.
enum MinimalSchema {
    /// The `0001` tables, in an order that copies parents before children.
    static let tables = [
        "closed_entries", "browsers", "tab_groups", "tabs", "tab_openers", "navigation_entries",
        "navigation_page_states", "tab_engine_states",
    ]

    /// Creates `path` with the `0001` schema and copies every row of its tables from `source`
    /// (a closed store: nothing else has it open).
    static func seed(atPath path: String, from source: String) throws {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        guard let first = EmbeddedMigration.all.first(where: { $0.identifier == "0001_create_session_schema" }) else {
            throw BenchError("the 0001 migration is not embedded")
        }
        let connection = try RawConnection(path: path, synchronous: "normal", create: true)
        try connection.execute(first.sql)
        try connection.copyRows(of: tables, from: source)
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
