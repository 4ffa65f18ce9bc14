import Dispatch
import Foundation
import GRDB
import Synchronization

/// Observes one value fetched from the store: GRDB's ValueObservation for
/// this process's commits, and `PRAGMA data_version` for other processes'.
///
/// GRDB on Linux delivers a pool's initial value twice and cannot see other
/// processes' writes; this type drops repeated values and refetches when the
/// file's data version moves. Values reach `onChange` on one serial queue.
final class SnapshotObserver<Value: Sendable & Equatable>: StoreObservation {
    private struct State {
        var last: Value?
        var cancelled = false
        var cancellable: AnyDatabaseCancellable?
        var monitor: ExternalChangeMonitor.Subscription?
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "sessionstore.observation")
    private let onQueue = DispatchSpecificKey<Bool>()
    private let onChange: @Sendable (Result<Value, any Error>) -> Void

    init(
        database: SessionDatabase, fetch: @escaping @Sendable (Database) throws -> Value,
        onChange: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        self.onChange = onChange
        queue.setSpecific(key: onQueue, value: true)
        let observation = ValueObservation.tracking(fetch)
        let cancellable = observation.start(
            in: database.writer, scheduling: .async(onQueue: queue),
            onError: { [weak self] error in self?.deliver(.failure(error)) },
            onChange: { [weak self] value in self?.deliver(.success(value)) })
        let monitor = database.externalChanges?.subscribe { [weak self] in
            self?.refetch(database: database, fetch: fetch)
        }
        state.withLock {
            $0.cancellable = cancellable
            $0.monitor = monitor
        }
    }

    deinit {
        cancel()
    }

    func cancel() {
        let (cancellable, monitor) = state.withLock { state in
            state.cancelled = true
            defer {
                state.cancellable = nil
                state.monitor = nil
            }
            return (state.cancellable, state.monitor)
        }
        cancellable?.cancel()
        monitor?.cancel()
        // Wait for a delivery already under way, unless called from one.
        if DispatchQueue.getSpecific(key: onQueue) == nil {
            queue.sync {}
        }
    }

    /// Fetches anew after another process's commit.
    ///
    /// The fetch runs on the writer, like GRDB's own fetches after this
    /// process's commits, so values are queued for delivery in commit order.
    private func refetch(database: SessionDatabase, fetch: @escaping @Sendable (Database) throws -> Value) {
        let result = Result { try database.writer.write(fetch) }
        queue.async { [weak self] in self?.deliver(result) }
    }

    /// Runs on `queue`: forwards a value unless it repeats the last one or the observation was cancelled.
    private func deliver(_ result: Result<Value, any Error>) {
        let forward = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            if case .success(let value) = result {
                if state.last == value { return false }
                state.last = value
            }
            return true
        }
        guard forward else { return }
        // A concurrent cancel() waits for this call to return (queue.sync).
        onChange(result)
    }
}
