import Logging
import PostgresNIO

/// Applies ``Schema/migrations`` that are not yet in `schema_migrations`.
public struct Migrator: Sendable {
    let database: Database

    /// A migrator for `database` (a migration may take an hour on a large one).
    public init(database: Database) {
        self.database = database.withAttemptTimeout(.seconds(3600))
    }

    /// Applies the pending migrations, each in its own transaction; returns
    /// the versions applied.
    @discardableResult
    public func migrate() async throws -> [Int] {
        _ = try await database.transaction("create schema_migrations") { tx in
            try await tx.query(PostgresQuery(unsafeSQL: Schema.migrationsTable))
        }
        var applied: [Int] = []
        for migration in Schema.migrations {
            let ran = try await database.transaction("migration \(migration.version)") { tx in
                let rows = try await tx.query(
                    "SELECT version FROM schema_migrations WHERE version = \(migration.version) FOR UPDATE")
                for try await _ in rows { return false }
                for statement in migration.statements {
                    try await tx.query(PostgresQuery(unsafeSQL: statement))
                }
                try await tx.query(
                    "INSERT INTO schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))")
                return true
            }.value
            if ran {
                applied.append(migration.version)
                database.logger.info("applied migration", metadata: [
                    "version": "\(migration.version)", "name": "\(migration.name)",
                ])
            }
        }
        return applied
    }
}
