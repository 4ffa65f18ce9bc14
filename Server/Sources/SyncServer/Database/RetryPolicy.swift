import PostgresNIO

/// Which database errors are worth running a transaction again for, and how
/// long to wait before the next attempt.
struct RetryPolicy: Sendable {
    /// Total attempts, the first included.
    var maxAttempts = 8
    /// Backoff before the first retry; doubles each time, with jitter.
    var baseDelay: Duration = .milliseconds(5)
    /// The longest backoff.
    var maxDelay: Duration = .milliseconds(200)

    /// SQLSTATEs of transient conflicts: serialization failure and deadlock.
    static let retryableStates: Set<String> = ["40001", "40P01"]

    /// The SQLSTATE a PostgreSQL error carries, if any.
    static func sqlState(of error: any Error) -> String? {
        if let error = error as? PSQLError { return error.serverInfo?[.sqlState] }
        if let error = error as? PostgresTransactionError {
            for inner in [error.closureError, error.commitError, error.beginError] {
                if let inner, let state = sqlState(of: inner) { return state }
            }
        }
        return nil
    }

    /// Whether `error` is a transient conflict.
    static func isRetryable(_ error: any Error) -> Bool {
        sqlState(of: error).map(retryableStates.contains) ?? false
    }

    /// The pause before retry number `retry` (1-based).
    func delay(beforeRetry retry: Int) -> Duration {
        let exponential = baseDelay * (1 << min(retry - 1, 10))
        let capped = min(exponential, maxDelay)
        let jitter = Double.random(in: 0.5...1.0)
        return capped * jitter
    }
}
