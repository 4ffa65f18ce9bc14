import Foundation

/// A tab whose current page matched a search, and where it is.
///
/// An open tab has a ``browser`` and an ``index`` in its list; a tab of a
/// recently closed entry (a closed tab, group or window) has a ``closedEntry``
/// instead, which `RecentlyClosedRepository` restores.
public struct TabSearchMatch: Hashable, Sendable {
    /// The tab.
    public var tab: WebStateID
    /// The open browser holding the tab; `nil` for a recently closed, archived or saved tab.
    public var browser: BrowserID?
    /// The tab's index in its browser's list; `nil` for a recently closed, archived or saved tab.
    public var index: Int?
    /// Whether the tab is archived (`TabArchiveRepository`; restore it from there).
    public var isArchived = false
    /// The saved group holding the tab (`SavedTabGroupRepository`; reopen it from there).
    public var savedGroup: TabGroupID?
    /// The recently closed entry holding the tab; `nil` for an open tab.
    public var closedEntry: ClosedEntryID?
    /// The current page's title.
    public var title: String
    /// The current page's URL (the shown URL when it differs from the loaded one).
    public var url: String
    /// The match's relevance (SQLite FTS5's BM25, title words weighing twice URL
    /// words): lower is better; matches come sorted by it.
    public var rank: Double

    /// Creates a match.
    public init(
        tab: WebStateID, browser: BrowserID?, index: Int?, closedEntry: ClosedEntryID?, title: String, url: String,
        rank: Double
    ) {
        self.tab = tab
        self.browser = browser
        self.index = index
        self.closedEntry = closedEntry
        self.title = title
        self.url = url
        self.rank = rank
    }

    /// Whether the tab is open (in a browser) rather than recently closed, archived or saved.
    public var isOpen: Bool { browser != nil }
}
