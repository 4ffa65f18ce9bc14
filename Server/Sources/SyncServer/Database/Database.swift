import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// The server's PostgreSQL access: every transaction goes through
/// ``transaction(_:injectFaults:_:)``, which retries on SQLSTATE 40001 and 40P01.
public struct Database: Sendable {
    /// The pooled client (run it as a service).
    public let client: PostgresClient
    let logger: Logger
    let faults: FaultInjector
    let retryPolicy: RetryPolicy
    /// How long one attempt may take, from asking the pool for a connection to
    /// its commit, before the request is answered `503`: a PostgreSQL stopped
    /// at the wrong moment can leave a connection that never answers.
    let attemptTimeout: Duration

    /// Wraps `client`; `faults` injects serialization failures into uploads.
    public init(
        client: PostgresClient, logger: Logger, faults: FaultInjector = FaultInjector(),
        attemptTimeout: Duration = .seconds(10)
    ) {
        self.client = client
        self.logger = logger
        self.faults = faults
        self.retryPolicy = RetryPolicy()
        self.attemptTimeout = attemptTimeout
    }

    /// The same database with another attempt timeout (migrations and large
    /// deletions take longer than a request's transaction).
    func withAttemptTimeout(_ timeout: Duration) -> Database {
        Database(client: client, logger: logger, faults: faults, attemptTimeout: timeout)
    }

    /// The database did not answer within ``attemptTimeout``.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
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
        _ body: @escaping @Sendable (Transaction) async throws -> Value
    ) async throws -> Outcome<Value> {
        var retries = 0
        while true {
            do {
                let value = try await Self.withDeadline(attemptTimeout, name: name) {
                    try await attempt(injectFaults: injectFaults, body)
                }
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

    /// `body`'s value, or ``Unavailable`` once `timeout` passes, whether or not
    /// `body` heeds the cancellation it then gets (a connection that never
    /// answers does not): the caller is answered either way.
    static func withDeadline<Value: Sendable>(
        _ timeout: Duration, name: String, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let resumed = NIOLockedValueBox(false)
        let tasks = NIOLockedValueBox<[Task<Void, Never>]>([])
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                func finish(_ result: Result<Value, any Error>) {
                    guard resumed.withLockedValue({ done in defer { done = true }; return !done }) else { return }
                    tasks.withLockedValue { $0.forEach { $0.cancel() } }
                    continuation.resume(with: result)
                }
                let work = Task {
                    do { finish(.success(try await body())) } catch { finish(.failure(error)) }
                }
                let timer = Task {
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    finish(.failure(Unavailable(description: "the database did not answer \(name) within \(timeout)")))
                }
                tasks.withLockedValue { $0 = [work, timer] }
                if resumed.withLockedValue({ $0 }) { work.cancel(); timer.cancel() }
            }
        } onCancel: {
            tasks.withLockedValue { $0.forEach { $0.cancel() } }
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
