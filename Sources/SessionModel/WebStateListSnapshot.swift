/// One browser's tab list as observed: the list and each tab's current page.
///
/// Two snapshots are equal when their browser, list and pages are.
public struct WebStateListSnapshot: Hashable, Sendable {
    /// The browser the list belongs to.
    public var browser: BrowserID
    /// The tabs, pinned state, groups and active tab.
    public var list: WebStateList
    /// The current page of every tab that has one (tabs with an empty history are absent).
    public var pages: [WebStateID: PageSummary]
    /// The browser's stored revision when the snapshot was read, `nil` for one made by hand.
    ///
    /// One revision is one state of the list and its pages, so two snapshots of
    /// one browser at one revision are equal without comparing their tabs.
    package var revision: Int64?

    /// Creates a snapshot.
    public init(browser: BrowserID, list: WebStateList, pages: [WebStateID: PageSummary] = [:]) {
        self.browser = browser
        self.list = list
        self.pages = pages
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.browser == rhs.browser && lhs.list == rhs.list && lhs.pages == rhs.pages
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(browser)
        hasher.combine(list)
        hasher.combine(pages)
    }

    /// Whether `self` and `other` show the same state: for two read from the store, whether
    /// they are one browser at one revision (every change moves the revision on, so this
    /// needs no pass over the tabs); else whether they are equal.
    package func isSameState(as other: Self) -> Bool {
        if let revision, let otherRevision = other.revision { return browser == other.browser && revision == otherRevision }
        return self == other
    }
}
