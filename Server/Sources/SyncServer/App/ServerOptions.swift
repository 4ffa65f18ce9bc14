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
    /// Test hook: how many upload transactions fail with SQLSTATE 40001.
    public var faultSerializationFailures: Int

    /// Options with every value given.
    public init(host: String, port: Int, databaseURL: DatabaseURL, jwtSecret: [UInt8], faultSerializationFailures: Int = 0) {
        self.host = host
        self.port = port
        self.databaseURL = databaseURL
        self.jwtSecret = jwtSecret
        self.faultSerializationFailures = faultSerializationFailures
    }
}
