import Foundation
import SessionModel

extension SessionStoreFile {
    /// One problem `sessionstore check` found: what is wrong and where.
    public struct Problem: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The family of check: `integrity`, `schema`, `value`, `foreign_key`,
        /// `tab_list`, `history` or `closed`.
        public var check: String
        /// Where: a table and row (`tabs row 3`), a schema object, or a browser and tab.
        public var location: String
        /// One sentence saying what is wrong.
        public var message: String

        /// `check location: message`.
        public var description: String { "\(check) \(location): \(message)" }
    }

    /// Checks the file at `path` without changing it.
    ///
    /// In order, stopping after a family whose problems make the next ones unreliable:
    /// 1. `integrity`: `PRAGMA integrity_check` (the file's pages and indexes).
    /// 2. `schema`: every table, index and view the migrations made is there, as they made it.
    /// 3. `value`: every stored value is one the store reads back: its type, an
    ///    identifier's or a time's form, UTF-8 text without NUL, the schema's
    ///    `CHECK` constraints, named by table, row and column.
    /// 4. `foreign_key`: `PRAGMA foreign_key_check`.
    /// 5. `tab_list`: the tab-list rules (<doc:TabListRules>) on every browser (through the
    ///    model's `WebStateListInvariants`, the code the live lists obey), and one sort key per tab.
    /// 6. `history`: entries numbered 0..n-1 from the tab's `history_start`, current index in range.
    /// 7. `closed`: each recently closed entry holds what its kind needs (one tab; a
    ///    group's tabs; a window's browser), so the store's own export imports again.
    ///
    /// - Returns: Every problem found; empty for a sound store.
    /// - Throws: ``StorageError`` when the file cannot be read as a current session store.
    public static func check(
        atPath path: String, configuration: SessionDatabase.Configuration = .init()
    ) throws -> [Problem] {
        defer { LockAudit.after(#function, onFileAt: path) }
        return try readOnly(atPath: path, configuration: configuration, operation: "checking") { db in
            let migrator = SchemaMigrator(configuration)
            // A newer schema this binary may not write may have changed tables it would judge
            // by its own rules: refused, as for writing. A compatible newer one is checked.
            let schema = try migrator.status(db, path: path, forWriting: true)
            guard schema.isCurrent else {
                throw StorageError.migrationsPending(path: path, pending: schema.pending)
            }
            return try StoreChecker(db: db, migrator: migrator, newerMigrations: schema.newer).problems()
        }
    }
}
