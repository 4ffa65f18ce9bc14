import Foundation
import SessionModel
import SessionStorage

/// What the extension's popup asks of the store (through the host), and what
/// `sessionstore open --in BROWSER` opens.
///
/// The popup lists the stored windows (``StoreOverview``), the recently closed
/// entries, and the tabs whose title or URL match what is typed (the store's
/// full-text index, ``PopupMatch``). Its buttons restore a window (a
/// ``RestorePlan``) or reopen a closed entry (``ReopenPlan``).
extension BrowserMirror {
    /// The store's open browsers that `open --in` opens when it names none: this
    /// source's and no source's, not shown in this browser already, in the store's order.
    package func restorableBrowsers() throws -> [BrowserID] {
        let owners = try browsers.sources()
        let shown = Set(memory.browserOf.values)
        return try browsers.browsers().map(\.id).filter { id in
            !shown.contains(id) && (owners[id] == nil || owners[id] == source)
        }
    }

    /// The browser's window showing each stored browser this browser shows.
    private var shownWindows: [BrowserID: Int] {
        Dictionary(memory.browserOf.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
    }

    /// The stored windows and the recently closed entries.
    func overview() throws -> StoreOverview {
        try database.readingConsistently {
            let owners = try browsers.sources()
            let windowOf = shownWindows
            let windows = try browsers.browserSummaries().map { summary in
                StoreOverview.Window(
                    browser: summary.browser.id.uuidString, source: owners[summary.browser.id]?.rawValue,
                    tabs: summary.tabCount, title: summary.activePage?.title ?? "", url: summary.activePage?.url ?? "",
                    window: windowOf[summary.browser.id])
            }
            let closed = try SQLiteRecentlyClosedRepository(database: database).entries().map { entry in
                let first = entry.tabs.first?.page
                return StoreOverview.Closed(
                    entry: entry.id.uuidString, kind: entry.kind.rawValue,
                    closedAt: (entry.closedAt.timeIntervalSince1970 * 1000).rounded(), tabs: entry.tabs.count,
                    title: entry.kind == .group ? (entry.group?.visualData.title ?? "") : (first?.title ?? ""),
                    url: first?.url ?? "")
            }
            return StoreOverview(windows: windows, closed: closed)
        }
    }

    /// The tabs whose current page matches `query`, best first (recently closed ones too).
    func search(_ query: String, limit: Int) throws -> [PopupMatch] {
        let matches = try SQLiteTabSearchRepository(database: database).searchTabs(query, includingClosed: true, limit: limit)
        // Tabs this browser shows (a closed tab's id may still map to its identifier).
        let wanted = Set(matches.filter { $0.browser != nil }.map(\.tab))
        var tabIDs: [WebStateID: Int] = [:]
        for (tab, webState) in memory.tabOf where wanted.contains(webState) && memory.state.tabs[tab] != nil {
            tabIDs[webState] = tab
        }
        let windowOf = shownWindows
        return matches.map { match in
            PopupMatch(
                tab: match.tab.uuidString, browser: match.browser?.uuidString, index: match.index,
                closedEntry: match.closedEntry?.uuidString, title: match.title, url: match.url,
                window: match.browser.flatMap { windowOf[$0] }, tabId: tabIDs[match.tab])
        }
    }

    /// Brings a recently closed entry back in the store, and says how the browser shows it:
    /// in the window that shows its browser already, or (``ReopenPlan/window`` `nil`) by
    /// restoring that browser as a window.
    func reopenClosed(_ message: MirrorMessage) throws -> ReopenPlan {
        guard let text = message.entry, let id = ClosedEntryID(uuidString: text) else {
            throw MirrorRefusal("reopenClosed needs the recently closed entry (`entry`: its identifier)")
        }
        let closed = SQLiteRecentlyClosedRepository(database: database)
        guard let entry = try closed.entries().first(where: { $0.id == id }) else {
            throw MirrorRefusal("no recently closed entry \(text) in the store")
        }
        if let browser = entry.browser, let owner = try browsers.sources()[browser], owner != source {
            throw MirrorRefusal("entry \(text) was closed in \(owner), not \(source)")
        }
        let browser = try closed.restore(id)
        guard let window = shownWindows[browser] else {
            return ReopenPlan(browser: browser.uuidString, window: nil, tabs: [], groupId: nil, group: nil)
        }
        // The entry's tabs are back in the browser the window shows: the browser makes them there.
        let snapshot = try lists.snapshot(of: browser)
        let list = snapshot.list
        let reopened = Set(entry.tabs.map(\.id))
        let tabs = list.webStates.enumerated().filter { reopened.contains($0.element.id) }.map { index, webState in
            let id = webState.id
            return ReopenPlan.Tab(
                sid: id.uuidString, url: snapshot.pages[id]?.url ?? "", title: snapshot.pages[id]?.title ?? "",
                index: index, pinned: index < list.pinnedCount)
        }
        let group = tabs.first.flatMap { list.groupID(at: $0.index) }.flatMap { id in list.orderedGroups.first { $0.id == id } }
        return ReopenPlan(
            browser: browser.uuidString, window: window, tabs: tabs,
            groupId: group.flatMap { group in memory.groupOf.first { $0.value == group.id }?.key },
            group: group.map(RestorePlan.Group.init))
    }
}

/// The popup's first view: every stored window, and the recently closed entries.
package struct StoreOverview: Encodable, Sendable, Equatable {
    /// One stored window.
    package struct Window: Encodable, Sendable, Equatable {
        package var browser: String
        /// The browser that keeps it (`chromium`, `firefox`), when one does.
        package var source: String?
        package var tabs: Int
        /// Its active tab's page.
        package var title: String
        package var url: String
        /// The browser's window showing it, when this browser shows it.
        package var window: Int?
    }

    /// One recently closed entry, the most recent first.
    package struct Closed: Encodable, Sendable, Equatable {
        package var entry: String
        /// `tab`, `group` or `window`.
        package var kind: String
        /// Milliseconds since 1970.
        package var closedAt: Double
        package var tabs: Int
        /// Its first tab's title (a group's: the group's).
        package var title: String
        package var url: String
    }

    package var windows: [Window]
    package var closed: [Closed]
}

/// A tab the popup's search found.
package struct PopupMatch: Encodable, Sendable, Equatable {
    package var tab: String
    /// Where it is open, when it is.
    package var browser: String?
    package var index: Int?
    /// The recently closed entry that holds it, when it is closed.
    package var closedEntry: String?
    package var title: String
    package var url: String
    /// The browser's window and tab showing it, when this browser shows it.
    package var window: Int?
    package var tabId: Int?
}

/// A recently closed entry brought back: the tabs the browser makes in `window`,
/// or, when `window` is `nil`, the store's browser to restore as a window.
package struct ReopenPlan: Encodable, Sendable, Equatable {
    /// One tab to make.
    package struct Tab: Encodable, Sendable, Equatable {
        package var sid: String
        package var url: String
        package var title: String
        /// Its index in the window.
        package var index: Int
        package var pinned: Bool
    }

    package var browser: String
    package var window: Int?
    package var tabs: [Tab]
    /// The browser's group the tabs join, when the window shows it already.
    package var groupId: Int?
    /// The group the tabs return to, when they were in one.
    package var group: RestorePlan.Group?
}
