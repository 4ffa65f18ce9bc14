import Foundation
import SyncServerHarness
import PostgresNIO
import SyncServer

/// One test's world: its own database and its own server process on it.
struct TestServer: Sendable {
    let client: APIClient
    let databaseURL: String
    let process: ServerProcess

    /// Runs `body` against a fresh database and server, then stops the server
    /// and drops the database. Holds one of the ``ServerSlots`` meanwhile.
    static func with<T: Sendable>(
        arguments: [String] = [], environment: [String: String] = [:],
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        try await withServerSlot {
            try await run(arguments: arguments, environment: environment, body)
        }
    }

    private static func run<T: Sendable>(
        arguments: [String], environment: [String: String],
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        let databaseURL = try await TestPostgres.shared.createDatabase()
        let process: ServerProcess
        do {
            process = try await ServerProcess.start(
                databaseURL: databaseURL, extraArguments: arguments, environment: environment)
        } catch {
            try? await TestPostgres.shared.dropDatabase(databaseURL)
            throw error
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await body(TestServer(
                client: APIClient(baseURL: process.baseURL), databaseURL: databaseURL, process: process)))
        } catch {
            result = .failure(error)
        }
        await process.stop()
        try? await TestPostgres.shared.dropDatabase(databaseURL)
        return try result.get()
    }

    /// Runs SQL on the test's database (to inspect rows or revoke a device).
    func sql<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await TestPostgres.withConnection(to: try DatabaseURL(databaseURL), body)
    }

    /// A single integer from `query`.
    func scalar(_ query: PostgresQuery) async throws -> Int64 {
        try await Self.scalar(databaseURL, query)
    }

    /// A single integer from `query` on the database at `databaseURL`.
    static func scalar(_ databaseURL: String, _ query: PostgresQuery) async throws -> Int64 {
        try await TestPostgres.withConnection(to: try DatabaseURL(databaseURL)) { connection in
            let rows = try await connection.query(query, logger: TestPostgres.logger)
            for try await value in rows.decode(Int64.self) { return value }
            return -1
        }
    }
}
