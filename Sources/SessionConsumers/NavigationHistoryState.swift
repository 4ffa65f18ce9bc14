import Foundation
import SessionModel

/// One entry of a tab's back/forward list, as a menu or toolbar shows it.
public struct NavigationEntryItem: Hashable, Sendable {
    /// The entry's index in the history (for ``NavigationCommands/goToEntry(at:)``).
    public var index: Int
    /// The page's title (may be empty).
    public var title: String
    /// The URL to show: the virtual URL when the entry has one, else its URL.
    public var url: String
    /// The page's favicon URL.
    public var faviconURL: String?
    /// When the entry was committed.
    public var timestamp: Date

    /// Creates an entry item.
    public init(index: Int, title: String, url: String, faviconURL: String? = nil, timestamp: Date) {
        self.index = index
        self.title = title
        self.url = url
        self.faviconURL = faviconURL
        self.timestamp = timestamp
    }
}

/// What back/forward buttons and history menus show of one tab.
public struct NavigationHistoryState: Hashable, Sendable {
    /// The tab.
    public var tab: WebStateID
    /// The current entry; `nil` for an empty history.
    public var current: NavigationEntryItem?
    /// The entries before the current one, nearest first (as a back menu lists them).
    public var back: [NavigationEntryItem]
    /// The entries after the current one, nearest first.
    public var forward: [NavigationEntryItem]

    /// Creates a state.
    public init(
        tab: WebStateID, current: NavigationEntryItem? = nil, back: [NavigationEntryItem] = [],
        forward: [NavigationEntryItem] = []
    ) {
        self.tab = tab
        self.current = current
        self.back = back
        self.forward = forward
    }

    /// Whether there is an entry to go back to.
    public var canGoBack: Bool { !back.isEmpty }

    /// Whether there is an entry to go forward to.
    public var canGoForward: Bool { !forward.isEmpty }
}
