/// One migration of `Migrations/`, compiled into the binary.
///
/// The list of all of them, `EmbeddedMigration.all`, is generated at build time by
/// the `EmbedMigrationsPlugin` from the SQL files, which stay the schema's only
/// source. The plugin computes each file's checksum too, so the library links
/// no hashing code.
package struct EmbeddedMigration: Sendable, Hashable {
    /// The file name without `.sql`, e.g. `0001_create_session_schema`. Never renamed.
    package let identifier: String
    /// The SQL text, byte for byte as in the file.
    package let sql: String
    /// The lowercase hexadecimal SHA-256 of the SQL's UTF-8 bytes, as `sha256sum` prints it.
    package let checksum: String

    /// A migration with its SQL and that SQL's checksum.
    package init(identifier: String, checksum: String, sql: String) {
        self.identifier = identifier
        self.sql = sql
        self.checksum = checksum
    }

    /// What a migration does to binaries that know only the migrations before it.
    package enum Compatibility: String, Sendable, CaseIterable {
        /// The first schema: there is no older binary.
        case base
        /// New tables, columns with defaults, indexes, and triggers that keep derived
        /// data in step: an older binary still reads and writes the store.
        case additive
        /// Anything else (a changed table, a dropped object, a new rule old writes
        /// would break): an older binary must not write the store.
        case breaking
    }

    /// The migration's declared compatibility: its `-- compatibility: KIND` line
    /// (the first word after the colon). The first schema, `0001_create_session_schema`,
    /// predates the declarations and stays byte for byte as released (its checksum is in
    /// every store): it is the `base`. Any other file without one is `breaking`, the safe reading.
    package var compatibility: Compatibility {
        if identifier == "0001_create_session_schema" { return .base }
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false).prefix(20) {
            guard line.hasPrefix("-- compatibility:") else { continue }
            let word = line.dropFirst("-- compatibility:".count).split(separator: " ").first.map(String.init) ?? ""
            return Compatibility(rawValue: word) ?? .breaking
        }
        return .breaking
    }
}
