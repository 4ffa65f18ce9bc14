import Foundation
import PostgresNIO

/// A parsed PostgreSQL connection URL.
///
/// Accepted forms: `postgres://user[:password]@host[:port]/database` (also
/// `postgresql://`), and a unix socket through the query item
/// `host=/path/to/socketdir`, in which case the socket file is
/// `<dir>/.s.PGSQL.<port>` (port 5432 unless given). The query item
/// `sslmode` may be `disable`, `prefer` (the default) or `require`.
public struct DatabaseURL: Sendable, Equatable {
    /// Where the server listens.
    public enum Endpoint: Sendable, Equatable {
        /// A TCP host and port.
        case tcp(host: String, port: Int)
        /// The full path of a unix socket file.
        case unixSocket(path: String)
    }

    /// How TLS is used on a TCP connection.
    public enum TLSMode: String, Sendable, Equatable {
        /// Never use TLS.
        case disable
        /// Use TLS when the server offers it.
        case prefer
        /// Fail unless TLS is used.
        case require
    }

    /// The server's address.
    public var endpoint: Endpoint
    /// The role to connect as.
    public var username: String
    /// The role's password, if any.
    public var password: String?
    /// The database name (defaults to the user name, as libpq does).
    public var database: String
    /// TLS mode for TCP connections.
    public var tls: TLSMode

    /// Parses `string`, throwing ``DatabaseURLError`` when it is not a usable URL.
    public init(_ string: String) throws {
        guard let components = URLComponents(string: string),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme)
        else { throw DatabaseURLError(url: string, reason: "expected postgres://user[:password]@host[:port]/database") }
        let user = components.user.flatMap { $0.removingPercentEncoding ?? $0 } ?? ""
        guard !user.isEmpty else { throw DatabaseURLError(url: string, reason: "missing user name") }
        username = user
        password = components.password.flatMap { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        let items = components.queryItems ?? []
        let port = components.port ?? 5432
        if let socketDir = items.first(where: { $0.name == "host" })?.value, socketDir.hasPrefix("/") {
            let dir = socketDir.hasSuffix("/") ? String(socketDir.dropLast()) : socketDir
            endpoint = .unixSocket(path: "\(dir)/.s.PGSQL.\(port)")
        } else {
            guard let host = components.host, !host.isEmpty else {
                throw DatabaseURLError(url: string, reason: "missing host")
            }
            endpoint = .tcp(host: host, port: port)
        }
        let mode = items.first(where: { $0.name == "sslmode" })?.value ?? "prefer"
        guard let tlsMode = TLSMode(rawValue: mode) else {
            throw DatabaseURLError(url: string, reason: "sslmode must be disable, prefer or require")
        }
        tls = tlsMode
    }

    /// The configuration of a pooled client.
    public var clientConfiguration: PostgresClient.Configuration {
        switch endpoint {
        case .tcp(let host, let port):
            PostgresClient.Configuration(
                host: host, port: port, username: username, password: password,
                database: database, tls: clientTLS)
        case .unixSocket(let path):
            PostgresClient.Configuration(
                unixSocketPath: path, username: username, password: password, database: database)
        }
    }

    /// The configuration of a single connection.
    public func connectionConfiguration() throws -> PostgresConnection.Configuration {
        switch endpoint {
        case .tcp(let host, let port):
            PostgresConnection.Configuration(
                host: host, port: port, username: username, password: password,
                database: database, tls: try connectionTLS())
        case .unixSocket(let path):
            PostgresConnection.Configuration(
                unixSocketPath: path, username: username, password: password, database: database)
        }
    }

    private var clientTLS: PostgresClient.Configuration.TLS {
        switch tls {
        case .disable: .disable
        case .prefer: .prefer(TLSConfiguration.makeClientConfiguration())
        case .require: .require(TLSConfiguration.makeClientConfiguration())
        }
    }

    private func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
        switch tls {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }
}

/// A database URL that cannot be used.
public struct DatabaseURLError: Error, CustomStringConvertible {
    /// The URL as given.
    public var url: String
    /// What is wrong with it.
    public var reason: String
    public var description: String { "invalid database URL: \(reason)" }
}
