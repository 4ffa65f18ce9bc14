import Foundation

/// A tab, group or window that was closed and can be restored.
public struct RecentlyClosedEntry: Hashable, Sendable, Identifiable {
    /// What was closed.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// One tab.
        case tab
        /// Every tab of a group, closed together.
        case group
        /// A whole browser window with its tabs.
        case window
    }

    /// One tab held by the entry.
    public struct Tab: Hashable, Sendable {
        /// The tab's identifier (kept when it is restored).
        public var id: WebStateID
        /// Its current page when it was closed, if it had one.
        public var page: PageSummary?
        /// Whether it was pinned.
        public var wasPinned: Bool

        /// Creates a value.
        public init(id: WebStateID, page: PageSummary?, wasPinned: Bool) {
            self.id = id
            self.page = page
            self.wasPinned = wasPinned
        }
    }

    /// The entry's identifier.
    public var id: ClosedEntryID
    /// What was closed.
    public var kind: Kind
    /// When it was closed.
    public var closedAt: Date
    /// The browser it was closed from (for a window, the window itself), if that browser still exists.
    public var browser: BrowserID?
    /// The index of the (first) tab in its browser when it was closed; `nil` for a window.
    public var tabIndex: Int?
    /// The group the tab or tabs belonged to, with its visual data.
    public var group: TabGroup?
    /// The tabs, in their order.
    public var tabs: [Tab]

    /// Creates a value.
    public init(
        id: ClosedEntryID, kind: Kind, closedAt: Date, browser: BrowserID?, tabIndex: Int?, group: TabGroup?,
        tabs: [Tab]
    ) {
        self.id = id
        self.kind = kind
        self.closedAt = closedAt
        self.browser = browser
        self.tabIndex = tabIndex
        self.group = group
        self.tabs = tabs
    }
}
