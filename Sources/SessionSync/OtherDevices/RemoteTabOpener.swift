import Foundation
import SessionModel
import SessionStorage

/// "Open this tab here": puts another device's tab, with the navigations its
/// record carries, into a local browser through the repositories, so the
/// browser's mediators show it like any new tab.
public struct RemoteTabOpener: Sendable {
    private let sync: SyncStorage
    private let tabs: any WebStateListRepository
    private let histories: any NavigationHistoryRepository

    /// An opener over the store's sync storage and repositories.
    public init(sync: SyncStorage, tabs: any WebStateListRepository, histories: any NavigationHistoryRepository) {
        self.sync = sync
        self.tabs = tabs
        self.histories = histories
    }

    /// Opens the remote tab `recordID` (``RemoteTab/id``, or a recently closed
    /// one's ``RemoteClosedTab/id``) in `browser` as a new tab.
    ///
    /// The tab is inserted on its current page in one transaction, then its back
    /// and forward pages are added in a second; a crash between the two leaves
    /// the tab on its current page.
    ///
    /// - Returns: The new tab's id.
    /// - Throws: ``StorageError/unknownTab(_:)`` when no remote tab has that id,
    ///   ``StorageError/unknownBrowser(_:)``, `WebStateListError`.
    @discardableResult
    public func open(_ recordID: String, in browser: BrowserID, params: InsertionParams = .automatic().activate())
        async throws -> WebStateID
    {
        let navigations: [SyncedNavigation]
        let current: Int?
        switch try sync.remoteRecord(recordID) {
        case .tab(let tab)?:
            (navigations, current) = (tab.navigations, tab.current)
        case .closed(let closed)?:
            (navigations, current) = (closed.navigations, closed.current)
        default:
            throw StorageError.unknownTab(recordID)
        }
        let items = navigations.map(\.navigationItem)
        guard let index = current, items.indices.contains(index) else { throw StorageError.unknownTab(recordID) }
        let webState = WebState()
        try await tabs.insert(webState, in: browser, params: params, navigatingTo: items[index])
        if items.count > 1 {
            let history = try NavigationHistory(items: items, currentIndex: index)
            try await histories.update(webState.id) { $0 = history }
        }
        return webState.id
    }
}

extension SyncedNavigation {
    /// The history entry this synced navigation stands for (its title cut to the store's limit).
    var navigationItem: NavigationItem {
        NavigationItem(
            url: url, virtualURL: virtualURL, title: String(title.prefix(NavigationLimits.maximumTitleLength)),
            timestamp: Date(timeIntervalSince1970: Double(time) / 1000), faviconURL: faviconURL)
    }
}
