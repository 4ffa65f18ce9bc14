import Foundation
import GRDBSQLite

/// A bound value for a raw statement.
enum RawValue {
    case text(String)
    case integer(Int64)
    case null
}

/// A SQLite C API error, with SQLite's own message.
struct RawSQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var description: String { "SQLite error \(code): \(message)" }
}

/// One connection of the raw SQLite C API, set up as the store sets up its own:
/// WAL, the same `synchronous`, foreign keys and `secure_delete` on.
final class RawConnection {
    let handle: OpaquePointer

    /// Opens `path` (and creates it when `create` is set).
    init(path: String, synchronous: String, create: Bool = false) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0)
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw RawSQLiteError(code: status, message: message)
        }
        self.handle = handle
        // Constant pragmas of this benchmark, never user input.
        try execute("PRAGMA busy_timeout = 5000")
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = \(synchronous)")
        try execute("PRAGMA foreign_keys = ON")
        try execute("PRAGMA secure_delete = ON")
        // The store's writer cache (SessionDatabase.Configuration.writerCacheKiB), so the comparison stays like for like.
        try execute("PRAGMA cache_size = -32768")
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        if status != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? ""
            sqlite3_free(error)
            throw RawSQLiteError(code: status, message: message)
        }
    }

    func prepare(_ sql: String) throws -> RawStatement { try RawStatement(connection: self, sql: sql) }

    /// Copies every row of `tables` from the file at `source` into this one's tables of the same
    /// names, one `INSERT … SELECT` of the columns this file has per table, in one transaction
    /// (this file's triggers fire). Foreign keys are off: the rows go in as they are.
    func copyRows(of tables: [String], from source: String) throws {
        try execute("PRAGMA foreign_keys = OFF")
        try execute("ATTACH DATABASE '\(source.replacingOccurrences(of: "'", with: "''"))' AS source")
        try execute("BEGIN")
        for table in tables {
            var columns: [String] = []
            try prepare("SELECT name FROM pragma_table_info('\(table)', 'main')").query { columns.append($0.text(0)!) }
            let list = columns.joined(separator: ", ")
            try execute("INSERT INTO main.\(table) (\(list)) SELECT \(list) FROM source.\(table)")
        }
        try execute("COMMIT")
        try execute("DETACH DATABASE source")
        try execute("PRAGMA foreign_keys = ON")
    }

    var lastError: RawSQLiteError {
        RawSQLiteError(code: sqlite3_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement, kept for reuse.
final class RawStatement {
    private let connection: RawConnection
    private let handle: OpaquePointer

    init(connection: RawConnection, sql: String) throws {
        self.connection = connection
        var handle: OpaquePointer?
        guard sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil) == SQLITE_OK,
              let handle
        else { throw connection.lastError }
        self.handle = handle
    }

    deinit { sqlite3_finalize(handle) }

    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

    private func bind(_ values: [RawValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let position = Int32(offset + 1)
            let status: Int32 =
                switch value {
                case .text(let text): sqlite3_bind_text(handle, position, text, -1, Self.transient)
                case .integer(let integer): sqlite3_bind_int64(handle, position, integer)
                case .null: sqlite3_bind_null(handle, position)
                }
            guard status == SQLITE_OK else { throw connection.lastError }
        }
    }

    /// Runs the statement to completion.
    func run(_ values: [RawValue] = []) throws {
        try bind(values)
        var status = sqlite3_step(handle)
        while status == SQLITE_ROW { status = sqlite3_step(handle) }
        guard status == SQLITE_DONE else { throw connection.lastError }
    }

    /// Runs the query, calling `row` for each result row.
    func query(_ values: [RawValue] = [], row: (RawRow) throws -> Void) throws {
        try bind(values)
        while true {
            let status = sqlite3_step(handle)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw connection.lastError }
            try row(RawRow(handle: handle))
        }
    }
}

/// The current row of a query.
struct RawRow {
    fileprivate let handle: OpaquePointer

    func text(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: text)
    }

    func integer(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
    }
}
