import SessionConsumers
import SessionModel
import SessionStorage

/// What every mediator does between a repository observation and its consumer.
///
/// It observes, carries values towards the main queue through a
/// ``MainQueueConsolidator``, and off the main queue turns each into what the
/// consumer shows, drops a value that shows the same as the last one, and
/// computes the change from the last one; the main queue only pushes: the first
/// value as a configuration, later ones as updates. It tells the consumer once
/// if the observation fails (then stops), and stops for good on
/// ``disconnect()``: after it returns, the consumer is not called again. The
/// consumer is held weakly; if it goes away, the link disconnects.
@MainActor
package final class MediatorLink<Value: Sendable, Shown: Equatable & Sendable, Change: Sendable, Consumer> {
    /// How the mediator talks to its consumer.
    package struct Pushes {
        package var configure: @MainActor (Consumer, Shown) -> Void
        package var update: @MainActor (Consumer, Shown, Change) -> Void
        package var unavailable: @MainActor (Consumer, Unavailability) -> Void

        package init(
            configure: @escaping @MainActor (Consumer, Shown) -> Void,
            update: @escaping @MainActor (Consumer, Shown, Change) -> Void,
            unavailable: @escaping @MainActor (Consumer, Unavailability) -> Void
        ) {
            self.configure = configure
            self.update = update
            self.unavailable = unavailable
        }
    }

    /// What the main queue pushes, prepared off it.
    private enum Push: Sendable {
        case configure(Shown)
        case update(Shown, Change)
        case failure(any Error)
    }

    /// The consumer, weakly (`Consumer` is a class-bound protocol's existential).
    private weak var consumerObject: AnyObject?
    private var observation: (any StoreObservation)?
    private let pushes: Pushes

    /// Starts `observe` and pushes what `present` makes of each value, with the
    /// `change` from the previous one; both run off the main queue.
    ///
    /// `advance`, when given, makes the next shown value and its change from the
    /// previous value and what it showed, in proportion to what changed (`nil`
    /// when it cannot); a `nil` change (nothing shows differently) is not pushed.
    package init(
        consumer: Consumer,
        observe: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> any StoreObservation,
        present: @escaping @Sendable (Value) -> Shown,
        change: @escaping @Sendable (_ previous: Shown, _ current: Shown) -> Change,
        advance: (@Sendable (_ previous: Value, _ shown: Shown, _ value: Value) -> (shown: Shown, change: Change?)?)? = nil,
        pushes: Pushes
    ) {
        consumerObject = consumer as AnyObject
        self.pushes = pushes
        // The last value and what it showed, known only to the preparation queue (one value at a time, in order).
        let last = Protected<(value: Value, shown: Shown)?>(nil)
        let consolidator = MainQueueConsolidator<Value, Push>(
            prepare: { result in
                switch result {
                case .success(let value):
                    let previous = last.withLock { $0 }
                    if let previous, let advance, let (current, step) = advance(previous.value, previous.shown, value) {
                        last.withLock { $0 = (value, current) }
                        return step.map { .update(current, $0) }
                    }
                    let current = present(value)
                    last.withLock { $0 = (value, current) }
                    guard let previous else { return .configure(current) }
                    guard previous.shown != current else { return nil }  // shows the same: nothing to push
                    return .update(current, change(previous.shown, current))
                case .failure(let error):
                    return .failure(error)
                }
            },
            deliver: { [weak self] push in self?.receive(push) })
        observation = observe { consolidator.receive($0) }
    }

    /// Whether the link still observes and pushes.
    package var isConnected: Bool { observation != nil }

    /// Stops the observation: once this returns, the consumer is not called again.
    package func disconnect() {
        let observation = self.observation
        self.observation = nil
        consumerObject = nil
        observation?.cancel()
    }

    /// Main queue: pushes what was prepared.
    private func receive(_ push: Push) {
        guard isConnected else { return }
        guard let consumer = consumerObject as? Consumer else { return disconnect() }
        switch push {
        case .configure(let shown): pushes.configure(consumer, shown)
        case .update(let shown, let change): pushes.update(consumer, shown, change)
        case .failure(let error):
            disconnect()
            pushes.unavailable(consumer, Unavailability(error))
        }
    }
}
