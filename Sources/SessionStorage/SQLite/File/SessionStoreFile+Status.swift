import Foundation
internal import GRDB

extension SessionStoreFile {
    /// What `sessionstore status` shows about a store file.
    public struct Status: Sendable, Hashable, Codable {
        /// Row counts of a migrated store.
        public struct Counts: Sendable, Hashable, Codable {
            /// Open browsers (windows).
            public var browsers: Int
            /// Open tabs.
            public var tabs: Int
            /// Tab groups in open browsers.
            public var groups: Int
            /// Navigation entries of every tab, open or closed.
            public var navigationEntries: Int
            /// Recently closed entries.
            public var closedEntries: Int
        }

        /// The file's path as given.
        public var path: String
        /// The file's size in bytes (without its `-wal` file).
        public var sizeBytes: Int64
        /// `PRAGMA application_id`.
        public var applicationID: Int32
        /// `PRAGMA journal_mode`.
        public var journalMode: String
        /// The last applied migration, or `nil` for an empty file.
        public var schemaVersion: String?
        /// Applied migrations, in order.
        public var applied: [String]
        /// Migrations this binary would apply, in order.
        public var pending: [String]
        /// The oldest schema version a binary must know to write the store (the last
        /// applied migration older binaries cannot use); `nil` for an empty file.
        public var oldestCompatibleVersion: String?
        /// Applied migrations this binary does not know (a newer binary's), in order.
        public var newer: [String] = []
        /// Whether this binary may write the store.
        public var writable = true
        /// Row counts; `nil` until the schema is current.
        public var counts: Counts?
    }

    /// Reads the status of the file at `path` without changing it.
    ///
    /// - Throws: ``StorageError``, including `fileNotFound` for a missing file.
    public static func status(
        atPath path: String, configuration: SessionDatabase.Configuration = .init()
    ) throws -> Status {
        defer { LockAudit.after(#function, onFileAt: path) }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        var status = try readOnly(atPath: path, configuration: configuration, operation: "reading the status") { db in
            let schema = try SchemaMigrator(configuration).status(db, path: path, forWriting: false)
            var counts: Status.Counts?
            if schema.isCurrent {
                counts = Status.Counts(
                    browsers: try Int.fetchOne(db, sql: """
                        SELECT count(*) FROM browsers WHERE closed_entry_id IS NULL\(
                            try BrowserRows.onlyWindows(db, column: "id"))
                        """) ?? 0,
                    tabs: try Int.fetchOne(db, sql: """
                        SELECT count(*) FROM tabs AS t JOIN browsers AS b ON b.id = t.browser_id
                        WHERE b.closed_entry_id IS NULL
                        """) ?? 0,
                    groups: try Int.fetchOne(db, sql: """
                        SELECT count(*) FROM tab_groups AS g JOIN browsers AS b ON b.id = g.browser_id
                        WHERE b.closed_entry_id IS NULL
                        """) ?? 0,
                    navigationEntries: try Int.fetchOne(db, sql: "SELECT count(*) FROM navigation_entries") ?? 0,
                    closedEntries: try Int.fetchOne(db, sql: "SELECT count(*) FROM closed_entries") ?? 0)
            }
            return Status(
                path: path,
                sizeBytes: size,
                applicationID: try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                journalMode: try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "unknown",
                schemaVersion: schema.version,
                applied: schema.applied.map(\.identifier) + schema.newer,
                pending: schema.pending,
                oldestCompatibleVersion: schema.oldestCompatibleVersion,
                newer: schema.newer,
                writable: schema.isWritable,
                counts: counts)
        }
        // A store on a read-only medium may have been opened `immutable`, which reports `delete`.
        if status.journalMode == "delete", DatabaseFile.isInWALMode(atPath: path) { status.journalMode = "wal" }
        return status
    }
}
