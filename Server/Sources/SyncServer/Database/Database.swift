import Logging
import PostgresNIO

/// The server's PostgreSQL access: every transaction goes through
/// ``transaction(_:injectFaults:_:)``, which retries on SQLSTATE 40001 and 40P01.
public struct Database: Sendable {
    /// The pooled client (run it as a service).
    public let client: PostgresClient
    let logger: Logger
    let faults: FaultInjector
    let retryPolicy: RetryPolicy

    /// Wraps `client`; `faults` injects serialization failures into uploads.
    public init(client: PostgresClient, logger: Logger, faults: FaultInjector = FaultInjector()) {
        self.client = client
        self.logger = logger
        self.faults = faults
        self.retryPolicy = RetryPolicy()
    }

    /// The value a transaction produced and how many attempts were retried.
    public struct Outcome<Value: Sendable>: Sendable {
        /// What the transaction's body returned on the attempt that committed.
        public var value: Value
        /// How many attempts failed with 40001/40P01 and were run again.
        public var retries: Int
    }

    /// Runs `body` inside `BEGIN … COMMIT` on a pooled connection, rolling back
    /// on any error and running it again (after a short backoff) when the error
    /// is a serialization failure or a deadlock, up to a bounded number of
    /// attempts. When `injectFaults` is set, the ``FaultInjector`` may raise a
    /// real 40001 error inside the transaction just before commit.
    @discardableResult
    public func transaction<Value: Sendable>(
        _ name: String,
        injectFaults: Bool = false,
        _ body: (Transaction) async throws -> Value
    ) async throws -> Outcome<Value> {
        var retries = 0
        while true {
            do {
                let value = try await attempt(injectFaults: injectFaults, body)
                return Outcome(value: value, retries: retries)
            } catch where RetryPolicy.isRetryable(error) && retries + 1 < retryPolicy.maxAttempts {
                retries += 1
                logger.notice("retrying transaction", metadata: [
                    "transaction": "\(name)", "retry": "\(retries)",
                    "sqlstate": "\(RetryPolicy.sqlState(of: error) ?? "")",
                ])
                try await Task.sleep(for: retryPolicy.delay(beforeRetry: retries))
            }
        }
    }

    private func attempt<Value: Sendable>(
        injectFaults: Bool,
        _ body: (Transaction) async throws -> Value
    ) async throws -> Value {
        try await client.withConnection { connection in
            let tx = Transaction(connection: connection, logger: logger)
            try await tx.query("BEGIN")
            do {
                let value = try await body(tx)
                if injectFaults, await faults.consume() {
                    try await tx.query(FaultInjector.failureStatement)
                }
                try await tx.query("COMMIT")
                return value
            } catch {
                do {
                    try await tx.query("ROLLBACK")
                } catch {
                    logger.debug("rollback failed", metadata: ["error": "\(String(reflecting: error))"])
                }
                throw error
            }
        }
    }
}
