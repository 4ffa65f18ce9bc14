import SessionConsumers
import SessionModel
import SessionStorage

/// Pushes one browser's tab strip into a ``WebStateListConsumer``.
///
/// Created with the one repository it needs and its consumer, it observes the
/// browser's list and pushes, on the main queue only: the full strip first
/// (``WebStateListConsumer/configure(with:)``), then one update per change of
/// what the strip shows, with the diff from the previous strip.
///
/// Consolidation: the repository reports each committed transaction once,
/// so a batch (one ``WebStateListRepository/update(_:_:)``) is one update.
/// Values that arrive while the main queue is busy are coalesced into one
/// update per main-queue turn, carrying the last of them, and a burst from
/// another thread is paced to one update per 33 ms; a value that shows
/// the same strip as the last one pushed (a repeated initial value, or a
/// change the strip does not show, such as an opener) is not pushed.
///
/// Lifetime: the consumer is held weakly. ``disconnect()``, releasing the
/// mediator, or the consumer going away stops the observation; after
/// `disconnect()` returns the consumer is not called again. If the browser is
/// closed or the store fails, the consumer is told once
/// (``WebStateListConsumer/tabStripBecameUnavailable(_:)``) and the mediator disconnects.
///
///     let mediator = WebStateListMediator(browser: id, tabs: tabs, consumer: tabStripViewController)
///     // … later
///     mediator.disconnect()
@MainActor
public final class WebStateListMediator {
    private weak var consumer: (any WebStateListConsumer)?
    private var observation: (any StoreObservation)?
    private var shown: TabStripSnapshot?

    /// Starts observing `browser` for `consumer`; the consumer's first call comes on a later main-queue turn.
    ///
    /// - Parameters:
    ///   - browser: The browser whose tabs to show.
    ///   - tabs: The tab-list repository to observe.
    ///   - consumer: The tab strip; held weakly.
    public init(browser: BrowserID, tabs: any WebStateListRepository, consumer: any WebStateListConsumer) {
        self.consumer = consumer
        let consolidator = MainQueueConsolidator<WebStateListSnapshot> { [weak self] result in
            self?.receive(result)
        }
        observation = tabs.observe(browser) { consolidator.receive($0) }
    }

    /// Whether the mediator still observes and pushes.
    public var isConnected: Bool { observation != nil }

    /// Stops the observation: once this returns, the consumer is not called again.
    public func disconnect() {
        let observation = self.observation
        self.observation = nil
        consumer = nil
        observation?.cancel()
    }

    /// Main queue: pushes what changed since the last push, if anything.
    private func receive(_ result: Result<WebStateListSnapshot, any Error>) {
        guard isConnected else { return }
        guard let consumer else { return disconnect() }
        switch result {
        case .success(let value):
            let strip = TabStripSnapshot(value)
            if let shown {
                guard strip != shown else { return }
                let diff = TabStripDiff.between(shown.items, strip.items)
                self.shown = strip
                consumer.update(to: strip, diff: diff)
            } else {
                shown = strip
                consumer.configure(with: strip)
            }
        case .failure(let error):
            disconnect()
            consumer.tabStripBecameUnavailable(Unavailability(error))
        }
    }
}
