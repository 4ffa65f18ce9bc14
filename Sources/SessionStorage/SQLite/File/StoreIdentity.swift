import Foundation
internal import GRDB

/// Which store a file is, so that a snapshot is tied to the store it was taken of.
///
/// A store has no id column of its own, and adding one would take a migration.
/// But every store records when it was made: the `applied_at` of its first
/// migration in `schema_migrations`, to the millisecond, written once when the
/// file is created and never changed after. A snapshot (`VACUUM INTO`) and a
/// restore (the backup API) copy it with the rest, so a store keeps its identity
/// through both, while a new store made later at the same path gets another one.
/// The identity is a 64-bit FNV-1a digest of that text, in 16 hex digits: short
/// enough for a snapshot's name, and it names no one's data.
enum StoreIdentity {
    /// The identity of the store `db` is, or `nil` for a file with no migration recorded.
    static func read(_ db: Database) throws -> String? {
        try firstMigration(db).map { digest($0.identifier + " " + $0.appliedAt) }
    }

    /// The open tabs of a store: those of its windows not in recently closed.
    static func openTabCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT count(*) FROM tabs AS t JOIN browsers AS b ON b.id = t.browser_id
            WHERE b.closed_entry_id IS NULL
            """) ?? 0
    }

    /// Gives the store `db` the identity it had before a restore wrote another
    /// store's content into it: `recorded` is what ``firstMigration(_:)`` read then.
    static func restore(_ recorded: (identifier: String, appliedAt: String), in db: Database) throws {
        try db.execute(
            sql: "UPDATE schema_migrations SET applied_at = ? WHERE identifier = ?",
            arguments: [recorded.appliedAt, recorded.identifier])
    }

    /// The first migration recorded, and when it was applied (when the store was made).
    static func firstMigration(_ db: Database) throws -> (identifier: String, appliedAt: String)? {
        guard try db.tableExists("schema_migrations"),
              let row = try Row.fetchOne(
                db, sql: "SELECT identifier, applied_at FROM schema_migrations ORDER BY identifier LIMIT 1")
        else { return nil }
        return (try row.decode(forColumn: "identifier"), try row.decode(forColumn: "applied_at"))
    }

    private static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension SessionStoreFile {
    /// The identity of the store at `path` (what ``StoreSnapshot/storeID`` names),
    /// read without changing the file; `nil` when it cannot be read.
    public static func storeIdentity(
        atPath path: String, configuration: SessionDatabase.Configuration = .init()
    ) -> String? {
        (try? readOnly(atPath: path, configuration: configuration, operation: "reading the store's identity") {
            try StoreIdentity.read($0)
        }) ?? nil
    }
}
