import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// A ``HintBus`` over PostgreSQL `LISTEN/NOTIFY`: a commit sends
/// `pg_notify('sessionstore_hints', account_id)` inside its transaction, which
/// PostgreSQL delivers, on commit only, to every process listening.
///
/// Each process keeps one connection of its own listening. When that connection
/// is lost (PostgreSQL restarted, say) announcements may have been missed, so
/// on every (re)connection every waiting request is woken to read again.
struct PostgresHintBus: HintBus {
    /// The channel every process listens on.
    static let channel = "sessionstore_hints"

    let configuration: PostgresConnection.Configuration
    let notifier: ChangeNotifier
    let logger: Logger

    func announce(accountID: String, in tx: Transaction) async throws {
        try await tx.query("SELECT pg_notify(\(Self.channel), \(accountID))")
    }

    func run() async throws {
        var failures = 0
        var connectionID = 1
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let started = ContinuousClock.now
            do {
                let id = connectionID
                try await cancelWhenGracefulShutdown { try await listenOnce(id: id) }
            } catch is CancellationError {
                return
            } catch {
                if Task.isCancelled || Task.isShuttingDownGracefully { return }
                // A connection that listened a while starts the backoff again.
                failures = ContinuousClock.now - started > .seconds(5) ? 1 : failures + 1
                logger.warning("hint listener lost its connection", metadata: [
                    "error": "\(String(reflecting: error))", "failures": "\(failures)",
                ])
            }
            connectionID += 1
            // Whatever was announced while no connection listened is unknown: read again.
            await notifier.wakeAll()
            try? await Task.sleep(for: .milliseconds(min(2_000, 100 * failures)))
        }
    }

    private func listenOnce(id: Int) async throws {
        let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
        defer { Task { try? await connection.close() } }
        try await connection.listen(on: Self.channel) { notifications in
            logger.debug("hint listener connected")
            await notifier.wakeAll()
            for try await notification in notifications {
                await notifier.notify(accountID: notification.payload)
            }
        }
    }
}
