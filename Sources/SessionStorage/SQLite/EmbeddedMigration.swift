import Crypto
import Foundation

/// One migration of `Migrations/`, compiled into the binary.
///
/// The list of all of them, `EmbeddedMigration.all`, is generated at build time by
/// the `EmbedMigrationsPlugin` from the SQL files, which stay the schema's only
/// source.
public struct EmbeddedMigration: Sendable, Hashable {
    /// The file name without `.sql`, e.g. `0001_create_session_schema`. Never renamed.
    public let identifier: String
    /// The SQL text, byte for byte as in the file.
    public let sql: String

    /// The lowercase hexadecimal SHA-256 of the SQL's UTF-8 bytes.
    public var checksum: String {
        SHA256.hash(data: Data(sql.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
