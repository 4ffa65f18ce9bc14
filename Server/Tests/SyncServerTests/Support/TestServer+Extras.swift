import Foundation
import PostgresNIO
import SyncServerHarness

extension TestServer {
    /// Runs a statement on the test's database (to backdate rows, say).
    func execute(_ query: PostgresQuery) async throws {
        try await sql { connection in
            _ = try await connection.query(query, logger: TestPostgres.logger)
        }
    }

    /// Runs `sessionstore-sync-server sweep` on the test's database as a child
    /// process; returns its standard output (the `swept: …` report).
    @discardableResult
    func sweep(_ arguments: [String] = []) throws -> String {
        try ChildProcess.run(
            [try ServerProcess.executableURL().path, "sweep", "--database-url", databaseURL] + arguments)
    }

    /// How many rows of each table of the database hold `accountID` in their
    /// `account_id` column: every table that has one, found in the catalog.
    func rowsPerTable(accountID: String) async throws -> [String: Int64] {
        try await sql { connection in
            let tables = try await connection.query("""
                SELECT table_name FROM information_schema.columns
                WHERE table_schema = 'public' AND column_name = 'account_id'
                ORDER BY table_name
                """, logger: TestPostgres.logger)
            var names: [String] = []
            for try await name in tables.decode(String.self) { names.append(name) }
            var counts: [String: Int64] = [:]
            for name in names {
                let rows = try await connection.query(PostgresQuery(
                    unsafeSQL: "SELECT count(*) FROM \"\(name)\" WHERE account_id = $1",
                    binds: { var binds = PostgresBindings(); binds.append(accountID); return binds }()),
                    logger: TestPostgres.logger)
                for try await count in rows.decode(Int64.self) { counts[name] = count }
            }
            return counts
        }
    }
}

extension TestServer {
    /// Runs `body` with a second server process on the same database and the
    /// same token secret (a client of it is `body`'s second argument), and
    /// stops that process afterwards.
    static func withSecondProcess<T: Sendable>(_ body: (TestServer, APIClient) async throws -> T) async throws -> T {
        let secret = ["SESSIONSTORE_SYNC_JWT_SECRET": "shared-\(UUID().uuidString)"]
        return try await with(environment: secret) { (server: TestServer) async throws -> T in
            let other = try await ServerProcess.start(databaseURL: server.databaseURL, environment: secret)
            do {
                let value = try await body(server, APIClient(baseURL: other.baseURL))
                await other.stop()
                return value
            } catch {
                await other.stop()
                throw error
            }
        }
    }
}
