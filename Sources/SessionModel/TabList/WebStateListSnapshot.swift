/// One browser's tab list as observed: the list and each tab's current page.
public struct WebStateListSnapshot: Hashable, Sendable {
    /// The browser the list belongs to.
    public var browser: BrowserID
    /// The tabs, pinned state, groups and active tab.
    public var list: WebStateList
    /// The current page of every tab that has one (tabs with an empty history are absent).
    public var pages: [WebStateID: PageSummary]

    /// Creates a snapshot.
    public init(browser: BrowserID, list: WebStateList, pages: [WebStateID: PageSummary] = [:]) {
        self.browser = browser
        self.list = list
        self.pages = pages
    }
}
