import Dispatch
import Foundation
internal import GRDB
import SessionModel

/// Notices commits made to a store file by other processes.
///
/// GRDB's observation sees only this process's writes. While anyone is
/// subscribed, a timer reads `PRAGMA data_version` on a connection of its own
/// every ``StoreObservationDelivery/externalChangeLatency`` seconds; the value
/// moves whenever another connection (another process, or this process's
/// writer) commits, and subscribers then refetch. Nothing runs while no one
/// is subscribed.
final class ExternalChangeMonitor: @unchecked Sendable {
    /// A subscription; ``cancel()`` ends it.
    final class Subscription: Sendable {
        private let monitor: ExternalChangeMonitor
        private let id: UUID

        fileprivate init(monitor: ExternalChangeMonitor, id: UUID) {
            self.monitor = monitor
            self.id = id
        }

        func cancel() {
            monitor.unsubscribe(id)
        }
    }

    private let path: String
    private let configuration: GRDB.Configuration
    private let queue = DispatchQueue(label: "sessionstore.external-changes")
    private let subscribers = Protected<[UUID: @Sendable () -> Void]>([:])
    // Confined to `queue`.
    nonisolated(unsafe) private var timer: (any DispatchSourceTimer)?
    nonisolated(unsafe) private var connection: DatabaseQueue?
    nonisolated(unsafe) private var version: Int?
    nonisolated(unsafe) private var stopped = false

    init(path: String, configuration: GRDB.Configuration) {
        self.path = path
        self.configuration = configuration
    }

    /// Calls `handler` (on a private queue) after another connection commits.
    ///
    /// The data version is read before this returns (when no one was listening),
    /// so a subscriber that fetches after subscribing sees every commit made
    /// before its fetch, and is called for every one after the reading.
    func subscribe(_ handler: @escaping @Sendable () -> Void) -> Subscription {
        let id = UUID()
        subscribers.withLock { $0[id] = handler }
        queue.sync { self.update() }
        return Subscription(monitor: self, id: id)
    }

    private func unsubscribe(_ id: UUID) {
        subscribers.withLock { $0[id] = nil }
        queue.async { self.update() }
    }

    /// Runs on `queue`: starts the timer when someone listens, stops it when no one does.
    /// The store closed: stops polling, closes the monitor's connection, and
    /// tells every subscriber once, so each observation reads, finds the store
    /// closed, and ends.
    func stop() {
        let handlers = queue.sync { () -> [@Sendable () -> Void] in
            stopped = true
            timer?.cancel()
            timer = nil
            connection = nil
            version = nil
            return subscribers.withLock { Array($0.values) }
        }
        for handler in handlers { handler() }
    }

    private func update() {
        guard !stopped else { return }
        let listening = subscribers.withLock { !$0.isEmpty }
        if listening, timer == nil {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let interval = StoreObservationDelivery.externalChangeLatency
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
            timer.setEventHandler { [weak self] in self?.tick(baseline: false) }
            self.timer = timer
            tick(baseline: true)  // the starting version, before the subscriber's first fetch
            timer.resume()
        } else if !listening, let timer {
            timer.cancel()
            self.timer = nil
            connection = nil
            version = nil
        }
    }

    /// Runs on `queue`: compares the data version with the last one seen. The
    /// `baseline` reading, taken as the first subscriber subscribes, tells no one.
    private func tick(baseline: Bool) {
        if connection == nil {
            connection = try? DatabaseQueue(path: path, configuration: configuration)
        }
        guard let connection,
              let current = try? connection.inDatabase({ try Int.fetchOne($0, sql: "PRAGMA data_version") })
        else { return }
        defer { version = current }
        if baseline { return }
        // A first reading that is not the baseline (the baseline could not be read)
        // may follow a commit the subscribers' first fetches missed: they fetch again
        // (an unchanged value is dropped downstream).
        if let previous = version, previous == current { return }
        for handler in subscribers.withLock({ Array($0.values) }) { handler() }
    }
}
