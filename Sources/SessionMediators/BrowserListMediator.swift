import SessionConsumers
import SessionModel
import SessionStorage

/// Pushes the store's windows, with their tab counts and active tabs, into a ``BrowserListConsumer``.
///
/// Created with the one repository it needs and its consumer, it observes the
/// browser summaries and pushes, on the main queue only: the full list first,
/// then each change with the diff from the previous list. Consolidation,
/// lifetime and failure are as for ``WebStateListMediator``.
@MainActor
public final class BrowserListMediator {
    private weak var consumer: (any BrowserListConsumer)?
    private var observation: (any StoreObservation)?
    private var shown: BrowserListSnapshot?

    /// Starts observing the store's browsers for `consumer`; the consumer's first call comes on a later main-queue turn.
    ///
    /// - Parameters:
    ///   - browsers: The browser repository to observe.
    ///   - consumer: The window list; held weakly.
    public init(browsers: any BrowserRepository, consumer: any BrowserListConsumer) {
        self.consumer = consumer
        let consolidator = MainQueueConsolidator<[BrowserSummary]> { [weak self] result in
            self?.receive(result)
        }
        observation = browsers.observeBrowsers { consolidator.receive($0) }
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
    private func receive(_ result: Result<[BrowserSummary], any Error>) {
        guard isConnected else { return }
        guard let consumer else { return disconnect() }
        switch result {
        case .success(let summaries):
            let list = BrowserListSnapshot(items: summaries.map(BrowserItem.init))
            if let shown {
                guard list != shown else { return }
                let diff = BrowserListDiff.between(shown.items, list.items)
                self.shown = list
                consumer.update(to: list, diff: diff)
            } else {
                shown = list
                consumer.configure(with: list)
            }
        case .failure(let error):
            disconnect()
            consumer.browserListBecameUnavailable(Unavailability(error))
        }
    }
}

extension BrowserItem {
    /// A window as a window list shows it.
    init(_ summary: BrowserSummary) {
        self.init(
            id: summary.browser.id, tabCount: summary.tabCount, activeTab: summary.activeTab,
            activeTitle: summary.activePage?.title ?? "",
            activeURL: summary.activePage.map { $0.virtualURL ?? $0.url },
            lastActiveAt: summary.browser.lastActiveAt, isOffTheRecord: summary.browser.isOffTheRecord)
    }
}
