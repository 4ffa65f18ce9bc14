import Foundation

/// Everything `serve` needs to run.
public struct ServerOptions: Sendable {
    /// Address to bind.
    public var host: String
    /// Port to bind (0 picks a free one).
    public var port: Int
    /// The PostgreSQL database.
    public var databaseURL: DatabaseURL
    /// The HS256 secret of bearer tokens.
    public var jwtSecret: [UInt8]
    /// Limits and quotas.
    public var limits: Limits
    /// How commits are announced to other server processes.
    public var hintBus: HintBusKind
    /// Time between two sweeps (`nil`: never in this process).
    public var sweepInterval: Duration?
    /// How long requests under way may take to finish after SIGTERM before
    /// they are cancelled (a client holding its request body back would
    /// otherwise keep the process alive forever).
    public var shutdownGrace: Duration
    /// How long a connection may sit without sending while its request is
    /// being read, or between requests, before it is closed (a request being
    /// answered, a waiting hint included, is never cut).
    public var idleTimeout: Duration
    /// How long one database transaction attempt may take before its request
    /// is answered `503`.
    public var databaseTimeout: Duration
    /// Test hook: how many upload transactions fail with SQLSTATE 40001.
    public var faultSerializationFailures: Int

    /// Options with every value given.
    public init(
        host: String, port: Int, databaseURL: DatabaseURL, jwtSecret: [UInt8], limits: Limits = Limits(),
        hintBus: HintBusKind = .postgres, sweepInterval: Duration? = .seconds(3600),
        shutdownGrace: Duration = .seconds(25), idleTimeout: Duration = .seconds(30),
        databaseTimeout: Duration = .seconds(5), faultSerializationFailures: Int = 0
    ) {
        self.idleTimeout = idleTimeout
        self.databaseTimeout = databaseTimeout
        self.host = host
        self.port = port
        self.databaseURL = databaseURL
        self.jwtSecret = jwtSecret
        self.limits = limits
        self.hintBus = hintBus
        self.sweepInterval = sweepInterval
        self.shutdownGrace = shutdownGrace
        self.faultSerializationFailures = faultSerializationFailures
    }
}

/// Which ``HintBus`` a server process uses.
public enum HintBusKind: String, Sendable, CaseIterable {
    /// PostgreSQL `LISTEN/NOTIFY`: any number of processes on one database.
    case postgres
    /// In process only: for a single server process.
    case local
}
