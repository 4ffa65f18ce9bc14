import Dispatch
import SessionModel

/// Carries values observed on any queue to the main queue, consolidated, and
/// prepares each off the main queue first.
///
/// ``receive(_:)`` may be called on any queue, once per committed change. It
/// keeps only the latest value and, unless a delivery is already under way,
/// schedules one: on a private serial queue, `prepare` turns the latest value
/// into what the main queue needs (the work in proportion to the value: what a
/// consumer shows and the diff from what it showed), then one main-queue block
/// hands that to `deliver`. Values that arrive meanwhile wait for the next
/// delivery, so at most one block is ever pending on the main queue and
/// `deliver` gets the last of the values that arrived while the main queue was busy.
///
/// A burst from another thread, faster than the main queue's turns, is paced
/// too: a value that follows a delivery by less than the current interval waits
/// for the end of that interval (the last value always arrives). The interval
/// starts at ``minimumInterval`` (one frame at 30 Hz) and doubles with each
/// delivery of a burst, up to ``maximumInterval``, so a long burst reaches the
/// consumer as a handful of updates; after ``quietPeriod`` without a delivery
/// the burst is over. A lone change is delivered on the next turn, without delay.
///
/// Threading: `prepare` runs on the consolidator's serial queue, one value at a
/// time, in order; `deliver` runs on the main queue, isolated to the main actor.
/// The consolidator holds no reference to its mediator beyond what `deliver`
/// captures (weakly, by convention), so a pending block never keeps one alive.
final class MainQueueConsolidator<Value: Sendable, Prepared: Sendable>: Sendable {
    /// The shortest time between two deliveries during a burst: one display frame at 30 Hz.
    static var minimumInterval: Duration { .milliseconds(33) }
    /// The longest time between two deliveries during a long burst.
    static var maximumInterval: Duration { .milliseconds(400) }
    /// How long without a delivery ends a burst.
    static var quietPeriod: Duration { .milliseconds(500) }

    private struct State {
        var pending: Result<Value, any Error>?
        /// A delivery is scheduled, being prepared, or waiting for the main queue.
        var scheduled = false
        var lastDelivery: ContinuousClock.Instant?
        var interval = MainQueueConsolidator.minimumInterval
        var paced = false
    }

    private let state = Protected(State())
    private let queue = DispatchQueue(label: "sessionstore.mediator.prepare")
    private let prepare: @Sendable (Result<Value, any Error>) -> Prepared?
    private let deliver: @MainActor @Sendable (Prepared) -> Void

    /// Creates a consolidator that prepares values off the main queue (`nil`: nothing to
    /// deliver) and hands them to `deliver` on the main queue.
    init(
        prepare: @escaping @Sendable (Result<Value, any Error>) -> Prepared?,
        deliver: @escaping @MainActor @Sendable (Prepared) -> Void
    ) {
        self.prepare = prepare
        self.deliver = deliver
    }

    /// Records `result` as the latest value; schedules a delivery unless one is under way.
    func receive(_ result: Result<Value, any Error>) {
        let delay = state.withLock { state -> Duration? in
            state.pending = result
            guard !state.scheduled else { return nil }
            state.scheduled = true
            return Self.delay(&state)
        }
        if let delay { schedule(after: delay) }
    }

    /// How long the next delivery waits: none after a quiet period, else the rest of the interval.
    private static func delay(_ state: inout State) -> Duration {
        guard let last = state.lastDelivery else { return .zero }
        let quiet = last.duration(to: .now)
        if quiet >= max(state.interval * 2, quietPeriod) {
            // The burst is over (or there was none): deliver now, at the shortest interval.
            state.interval = minimumInterval
            state.paced = false
            return .zero
        }
        state.paced = true
        return max(.zero, state.interval - quiet)
    }

    private func schedule(after delay: Duration) {
        if delay == .zero {
            queue.async { [self] in prepareLatest() }
        } else {
            let (seconds, attoseconds) = delay.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in prepareLatest() }
        }
    }

    /// Runs on `queue`: prepares the latest value, then hands it to the main queue.
    private func prepareLatest() {
        let latest = state.withLock { state -> Result<Value, any Error>? in
            state.lastDelivery = .now
            if state.paced { state.interval = min(state.interval * 2, Self.maximumInterval) }
            defer { state.pending = nil }
            return state.pending
        }
        guard let latest, let prepared = prepare(latest) else { return finished() }
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated {
                deliver(prepared)
                finished()
            }
        }
    }

    /// A delivery ended: the next value that arrived meanwhile, if any, is scheduled.
    private func finished() {
        let delay = state.withLock { state -> Duration? in
            guard state.pending != nil else {
                state.scheduled = false
                return nil
            }
            return Self.delay(&state)
        }
        if let delay { schedule(after: delay) }
    }
}
