import Dispatch
import Synchronization

/// Carries values observed on any queue to the main queue, consolidated.
///
/// ``receive(_:)`` may be called on any queue, once per committed change. It
/// keeps only the latest value and schedules one main-queue block if none is
/// pending; that block hands the latest value to `deliver`. So a burst that
/// arrives while the main queue is busy reaches `deliver` once, with the last
/// value, and `deliver` runs at most once per main-queue turn.
///
/// Threading: `deliver` runs on the main queue, isolated to the main actor.
/// The consolidator holds no reference to its mediator beyond what `deliver`
/// captures (weakly, by convention), so a pending block never keeps one alive.
final class MainQueueConsolidator<Value: Sendable>: Sendable {
    private struct State {
        var pending: Result<Value, any Error>?
        var scheduled = false
    }

    private let state = Mutex(State())
    private let deliver: @MainActor @Sendable (Result<Value, any Error>) -> Void

    /// Creates a consolidator that hands values to `deliver` on the main queue.
    init(deliver: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void) {
        self.deliver = deliver
    }

    /// Records `result` as the latest value; schedules a main-queue delivery unless one is pending.
    func receive(_ result: Result<Value, any Error>) {
        let schedule = state.withLock { state -> Bool in
            state.pending = result
            guard !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        guard schedule else { return }
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated { flush() }
        }
    }

    /// Runs on the main queue: delivers the latest value, if any.
    @MainActor
    private func flush() {
        let latest = state.withLock { state -> Result<Value, any Error>? in
            state.scheduled = false
            defer { state.pending = nil }
            return state.pending
        }
        if let latest { deliver(latest) }
    }
}
