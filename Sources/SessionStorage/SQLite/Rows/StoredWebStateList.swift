import Foundation
import SessionModel

/// A browser's tab list as stored: the model value, each tab's `sort_key`,
/// and the browser's `revision` when they were read or written.
///
/// A repository caches these per browser. Before a mutation it compares the
/// cached revision with the row's (one indexed read), so a list that another
/// process changed is read again rather than overwritten.
struct StoredWebStateList: Sendable {
    var revision: Int64
    var list: WebStateList
    var keys: [WebStateID: Int64]
    /// What each tab's row holds, as last read or written at ``revision``, so a write
    /// sets only the columns that changed and reads nothing back. Made when a write
    /// takes the list (``completeRowImages()``), not when a read loads it; a tab
    /// without an image is written whole and its opener read first.
    var rows: [WebStateID: TabRowImage] = [:]
    /// Each tab's current page at ``revision``, once a snapshot has read them; `nil` until then.
    ///
    /// Writers never change this dictionary (a snapshot handed out shares it, and
    /// a change would copy every page in the writer's transaction): they record
    /// what changed in ``pageChanges``, which the next snapshot folds in.
    var pages: [WebStateID: PageSummary]?
    /// Pages changed since ``pages`` was made: a tab's new page, or `nil` for none.
    var pageChanges: [WebStateID: PageSummary?] = [:]
    /// The writer connection's data version (`SQLITE_FCNTL_DATA_VERSION`) right after the commit
    /// that wrote this entry; `nil` for an entry a reader read. While the writer still sees that
    /// version, no connection has written since, and the entry is current without reading the
    /// browser's revision.
    var committedAtDataVersion: UInt32?

    /// The most page changes kept unfolded; past that the pages are read anew.
    static let pageChangeLimit = 4_096

    /// Records that `tab` now shows `page` (when pages are kept).
    mutating func pageChanged(_ tab: WebStateID, to page: PageSummary?) {
        guard pages != nil else { return }
        guard pageChanges.count < Self.pageChangeLimit else {
            forgetPages()
            return
        }
        pageChanges[tab] = .some(page)
    }

    /// Stops keeping pages: they are read anew with the next snapshot.
    mutating func forgetPages() {
        pages = nil
        pageChanges = [:]
    }

    /// The pages at ``revision``: the kept ones with every recorded change folded in (`nil` when not kept).
    var currentPages: [WebStateID: PageSummary]? {
        guard var folded = pages else { return nil }
        for (tab, page) in pageChanges { folded[tab] = page }
        return folded
    }

    /// Gives every tab that has no image one, from the list: the list says what
    /// the rows hold, as it was just read or written at ``revision``.
    mutating func completeRowImages() {
        guard rows.count != list.count else { return }
        rows.reserveCapacity(list.count)
        // One pass over the list's tree, not a lookup by position per tab.
        for (index, (webState, groupID)) in zip(list.webStates, list.groupIDs).enumerated()
        where rows[webState.id] == nil {
            rows[webState.id] = TabRowImage(webState, isPinned: index < list.pinnedCount, groupID: groupID)
        }
    }
}

/// The columns of a `tabs` row (and its `tab_openers` row) that a list write sets or compares.
struct TabRowImage: Sendable, Equatable {
    var isPinned: Bool
    var groupID: TabGroupID?
    var lastActiveAt: Date
    var opener: WebStateOpener?
    var navigationIndex: Int?

    /// The image of the tab at `index` of `list`.
    init(_ list: WebStateList, at index: Int) {
        self.init(list.webStates[index], isPinned: list.isPinned(at: index), groupID: list.groupID(at: index))
    }

    /// The image of `webState`, pinned or not, in `groupID`.
    init(_ webState: WebState, isPinned: Bool, groupID: TabGroupID?) {
        self.isPinned = isPinned
        self.groupID = groupID
        lastActiveAt = webState.lastActiveAt
        opener = webState.opener
        navigationIndex = webState.navigationIndex
    }
}
