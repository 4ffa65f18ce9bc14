import Foundation
import SyncServerHarness
import SyncServer
import Testing

@Suite("migrate command")
struct MigrateCommandTests {
    @Test func migrateCreatesTheSchemaOnceAndIsIdempotent() async throws {
        let databaseURL = try await TestPostgres.shared.createDatabase()
        let executable = try ServerProcess.executableURL().path
        try ChildProcess.run([executable, "migrate", "--database-url", databaseURL])
        try ChildProcess.run([executable, "migrate", "--database-url", databaseURL])
        let count = try await TestPostgres.withConnection(to: try DatabaseURL(databaseURL)) { connection in
            let rows = try await connection.query(
                """
                SELECT (SELECT count(*) FROM schema_migrations)
                     + (SELECT count(*) FROM information_schema.tables
                        WHERE table_name IN ('accounts', 'devices', 'records', 'idempotency', 'commands', 'account_records'))
                """, logger: TestPostgres.logger)
            for try await value in rows.decode(Int64.self) { return value }
            return -1
        }
        // Five migrations, six tables.
        #expect(count == 11)
        try await TestPostgres.shared.dropDatabase(databaseURL)
    }

    @Test func aBadDatabaseURLFails() throws {
        let executable = try ServerProcess.executableURL().path
        #expect(throws: ChildProcess.Failure.self) {
            try ChildProcess.run([executable, "migrate", "--database-url", "mysql://nobody@nowhere/x"])
        }
    }
}
