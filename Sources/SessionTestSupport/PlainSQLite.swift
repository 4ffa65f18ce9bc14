import Foundation
import GRDB

/// Plain SQL against a file, bypassing the store: how tests plant damage,
/// foreign databases and rows that break invariants.
public enum PlainSQLite {
    /// Runs `sql` on the file at `path` in a plain GRDB queue (no migrations,
    /// foreign keys and CHECK constraints off, so tests can plant any row).
    public static func execute(_ sql: String, arguments: StatementArguments = [], atPath path: String) throws {
        var config = Configuration()
        config.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: path, configuration: config)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: sql, arguments: arguments)
        }
        try queue.close()
    }

    /// Fetches the first column of every row of `sql`, as text.
    public static func strings(_ sql: String, atPath path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { try String.fetchAll($0, sql: sql) }
    }
}
