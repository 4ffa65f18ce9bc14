import Logging
import PostgresNIO

/// A connection inside an open transaction, handed to the body of
/// ``Database/transaction(_:injectFaults:_:)``.
public struct Transaction {
    /// The leased connection; it must stay inside the transaction.
    let connection: PostgresConnection
    /// Where queries log.
    let logger: Logger

    /// Runs `query` and returns its rows.
    @discardableResult
    func query(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await connection.query(query, logger: logger)
    }
}
