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
/// A storm (an import, another process's batch: changes closer together
/// than ``DeliveryPacing/Bounds/userPace``) is paced too, by ``DeliveryPacing``: a
/// value that follows a delivery by less than the current interval waits for
/// the end of that interval (the last value always arrives), and the interval
/// doubles with each delivery of the storm, so a long one reaches the consumer
/// as a handful of updates. The user's own steady actions (a tab closed every
/// 100 ms, say) are not a storm: a value that comes after a pause is delivered
/// on the next turn, without delay.
///
/// Threading: `prepare` runs on the consolidator's serial queue, one value at a
/// time, in order; `deliver` runs on the main queue, isolated to the main actor.
/// The consolidator holds no reference to its mediator beyond what `deliver`
/// captures (weakly, by convention), so a pending block never keeps one alive.
final class MainQueueConsolidator<Value: Sendable, Prepared: Sendable>: Sendable {
    private struct State {
        var pending: Result<Value, any Error>?
        /// A delivery is scheduled, being prepared, or waiting for the main queue.
        var scheduled = false
        /// The scheduled delivery waits for the end of a paced interval (not yet preparing).
        var waiting = false
        /// Tells the scheduled delivery from one it replaced, which then does nothing.
        var generation = 0
        var pacing = DeliveryPacing()
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
        let next = state.withLock { state -> (Duration, Int)? in
            state.pending = result
            let alone = state.pacing.arrived(at: .now)
            if state.scheduled {
                // A delivery waits out a storm's interval; the user's own action ends the wait.
                guard state.waiting, alone else { return nil }
            }
            state.scheduled = true
            return Self.next(&state)
        }
        if let next { schedule(after: next.0, generation: next.1) }
    }

    /// The delay of the next delivery, and its generation (which replaces any scheduled before).
    private static func next(_ state: inout State) -> (Duration, Int) {
        let delay = state.pacing.delay(at: .now)
        state.generation += 1
        state.waiting = delay > .zero
        return (delay, state.generation)
    }

    private func schedule(after delay: Duration, generation: Int) {
        if delay == .zero {
            queue.async { [self] in prepareLatest(generation) }
        } else {
            let (seconds, attoseconds) = delay.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in prepareLatest(generation) }
        }
    }

    /// Runs on `queue`: prepares the latest value, then hands it to the main queue;
    /// does nothing if a later schedule replaced this one.
    private func prepareLatest(_ generation: Int) {
        let latest = state.withLock { state -> Result<Value, any Error>?? in
            guard state.generation == generation else { return .none }
            state.waiting = false
            state.pacing.delivering(at: .now)
            defer { state.pending = nil }
            return .some(state.pending)
        }
        guard case .some(let pending) = latest else { return }  // replaced
        guard let pending, let prepared = prepare(pending) else { return finished() }
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated {
                deliver(prepared)
                finished()
            }
        }
    }

    /// A delivery ended: the next value that arrived meanwhile, if any, is scheduled.
    private func finished() {
        let next = state.withLock { state -> (Duration, Int)? in
            guard state.pending != nil else {
                state.scheduled = false
                return nil
            }
            return Self.next(&state)
        }
        if let next { schedule(after: next.0, generation: next.1) }
    }
}
