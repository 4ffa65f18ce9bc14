import SessionConsumers
import SessionModel
import SessionStorage

/// Pushes one tab's back/forward state into a ``NavigationHistoryConsumer``.
///
/// Created with the one repository it needs and its consumer, it observes the
/// tab's history and pushes, on the main queue only: the full state first,
/// then the new state whenever what the consumer shows changes. Consolidation,
/// lifetime and failure are as for ``WebStateListMediator``: at most one push
/// per committed transaction and per main-queue turn, the last state always
/// pushed, an unchanged state never pushed twice, nothing after ``disconnect()``
/// returns, and the consumer held weakly.
@MainActor
public final class NavigationHistoryMediator {
    private let link: MediatorLink<NavigationHistory, NavigationHistoryState, Void, any NavigationHistoryConsumer>

    /// Starts observing `tab`'s history for `consumer`; the consumer's first call comes on a later main-queue turn.
    ///
    /// - Parameters:
    ///   - tab: The tab whose history to show.
    ///   - histories: The history repository to observe.
    ///   - consumer: The back/forward UI; held weakly.
    public init(tab: WebStateID, histories: any NavigationHistoryRepository, consumer: any NavigationHistoryConsumer) {
        link = MediatorLink(
            consumer: consumer,
            observe: { histories.observe(tab, onChange: $0) },
            present: { NavigationHistoryState(tab: tab, history: $0) },
            change: { _, _ in },
            pushes: .init(
                configure: { $0.configure(with: $1) },
                update: { consumer, current, _ in consumer.update(to: current) },
                unavailable: { $0.historyBecameUnavailable($1) }))
    }

    /// Whether the mediator still observes and pushes.
    public var isConnected: Bool { link.isConnected }

    /// Stops the observation: once this returns, the consumer is not called again.
    public func disconnect() {
        link.disconnect()
    }
}

extension NavigationHistoryState {
    /// What back/forward UI shows of a history.
    init(tab: WebStateID, history: NavigationHistory) {
        let entries = history.items.enumerated().map { index, item in
            NavigationEntryItem(
                index: index, title: item.title, url: item.virtualURL ?? item.url, faviconURL: item.faviconURL,
                timestamp: item.timestamp)
        }
        guard let current = history.currentIndex else {
            self.init(tab: tab)
            return
        }
        self.init(
            tab: tab, current: entries[current], back: entries[..<current].reversed(),
            forward: Array(entries[(current + 1)...]))
    }
}
