import Foundation
import Hummingbird
import Logging
import Metrics
import PostgresNIO
import Prometheus
import ServiceLifecycle

/// Runs the sync server: migrates the database, binds, prints
/// `listening on HOST:PORT` on standard output, and serves until SIGTERM/SIGINT.
public enum SyncServerApp {
    /// Serves with `options` until the process is asked to stop. On SIGTERM it
    /// stops accepting, answers its waiting requests at once, lets the requests
    /// under way finish (cancelling those still running after
    /// `options.shutdownGrace`), and closes its database connections.
    public static func serve(_ options: ServerOptions, logger: Logger) async throws {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let client = PostgresClient(configuration: options.databaseURL.clientConfiguration, backgroundLogger: logger)
        let notifier = ChangeNotifier()
        let bus: any HintBus = switch options.hintBus {
        case .postgres:
            PostgresHintBus(
                configuration: try options.databaseURL.connectionConfiguration(), notifier: notifier, logger: logger)
        case .local:
            LocalHintBus()
        }
        let api = SyncAPI(
            database: Database(
                client: client, logger: logger,
                faults: FaultInjector(serializationFailures: options.faultSerializationFailures),
                attemptTimeout: options.databaseTimeout),
            tokens: await TokenIssuer(secret: options.jwtSecret, lifetimeSeconds: options.limits.tokenLifetimeSeconds),
            notifier: notifier, bus: bus, rateLimiter: UploadRateLimiter(perSecond: options.limits.uploadsPerSecond),
            limits: options.limits, logger: logger, metricsRegistry: registry)
        let host = options.host
        let migrated = Sweeper.Gate()
        var app = Application(
            router: api.router(),
            server: .http1(configuration: .init(idleTimeout: Self.timeAmount(options.idleTimeout))),
            configuration: ApplicationConfiguration(address: .hostname(host, port: options.port)),
            services: [client, bus, Sweeper(api: api, interval: options.sweepInterval, ready: migrated)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                StandardOutput.writeLine("listening on \(host):\(port)")
            },
            logger: logger)
        app.beforeServerStarts {
            try await Migrator(database: api.database).migrate()
            migrated.open()
        }
        // Not `app.runService()`: its graceful shutdown waits without end for
        // a request whose client never sends the body it announced.
        var configuration = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = options.shutdownGrace
        try await ServiceGroup(configuration: configuration).run()
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Applies pending migrations and returns.
    public static func migrate(_ url: DatabaseURL, logger: Logger) async throws {
        try await withDatabase(url, logger: logger) { database in
            let applied = try await Migrator(database: database).migrate()
            logger.info("migrations done", metadata: ["applied": "\(applied)"])
        }
    }

    /// Runs one sweep (after pending migrations) and returns what it did.
    static func sweep(_ url: DatabaseURL, limits: Limits, logger: Logger) async throws -> Sweeper.Report {
        try await withDatabase(url, logger: logger) { database in
            try await Migrator(database: database).migrate()
            let api = SyncAPI(
                database: database, tokens: await TokenIssuer(secret: Array(repeating: 0, count: 32), lifetimeSeconds: 1),
                notifier: ChangeNotifier(), bus: PostgresHintBus(
                    configuration: try url.connectionConfiguration(), notifier: ChangeNotifier(), logger: logger),
                rateLimiter: UploadRateLimiter(perSecond: 1), limits: limits, logger: logger, metricsRegistry: nil)
            return try await Sweeper(api: api, interval: nil).sweep()
        }
    }

    private static func withDatabase<T: Sendable>(
        _ url: DatabaseURL, logger: Logger, _ body: @Sendable (Database) async throws -> T
    ) async throws -> T {
        let client = PostgresClient(configuration: url.clientConfiguration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            defer { group.cancelAll() }
            return try await body(Database(client: client, logger: logger))
        }
    }
}

/// Unbuffered writes to standard output.
enum StandardOutput {
    static func writeLine(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
