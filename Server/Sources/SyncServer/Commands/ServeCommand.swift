import ArgumentParser
import Foundation
import Logging

/// `sessionstore-sync-server serve`: migrates, then serves the HTTP API.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Migrate the database, then serve the sync API.")

    @OptionGroup var database: DatabaseOption

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind; 0 picks a free one (printed as 'listening on HOST:PORT').")
    var port = 8080

    @Option(name: .customLong("jwt-secret-file"),
            help: "File holding the token secret (else $SESSIONSTORE_SYNC_JWT_SECRET, else a random one).")
    var jwtSecretFile: String?

    @Option(help: "How commits reach other server processes: postgres (LISTEN/NOTIFY) or local (one process).")
    var hintBus = HintBusKind.postgres

    @Option(help: "Seconds between sweeps of expired and deleted rows; 0: never in this process.")
    var sweepInterval = 3600

    @Option(help: "Seconds requests under way may take to finish after SIGTERM before they are cancelled.")
    var shutdownGrace = 25

    @Option(help: "Seconds a connection may send nothing while its request is read, or between requests, before it is closed.")
    var idleTimeout = 30

    @Option(help: "Seconds a database transaction may take before its request is answered 503.")
    var databaseTimeout = 5

    @OptionGroup(title: "Quotas") var quotas: LimitOptions

    @Option(name: .customLong("fault-serialization-failures"),
            help: ArgumentHelp("Testing: fail the first N upload transactions with SQLSTATE 40001.", visibility: .hidden))
    var faultSerializationFailures = 0

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard sweepInterval >= 0 else { throw ValidationError("--sweep-interval must be ≥ 0") }
        guard shutdownGrace >= 0 else { throw ValidationError("--shutdown-grace must be ≥ 0") }
        guard idleTimeout >= 1, databaseTimeout >= 1 else {
            throw ValidationError("--idle-timeout and --database-timeout must be ≥ 1")
        }
        guard faultSerializationFailures >= 0 else { throw ValidationError("--fault-serialization-failures must be ≥ 0") }
    }

    func run() async throws {
        let logger = SyncServerCommand.makeLogger()
        let secret = try JWTSecret.load(file: jwtSecretFile, logger: logger)
        let options = ServerOptions(
            host: host, port: port, databaseURL: try database.url(), jwtSecret: secret, limits: quotas.limits,
            hintBus: hintBus, sweepInterval: sweepInterval > 0 ? .seconds(sweepInterval) : nil,
            shutdownGrace: .seconds(shutdownGrace), idleTimeout: .seconds(idleTimeout),
            databaseTimeout: .seconds(databaseTimeout), faultSerializationFailures: faultSerializationFailures)
        try await SyncServerApp.serve(options, logger: logger)
    }
}

extension HintBusKind: ExpressibleByArgument {}
