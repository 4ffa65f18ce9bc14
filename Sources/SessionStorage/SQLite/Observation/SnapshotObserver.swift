import Dispatch
import Foundation
internal import GRDB
import SessionModel

/// Observes one value fetched from the store, coalescing commits.
///
/// A `DatabaseRegionObservation` says, cheaply and right after each commit of
/// this process that touches the observed tables, that the value may have
/// changed; `PRAGMA data_version` (``ExternalChangeMonitor``) says the same for
/// other processes. Either marks the value dirty and, unless a fetch is already
/// under way, starts one on the observation's serial queue, reading from the
/// pool (beside the writer, never blocking it). Commits that land during a
/// fetch cause one more fetch, not one each: a burst of commits costs a few
/// fetches, whatever the size of the value. Values reach `onChange` in order,
/// each newer than the last; a value equal to the last one is dropped (this
/// also absorbs GRDB's doubled initial value on Linux).
///
/// ``cancel()`` waits for a delivery under way (unless called from one), so
/// once it returns `onChange` is not called again.
final class SnapshotObserver<Value: Sendable & Equatable>: StoreObservation {
    private struct State {
        var last: Value?
        var cancelled = false
        var dirty = false
        var fetching = false
        var cancellable: AnyDatabaseCancellable?
        var monitor: ExternalChangeMonitor.Subscription?
    }

    private let state = Protected(State())
    private let queue = DispatchQueue(label: "sessionstore.observation")
    private let onQueue = DispatchSpecificKey<Bool>()
    private let database: SessionDatabase
    private let fetch: @Sendable (Database) throws -> Value
    private let isSame: @Sendable (Value, Value) -> Bool
    private let onChange: @Sendable (Result<Value, any Error>) -> Void

    /// Starts observing.
    ///
    /// - Parameters:
    ///   - tables: The tables whose changes may change the value.
    ///   - fetch: Reads the value (in a read transaction).
    ///   - isSame: Whether a value shows the same as the last one (by default, equality).
    init(
        database: SessionDatabase, tables: [String], fetch: @escaping @Sendable (Database) throws -> Value,
        isSame: @escaping @Sendable (Value, Value) -> Bool = { $0 == $1 },
        onChange: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        self.database = database
        self.fetch = fetch
        self.isSame = isSame
        self.onChange = onChange
        queue.setSpecific(key: onQueue, value: true)
        // A closed store has no connection to observe: say so, as every other call does.
        guard !database.isClosed else {
            fail(StorageError.closed(path: database.displayPath))
            return
        }
        let region = DatabaseRegionObservation(tracking: tables.map { Table($0) })
        let cancellable = region.start(
            in: database.writer,
            onError: { [weak self] error in self?.fail(error) },
            onChange: { [weak self] _ in self?.markDirty() })
        let monitor = database.externalChanges?.subscribe { [weak self] in self?.markDirty() }
        state.withLock {
            $0.cancellable = cancellable
            $0.monitor = monitor
        }
        markDirty()  // the initial value
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

    /// Any queue: the value may have changed; fetch it unless a fetch will run anyway.
    private func markDirty() {
        let start = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.dirty = true
            guard !state.fetching else { return false }
            state.fetching = true
            return true
        }
        if start { queue.async { [weak self] in self?.fetchWhileDirty() } }
    }

    /// Runs on `queue`: fetches until no commit arrived during the last fetch.
    private func fetchWhileDirty() {
        while true {
            let proceed = state.withLock { state -> Bool in
                guard !state.cancelled, state.dirty else {
                    state.fetching = false
                    return false
                }
                state.dirty = false
                return true
            }
            guard proceed else { return }
            deliver(Result {
                do {
                    try database.checkOpen()
                    return try database.writer.read(fetch)
                } catch {
                    throw StorageError(error, path: database.path ?? ":memory:", operation: "reading")
                }
            })
        }
    }

    private func fail(_ error: any Error) {
        // A store closed under the observation fails GRDB's observer in SQLite's words
        // ("out of memory", from a connection that is gone): it is closed.
        let error = database.isClosed
            ? StorageError.closed(path: database.displayPath)
            : StorageError(error, path: database.displayPath, operation: "observing")
        queue.async { [weak self] in self?.deliver(.failure(error)) }
    }

    /// Runs on `queue`: forwards a value unless it repeats the last one or the observation was cancelled.
    private func deliver(_ result: Result<Value, any Error>) {
        let forward = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            if case .success(let value) = result {
                if let last = state.last, isSame(last, value) { return false }
                state.last = value
            }
            return true
        }
        guard forward else { return }
        // A concurrent cancel() waits for this call to return (queue.sync).
        onChange(result)
    }
}
