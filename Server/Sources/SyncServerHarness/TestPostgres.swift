import Foundation
import Logging
import PostgresNIO
import SyncServer

/// The PostgreSQL server the tests use: started once per test process in a
/// temporary directory (unix socket only) and stopped at exit, or the one
/// named by `SESSIONSTORE_SYNC_TEST_DATABASE_URL`.
public actor TestPostgres {
    public static let shared = TestPostgres()

    private var adminURL: DatabaseURL?

    /// A new, empty database with a unique name; returns its URL string.
    public func createDatabase() async throws -> String {
        let admin = try adminDatabaseURL()
        let name = "sync_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        _ = try await Self.withConnection(to: admin) { connection in
            try await connection.query("CREATE DATABASE \(unescaped: name)", logger: Self.logger)
        }
        return Self.urlString(admin, database: name)
    }

    /// Drops a database made by ``createDatabase()`` (given by its URL).
    public func dropDatabase(_ url: String) async throws {
        let admin = try adminDatabaseURL()
        let name = try DatabaseURL(url).database
        _ = try await Self.withConnection(to: admin) { connection in
            try await connection.query("DROP DATABASE IF EXISTS \(unescaped: name) WITH (FORCE)", logger: Self.logger)
        }
    }

    /// Runs `body` on a fresh connection to `url`.
    public static func withConnection<T: Sendable>(
        to url: DatabaseURL, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(),
            configuration: try url.connectionConfiguration(), id: 1, logger: logger
        ).get()
        do {
            let value = try await body(connection)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    public static let logger: Logger = {
        var logger = Logger(label: "test-postgres")
        logger.logLevel = .error
        return logger
    }()

    private func adminDatabaseURL() throws -> DatabaseURL {
        if let adminURL { return adminURL }
        let url: DatabaseURL
        if let external = ProcessInfo.processInfo.environment["SESSIONSTORE_SYNC_TEST_DATABASE_URL"] {
            url = try DatabaseURL(external)
        } else {
            url = try LocalCluster.start()
        }
        adminURL = url
        return url
    }

    /// `url` with another database name, as a string the server accepts.
    public static func urlString(_ url: DatabaseURL, database: String) -> String {
        let auth = url.password.map { "\(url.username):\($0)" } ?? url.username
        switch url.endpoint {
        case .tcp(let host, let port):
            return "postgres://\(auth)@\(host):\(port)/\(database)?sslmode=\(url.tls.rawValue)"
        case .unixSocket(let path):
            let dir = (path as NSString).deletingLastPathComponent
            let port = path.split(separator: ".").last.map(String.init) ?? "5432"
            return "postgres://\(auth)@localhost:\(port)/\(database)?host=\(dir)"
        }
    }
}
