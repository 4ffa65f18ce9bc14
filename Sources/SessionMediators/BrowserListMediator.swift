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
    private let link: MediatorLink<[BrowserSummary], BrowserListSnapshot, BrowserListDiff, any BrowserListConsumer>

    /// Starts observing the store's browsers for `consumer`; the consumer's first call comes on a later main-queue turn.
    ///
    /// - Parameters:
    ///   - browsers: The browser repository to observe.
    ///   - consumer: The window list; held weakly.
    public init(browsers: any BrowserRepository, consumer: any BrowserListConsumer) {
        link = MediatorLink(
            consumer: consumer,
            observe: { browsers.observeBrowsers(onChange: $0) },
            present: { BrowserListSnapshot(items: $0.map(BrowserItem.init)) },
            change: { BrowserListDiff.between($0.items, $1.items) },
            pushes: .init(
                configure: { $0.configure(with: $1) },
                update: { $0.update(to: $1, diff: $2) },
                unavailable: { $0.browserListBecameUnavailable($1) }))
    }

    /// Whether the mediator still observes and pushes.
    public var isConnected: Bool { link.isConnected }

    /// Stops the observation: once this returns, the consumer is not called again.
    public func disconnect() {
        link.disconnect()
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
