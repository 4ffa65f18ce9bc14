import Dispatch
import SessionModel

/// Carries values observed on any queue to the main queue, consolidated.
///
/// ``receive(_:)`` may be called on any queue, once per committed change. It
/// keeps only the latest value and schedules one main-queue block if none is
/// pending; that block hands the latest value to `deliver`. So values that
/// arrive while the main queue is busy reach `deliver` once, with the last of
/// them, and `deliver` runs at most once per main-queue turn.
///
/// A burst from another thread, faster than the main queue's turns, is paced
/// too: a value that follows a delivery by less than the current interval waits
/// for the end of that interval (the last value always arrives). The interval
/// starts at ``minimumInterval`` (one frame at 30 Hz) and doubles with each
/// delivery of a burst, up to ``maximumInterval``, so a long burst reaches the
/// consumer as a handful of updates; after ``quietPeriod`` without a delivery
/// the burst is over. A lone change is delivered on the next turn, without delay.
///
/// Threading: `deliver` runs on the main queue, isolated to the main actor.
/// The consolidator holds no reference to its mediator beyond what `deliver`
/// captures (weakly, by convention), so a pending block never keeps one alive.
final class MainQueueConsolidator<Value: Sendable>: Sendable {
    /// The shortest time between two deliveries during a burst: one display frame at 30 Hz.
    static var minimumInterval: Duration { .milliseconds(33) }
    /// The longest time between two deliveries during a long burst.
    static var maximumInterval: Duration { .milliseconds(400) }
    /// How long without a delivery ends a burst.
    static var quietPeriod: Duration { .milliseconds(500) }

    private struct State {
        var pending: Result<Value, any Error>?
        var scheduled = false
        var lastDelivery: ContinuousClock.Instant?
        var interval = MainQueueConsolidator.minimumInterval
        var paced = false
    }

    private let state = Protected(State())
    private let deliver: @MainActor @Sendable (Result<Value, any Error>) -> Void

    /// Creates a consolidator that hands values to `deliver` on the main queue.
    init(deliver: @escaping @MainActor @Sendable (Result<Value, any Error>) -> Void) {
        self.deliver = deliver
    }

    /// Records `result` as the latest value; schedules a main-queue delivery unless one is pending.
    func receive(_ result: Result<Value, any Error>) {
        let delay = state.withLock { state -> Duration? in
            state.pending = result
            guard !state.scheduled else { return nil }
            state.scheduled = true
            guard let last = state.lastDelivery else { return .zero }
            let quiet = last.duration(to: .now)
            if quiet >= max(state.interval * 2, Self.quietPeriod) {
                // The burst is over (or there was none): deliver now, at the shortest interval.
                state.interval = Self.minimumInterval
                state.paced = false
                return .zero
            }
            state.paced = true
            return max(.zero, state.interval - quiet)
        }
        guard let delay else { return }
        if delay == .zero {
            DispatchQueue.main.async { [self] in
                MainActor.assumeIsolated { flush() }
            }
        } else {
            let (seconds, attoseconds) = delay.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                MainActor.assumeIsolated { flush() }
            }
        }
    }

    /// Runs on the main queue: delivers the latest value, if any.
    @MainActor
    private func flush() {
        let latest = state.withLock { state -> Result<Value, any Error>? in
            state.scheduled = false
            state.lastDelivery = .now
            if state.paced { state.interval = min(state.interval * 2, Self.maximumInterval) }
            defer { state.pending = nil }
            return state.pending
        }
        if let latest { deliver(latest) }
    }
}
