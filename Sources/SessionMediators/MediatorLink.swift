import SessionConsumers
import SessionStorage

/// What every mediator does between a repository observation and its consumer.
///
/// It observes, carries values to the main queue through a
/// ``MainQueueConsolidator``, turns each into what the consumer shows, drops a
/// value that shows the same as the last one pushed, pushes the first one as a
/// configuration and later ones as updates, tells the consumer once if the
/// observation fails (then stops), and stops for good on ``disconnect()``: after
/// it returns, the consumer is not called again. The consumer is held weakly;
/// if it goes away, the link disconnects.
@MainActor
final class MediatorLink<Value: Sendable, Shown: Equatable, Consumer> {
    /// How the mediator talks to its consumer.
    struct Pushes {
        var configure: @MainActor (Consumer, Shown) -> Void
        var update: @MainActor (Consumer, _ previous: Shown, _ current: Shown) -> Void
        var unavailable: @MainActor (Consumer, Unavailability) -> Void
    }

    /// The consumer, weakly (`Consumer` is a class-bound protocol's existential).
    private weak var consumerObject: AnyObject?
    private var observation: (any StoreObservation)?
    private var shown: Shown?
    private let present: @MainActor (Value) -> Shown
    private let pushes: Pushes

    /// Starts `observe` and pushes what `present` makes of each value.
    init(
        consumer: Consumer,
        observe: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> any StoreObservation,
        present: @escaping @MainActor (Value) -> Shown,
        pushes: Pushes
    ) {
        consumerObject = consumer as AnyObject
        self.present = present
        self.pushes = pushes
        let consolidator = MainQueueConsolidator<Value> { [weak self] result in self?.receive(result) }
        observation = observe { consolidator.receive($0) }
    }

    /// Whether the link still observes and pushes.
    var isConnected: Bool { observation != nil }

    /// Stops the observation: once this returns, the consumer is not called again.
    func disconnect() {
        let observation = self.observation
        self.observation = nil
        consumerObject = nil
        observation?.cancel()
    }

    /// Main queue: pushes what changed since the last push, if anything.
    private func receive(_ result: Result<Value, any Error>) {
        guard isConnected else { return }
        guard let consumer = consumerObject as? Consumer else { return disconnect() }
        switch result {
        case .success(let value):
            let current = present(value)
            if let previous = shown {
                guard current != previous else { return }
                shown = current
                pushes.update(consumer, previous, current)
            } else {
                shown = current
                pushes.configure(consumer, current)
            }
        case .failure(let error):
            disconnect()
            pushes.unavailable(consumer, Unavailability(error))
        }
    }
}
