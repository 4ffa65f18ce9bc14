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
}
