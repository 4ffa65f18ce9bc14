/// One open browser as a window list shows it.
public struct BrowserSummary: Hashable, Sendable {
    /// The browser.
    public var browser: Browser
    /// How many tabs it holds.
    public var tabCount: Int
    /// Its active tab, if any.
    public var activeTab: WebStateID?
    /// The active tab's current page, if any.
    public var activePage: PageSummary?

    /// Creates a summary.
    public init(browser: Browser, tabCount: Int, activeTab: WebStateID? = nil, activePage: PageSummary? = nil) {
        self.browser = browser
        self.tabCount = tabCount
        self.activeTab = activeTab
        self.activePage = activePage
    }
}
