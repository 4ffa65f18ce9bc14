import Foundation
import SessionModel
import SessionStorage

/// How the mirror follows a tab's history. An extension cannot read a tab's
/// session history; it sees each top-frame navigation (`webNavigation`: the URL,
/// how the user got there, and the `forward_back` qualifier) and each new URL
/// or title (`tabs.onUpdated`). So:
///
/// - A navigation commits a new entry, with its transition, unless it is a
///   reload or lands on the current entry's URL.
/// - A navigation marked `forward_back` makes current the stored entry with
///   that URL nearest the current one (the earlier of two as near); with no
///   such entry it commits one, as a new navigation would. A back of several
///   steps is thus matched by URL: best effort.
/// - A new URL from `tabs.onUpdated` that the history does not hold commits an
///   entry at once (a link, until `webNavigation` says otherwise); one it holds
///   waits for the navigation event, which says whether it is a back or a new visit.
///   The browser's own pages (`about:`, `chrome:`) have no navigation event in
///   Firefox, and a tab restored at a browser's start has none until it loads: a
///   new URL there, or in a snapshot, that the history holds is the entry with it.
/// - A new title renames the current entry.
extension BrowserMirror {
    /// After `tabs.onCreated` or `tabs.onUpdated` (or a snapshot): the tab's URL and title into its history.
    /// - Parameter fromSnapshot: the browser states where the tab is (after a start, a tab it
    ///   restored without loading it has no navigation event to say so): a URL the history
    ///   holds is the entry nearest the current one.
    func followPage(ofTab tab: Int, fromSnapshot: Bool = false) throws {
        guard let page = memory.state.tabs[tab], let url = page.url, let webState = memory.tabOf[tab] else { return }
        let history = try histories.history(of: webState)
        if let current = history.currentItem, current.url == url {
            if !page.title.isEmpty, page.title != current.title, let index = history.currentIndex {
                try histories.updateItem(at: index, in: webState, title: page.title)
            }
            return
        }
        if let index = Self.nearest(url, in: history) {
            // A URL the history holds: the navigation event says whether the user went back to it.
            // The browser's own pages have none: a new URL there is a back or forward to the entry.
            // (Chromium reports its own pages' navigations: there the event decides.)
            if fromSnapshot || (Self.isBrowserPage(url) && source != .chromium) { try histories.go(to: index, in: webState) }
            return
        }
        try histories.commit(NavigationItem(url: url, title: page.title, transition: .link, timestamp: now()), in: webState)
        memory.provisional.insert(webState)
    }

    /// After `webNavigation.onCommitted` (or a same-document navigation) in a top frame.
    func followNavigation(_ message: MirrorMessage) throws {
        guard let tab = message.tabId, let url = message.url, !url.isEmpty, let webState = memory.tabOf[tab],
              memory.state.tabs[tab] != nil
        else { return }
        let history = try histories.history(of: webState)
        let transition = Self.transition(message.transitionType)
        let wasProvisional = memory.provisional.remove(webState) != nil
        if let current = history.currentItem, current.url == url {
            // The entry tabs.onUpdated added for this navigation: now it has its transition.
            if wasProvisional, current.transition != transition {
                var item = current
                item.transition = transition
                try histories.replaceCurrent(with: item, in: webState)
            }
            return
        }
        if message.transitionQualifiers?.contains("forward_back") == true,
           let index = Self.nearest(url, in: history), index != history.currentIndex
        {
            try histories.go(to: index, in: webState)
            return
        }
        let title = memory.state.tabs[tab]?.url == url ? memory.state.tabs[tab]?.title ?? "" : ""
        let time = message.timeStamp.map { Date(timeIntervalSince1970: $0 / 1000) } ?? now()
        try histories.commit(NavigationItem(url: url, title: title, transition: transition, timestamp: time), in: webState)
    }

    /// Whether `url` is one of the browser's own pages (`about:`, `chrome:`), for which
    /// Firefox sends no `webNavigation` event: `chrome://browser/content/blanktab.html`,
    /// where a window opened empty starts, is one.
    static func isBrowserPage(_ url: String) -> Bool {
        url.hasPrefix("about:") || url.hasPrefix("chrome:")
    }

    /// The index of the entry with `url` nearest the current one; of two as near, the earlier.
    static func nearest(_ url: String, in history: NavigationHistory) -> Int? {
        let current = history.currentIndex ?? 0
        return history.items.indices.filter { history.items[$0].url == url }
            .min { (abs($0 - current), $0) < (abs($1 - current), $1) }
    }

    /// A `webNavigation` transition type as the store's.
    static func transition(_ type: String?) -> NavigationTransition {
        switch type {
        case "start_page": .autoToplevel
        case let type?: NavigationTransition(rawValue: type) ?? .link
        case nil: .link
        }
    }
}
