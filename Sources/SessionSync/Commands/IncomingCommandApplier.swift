import Foundation
import SessionModel
@_spi(SyncInternals) import SessionStorage

/// Applies commands from the account's other devices to this store, through
/// the repositories, so that the browsers' mediators show each change like any
/// other: a sent tab opens as a new tab in the window used last (a new window
/// when none is open); a close closes the named tab only while it still shows
/// the page the sender saw.
///
/// Each command applies once: its id is kept in the store once applied, and a
/// sent tab takes the command's id as its tab id, so a crash between opening it
/// and noting the id does not open it twice.
public struct IncomingCommandApplier: Sendable {
    private let sync: SyncStorage
    private let browsers: any BrowserRepository
    private let tabs: any WebStateListRepository
    private let histories: any NavigationHistoryRepository

    /// An applier over the store's sync storage and repositories.
    public init(
        sync: SyncStorage, browsers: any BrowserRepository, tabs: any WebStateListRepository,
        histories: any NavigationHistoryRepository
    ) {
        self.sync = sync
        self.browsers = browsers
        self.tabs = tabs
        self.histories = histories
    }

    /// What applying a command did.
    public enum Outcome: Sendable, Hashable {
        /// A sent tab was opened, with this id, in this browser.
        case opened(WebStateID, in: BrowserID)
        /// The named tab was closed.
        case closed(WebStateID)
        /// The named tab shows another page now, or is gone: left as it is.
        case leftAlone
        /// The command was applied before.
        case alreadyApplied
        /// The command cannot be applied here (a page the store refuses, an id
        /// that is not one): done with, so that it does not block the ones after it.
        case refused(String)
    }

    /// Applies `command` (id `id`) unless it was applied before, and notes its id.
    /// `isOwnTab` says whether a close names one of this device's tabs (its
    /// record id is the one this device publishes the tab under); one that does
    /// not is left alone.
    @discardableResult
    public func apply(_ command: SyncCommand, id: String, isOwnTab: @Sendable (SyncCloseTab) -> Bool) async throws
        -> Outcome
    {
        guard try !sync.isCommandApplied(id) else { return .alreadyApplied }
        let outcome: Outcome
        switch command {
        case .sendTab(let sent):
            outcome = try await open(sent, id: id)
        case .closeTab(let close):
            outcome = isOwnTab(close) ? try await self.close(close) : .leftAlone
        }
        try sync.markCommandApplied(id)
        return outcome
    }

    private func open(_ sent: SyncSendTab, id: String) async throws -> Outcome {
        guard let uuid = UUID(uuidString: id) else { return .refused("the command id is not a UUID") }
        let tabID = WebStateID(rawValue: uuid)
        // Opened before a crash kept its id from being noted: not again.
        if try sync.tabExists(tabID.uuidString) { return .alreadyApplied }
        // Checked before anything is written: a page the store refuses (an empty or
        // over-long URL) is done with, not retried until it expires.
        let items = (sent.navigations ?? []).map(\.navigationItem)
        let history = sent.current.flatMap { try? NavigationHistory(items: items, currentIndex: $0) }
        let page = history.map { items[$0.currentIndex ?? 0] } ?? SyncedNavigation(
            url: sent.url, title: sent.title, time: Int64(Date().timeIntervalSince1970 * 1000)).navigationItem
        do {
            _ = try NavigationHistory(items: [page], currentIndex: 0)
        } catch {
            return .refused("the page cannot be opened: \(error.localizedDescription)")
        }
        let browser: BrowserID
        if let last = try sync.lastActiveOpenBrowser().flatMap(BrowserID.init(uuidString:)) {
            browser = last
        } else {
            browser = try await browsers.createBrowser().id
        }
        try await tabs.insert(WebState(id: tabID), in: browser, params: .automatic(), navigatingTo: page)
        if let history, history.items.count > 1 {
            try await histories.update(tabID) { $0 = history }
        }
        return .opened(tabID, in: browser)
    }

    /// The URL is checked just before the close's own transaction: a navigation
    /// committed between the two (a few milliseconds) is not seen.
    private func close(_ close: SyncCloseTab) async throws -> Outcome {
        guard let uuid = UUID(uuidString: close.tabID) else { return .refused("the tab id is not a UUID") }
        let tabID = WebStateID(rawValue: uuid)
        guard let open = try sync.openTab(tabID.uuidString), open.url == close.url,
              let browser = BrowserID(uuidString: open.browser)
        else { return .leftAlone }
        let closed = try await tabs.update(browser) { list -> Bool in
            guard let index = list.index(of: tabID) else { return false }
            _ = try list.remove(at: index)
            return true
        }
        return closed ? .closed(tabID) : .leftAlone
    }
}
