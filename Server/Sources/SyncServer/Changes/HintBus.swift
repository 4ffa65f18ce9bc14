import Logging
import ServiceLifecycle

/// Carries "this account changed" from the process that committed to every
/// server process, whose ``ChangeNotifier`` then wakes its waiting requests.
///
/// The server holds no state of its own between requests, so any number of
/// processes can serve one database; a bus is how they hear of each other's
/// commits. ``PostgresHintBus`` uses PostgreSQL's `LISTEN/NOTIFY`; another
/// engine would bring its own (CockroachDB changefeeds, a Redis channel).
protocol HintBus: Service {
    /// Announces a commit to `accountID`. Called inside the committing
    /// transaction, so that the announcement leaves only if the commit lands.
    func announce(accountID: String, in tx: Transaction) async throws
}

/// A bus for a single server process: the commit's own wake-up is all there is.
struct LocalHintBus: HintBus {
    func announce(accountID: String, in tx: Transaction) async throws {}

    func run() async throws {
        try await gracefulShutdown()
    }
}
