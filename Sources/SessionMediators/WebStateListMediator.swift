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
/// The strip and its diff from the previous one are made off the main queue,
/// in proportion to the change: tabs that kept their place are compared through
/// the model and only those that differ are made again, so one tab's change to a
/// 100,000-tab strip does not rebuild the strip. The main queue only calls the consumer.
///
/// Consolidation: the repository reports each committed transaction once,
/// so a batch (one ``WebStateListRepository/update(_:_:)``) is one update.
/// Values that arrive while the main queue is busy are coalesced into one
/// update per main-queue turn, carrying the last of them, and a storm of
/// changes is paced (33 ms between updates, doubling up to 400 ms while the
/// storm lasts, so 1,000 commits reach the consumer as a handful of updates;
/// a change 66 ms or more after the one before it is not delayed); a value that shows
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
    private let link: MediatorLink<WebStateListSnapshot, TabStripSnapshot, TabStripDiff, any WebStateListConsumer>

    /// Starts observing `browser` for `consumer`; the consumer's first call comes on a later main-queue turn.
    ///
    /// - Parameters:
    ///   - browser: The browser whose tabs to show.
    ///   - tabs: The tab-list repository to observe.
    ///   - consumer: The tab strip; held weakly.
    public init(browser: BrowserID, tabs: any WebStateListRepository, consumer: any WebStateListConsumer) {
        link = MediatorLink(
            consumer: consumer,
            observe: { tabs.observe(browser, onChange: $0) },
            present: { TabStripSnapshot($0) },
            change: { TabStripDiff.between($0.items, $1.items) },
            advance: { previous, shown, value in
                TabStripSnapshot.advancing(from: previous, shown: shown, to: value).map {
                    ($0.strip, $0.diff.isEmpty ? nil : $0.diff)
                }
            },
            pushes: .init(
                configure: { $0.configure(with: $1) },
                update: { $0.update(to: $1, diff: $2) },
                unavailable: { $0.tabStripBecameUnavailable($1) }))
    }

    /// Whether the mediator still observes and pushes.
    public var isConnected: Bool { link.isConnected }

    /// Stops the observation: once this returns, the consumer is not called again.
    public func disconnect() {
        link.disconnect()
    }
}
