/// Where a database's schema stands against this binary's migrations.
public struct SchemaStatus: Sendable, Hashable {
    /// One migration recorded as applied in the database.
    public struct AppliedMigration: Sendable, Hashable {
        /// The migration's identifier, e.g. `0001_create_session_schema`.
        public var identifier: String
        /// The SHA-256 of its SQL recorded when it was applied.
        public var checksum: String
        /// When it was applied, as stored (UTC, `YYYY-MM-DD HH:MM:SS.SSS`).
        public var appliedAt: String
    }

    /// Applied migrations, in the order they were applied.
    public var applied: [AppliedMigration]
    /// Identifiers of the migrations this binary would apply, in order.
    public var pending: [String]
    /// Migrations applied by a newer binary that this one does not know, in order.
    public var newer: [String] = []
    /// The oldest schema version a binary must know to write the store: the last
    /// applied migration that older binaries cannot use (`nil` for a new store).
    /// Additive migrations after it (new tables, indexes, triggers) leave older
    /// binaries able to read and write.
    public var oldestCompatibleVersion: String?
    /// Whether this binary may write the store: it knows ``oldestCompatibleVersion``.
    public var isWritable = true

    /// The identifier of the last applied migration (a newer binary's, if any), or `nil` for a new database.
    public var version: String? { newer.last ?? applied.last?.identifier }
    /// Whether every migration this binary knows is applied.
    public var isCurrent: Bool { pending.isEmpty }
}
