import Foundation
import Hummingbird
import Logging
import PostgresNIO

/// Runs the sync server: migrates the database, binds, prints
/// `listening on HOST:PORT` on standard output, and serves until SIGTERM/SIGINT.
public enum SyncServerApp {
    /// Serves with `options` until the process is asked to stop.
    public static func serve(_ options: ServerOptions, logger: Logger) async throws {
        let client = PostgresClient(configuration: options.databaseURL.clientConfiguration, backgroundLogger: logger)
        let database = Database(
            client: client, logger: logger,
            faults: FaultInjector(serializationFailures: options.faultSerializationFailures))
        let limits = Limits()
        let api = SyncAPI(
            database: database,
            tokens: await TokenIssuer(secret: options.jwtSecret, lifetimeSeconds: limits.tokenLifetimeSeconds),
            notifier: ChangeNotifier(), limits: limits, logger: logger)
        let host = options.host
        var app = Application(
            router: api.router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: options.port)),
            services: [client],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                StandardOutput.writeLine("listening on \(host):\(port)")
            },
            logger: logger)
        app.beforeServerStarts {
            try await Migrator(database: database).migrate()
        }
        try await app.runService()
    }

    /// Applies pending migrations and returns.
    public static func migrate(_ url: DatabaseURL, logger: Logger) async throws {
        let client = PostgresClient(configuration: url.clientConfiguration, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let applied = try await Migrator(database: Database(client: client, logger: logger)).migrate()
            logger.info("migrations done", metadata: ["applied": "\(applied)"])
        }
    }
}

/// Unbuffered writes to standard output.
enum StandardOutput {
    static func writeLine(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
