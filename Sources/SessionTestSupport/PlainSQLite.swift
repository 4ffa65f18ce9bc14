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

extension PlainSQLite {
    /// Flips bytes all over the root page of `table` in the (checkpointed) file at `path`,
    /// as a bad disk would: the page's structure breaks, the file's header does not.
    public static func damageRootPage(of table: String, atPath path: String) throws {
        guard let root = try Int(strings("SELECT rootpage FROM sqlite_master WHERE name = '\(table)'", atPath: path).first ?? ""),
              var bytes = fileBytes(path)
        else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path]) }
        let page = (root - 1) * 4096
        for offset in (page + 8)..<min(page + 4096, bytes.count) where offset % 7 == 0 { bytes[offset] ^= 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: path))
    }
}
