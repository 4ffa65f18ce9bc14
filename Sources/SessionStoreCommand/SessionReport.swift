import Foundation
import SessionModel
import SessionStorage

/// What `ls` and `closed` show: the store's browsers, tabs and closed entries
/// as plain values, printed as a tree or encoded as JSON.
///
/// The JSON speaks the export format's dialect (docs/export-format.md): the same
/// key names (`pinned`, `active_tab`, `groups`, `collapsed`, `closed_entries`), a
/// tab's `group` by identifier, and times in UTC ISO 8601 with milliseconds.
struct SessionReport: Encodable {
    /// A tab: the export's, without its history, with its index and current page.
    struct Tab: Encodable {
        var id: String
        var index: Int
        var pinned: Bool
        var group: String?
        var title: String?
        var url: String?
        /// The split view the tab is in, if any.
        var split: String?
    }

    /// A split view: two neighbouring tabs shown side by side.
    struct Split: Encodable {
        var id: String
        var ratio: Double
        var layout: String
    }

    /// A tab group, as the export writes it.
    struct Group: Encodable {
        var id: String
        var title: String
        var color: String
        var collapsed: Bool
    }

    struct Browser: Encodable {
        var id: String
        var lastActiveAt: Date
        var activeTab: String?
        /// The groups of the tabs listed, in list order.
        var groups: [Group]
        /// The split views of the tabs listed, in list order; absent when there are none.
        var splits: [Split]?
        /// How many tabs the browser has; more than ``tabs`` holds under `--limit`.
        var tabCount: Int
        var tabs: [Tab]

        func group(_ id: String?) -> Group? {
            id.flatMap { id in groups.first { $0.id == id } }
        }
    }

    struct Closed: Encodable {
        var id: String
        var kind: String
        var closedAt: Date
        var browser: String?
        var tabIndex: Int?
        var group: Group?
        var tabs: [Tab]
    }

    var browsers: [Browser]
    var closedEntries: [Closed]?

    /// Reads the report through the repositories.
    /// Every read is in one transaction: the report shows one state of the store,
    /// whatever other processes commit meanwhile.
    ///
    /// With `only`, just that browser is read (and its closed entries, with `includeClosed`).
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)`` when `only` is not an open browser.
    ///
    /// With `limit`, each browser shows its first `limit` tabs, read alone.
    init(database: SessionDatabase, includeClosed: Bool, only: BrowserID? = nil, limit: Int? = nil) throws {
        var browsers: [Browser] = []
        var closed: [Closed]?
        try Self.read(database: database, includeClosed: includeClosed, only: only, limit: limit) { browser, _ in
            browsers.append(browser)
        } closed: {
            closed = $0
        }
        self.browsers = browsers
        self.closedEntries = closed
    }

    /// Reads the browsers one at a time, in one read transaction, handing each
    /// to `body` with its tab count as soon as it is read; then the closed entries.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)`` when `only` is not an open browser.
    static func read(
        database: SessionDatabase, includeClosed: Bool, only: BrowserID?, limit: Int?,
        summaries: ([BrowserSummary]) throws -> Void = { _ in },
        _ body: (Browser, _ tabCount: Int) throws -> Void, closed: ([Closed]?) throws -> Void
    ) throws {
        let tabs = SQLiteWebStateListRepository(database: database)
        try database.readingConsistently {
            let repository = SQLiteBrowserRepository(database: database)
            func read(_ browser: SessionModel.Browser) throws -> (Browser, Int) {
                let listed: Browser
                if let limit {
                    listed = Self.browser(browser, try tabs.listing(of: browser.id, limit: limit))
                } else {
                    listed = Self.browser(browser, try tabs.snapshot(of: browser.id))
                }
                return (listed, listed.tabCount)
            }
            if let only {
                guard let browser = try repository.browser(only) else {
                    throw StorageError.unknownBrowser(only.uuidString)
                }
                let (read, count) = try read(browser)
                try summaries([BrowserSummary(browser: browser, tabCount: count)])
                try body(read, count)
            } else {
                let all = try repository.browserSummaries()
                try summaries(all)
                for summary in all {
                    let (read, count) = try read(summary.browser)
                    try body(read, count)
                }
            }
            try closed(includeClosed
                ? try SQLiteRecentlyClosedRepository(database: database).entries()
                    .filter { only == nil || $0.browser == only }.map(Self.closed(_:))
                : nil)
        }
    }

    /// A browser's listed tabs: the first `limit` of them under `ls --limit`.
    static func browser(_ browser: SessionModel.Browser, _ listing: TabListing) -> Browser {
        let tabs = listing.tabs.enumerated().map { index, tab in
            Tab(id: tab.id.uuidString, index: index, pinned: tab.isPinned, group: tab.group?.id.uuidString,
                title: tab.page?.title, url: tab.page?.url)
        }
        let groups = listing.tabs.compactMap(\.group).map(Self.group(_:))
        let active = listing.activeIndex.flatMap { $0 < listing.tabs.count ? listing.tabs[$0].id.uuidString : nil }
        return Browser(
            id: browser.id.uuidString, lastActiveAt: browser.lastActiveAt, activeTab: active,
            groups: distinct(groups), tabCount: listing.tabCount, tabs: tabs)
    }

    /// A browser with all its tabs.
    static func browser(_ browser: SessionModel.Browser, _ snapshot: WebStateListSnapshot) -> Browser {
        let list = snapshot.list
        let tabs = zip(list.webStates, list.groupIDs).enumerated().map { index, tab in
            let (webState, groupID) = tab
            let page = snapshot.pages[webState.id]
            return Tab(
                id: webState.id.uuidString, index: index, pinned: index < list.pinnedCount,
                group: groupID?.uuidString, title: page?.title, url: page?.url,
                split: list.splitID(of: webState.id)?.uuidString)
        }
        let groups = list.groupIDs.compactMap { $0.flatMap { list.groups[$0] } }
        var splits: [Split] = []
        if !list.splits.isEmpty {
            for tab in tabs where tab.split != nil && splits.last?.id != tab.split {
                guard let id = tab.split.flatMap(TabSplitID.init(uuidString:)), let split = list.splits[id] else { continue }
                splits.append(Split(
                    id: id.uuidString, ratio: split.visualData.ratio, layout: split.visualData.layout.rawValue))
            }
        }
        return Browser(
            id: browser.id.uuidString, lastActiveAt: browser.lastActiveAt,
            activeTab: list.activeIndex.map { list.webStates[$0].id.uuidString }, groups: distinct(groups.map(group(_:))),
            splits: splits.isEmpty ? nil : splits, tabCount: tabs.count, tabs: tabs)
    }

    /// `groups` without repeats, each where it first appears.
    private static func distinct(_ groups: [Group]) -> [Group] {
        var seen = Set<String>()
        return groups.filter { seen.insert($0.id).inserted }
    }

    static func group(_ group: TabGroup) -> Group {
        Group(
            id: group.id.uuidString, title: group.visualData.title, color: group.visualData.color.rawValue,
            collapsed: group.visualData.isCollapsed)
    }

    static func closed(_ entry: RecentlyClosedEntry) -> Closed {
        Closed(
            id: entry.id.uuidString, kind: entry.kind.rawValue, closedAt: entry.closedAt,
            browser: entry.browser?.uuidString, tabIndex: entry.tabIndex, group: entry.group.map(group(_:)),
            tabs: entry.tabs.enumerated().map { offset, tab in
                Tab(id: tab.id.uuidString, index: offset, pinned: tab.wasPinned, group: nil,
                    title: tab.page?.title, url: tab.page?.url)
            })
    }

    // MARK: - Text

    /// The tree `ls` prints, with identifiers as short as `ids` makes them.
    func text(ids: ShortIDs) -> String {
        var lines = [Self.heading(browsers: browsers.count, tabs: browsers.reduce(0) { $0 + $1.tabCount })]
        for browser in browsers { Self.writeLines(for: browser, tabCount: browser.tabCount, ids: ids) { lines.append($0) } }
        if let closedEntries { lines += Self.closedLines(closedEntries, ids: ids) }
        return lines.joined(separator: "\n")
    }

    /// The tree's first line.
    static func heading(browsers: Int, tabs: Int) -> String {
        "\(browsers) browser\(browsers == 1 ? "" : "s"), \(tabs) tab\(tabs == 1 ? "" : "s")"
    }

    /// A browser's lines, one at a time: its heading, its tabs, and how many more it has than are shown.
    static func writeLines(for browser: Browser, tabCount: Int, ids: ShortIDs, _ write: (String) throws -> Void) rethrows {
        try write("browser \(ids.browser(browser.id))  (\(tabCount) tab\(tabCount == 1 ? "" : "s"))")
        var previousSplit: String?
        for tab in browser.tabs {
            // A split's tabs show `{` on the first and `}` on the second.
            let splitMark = tab.split == nil ? nil : tab.split == previousSplit ? "}" : "{"
            previousSplit = tab.split
            try write("  " + line(
                for: tab, active: tab.id == browser.activeTab, group: browser.group(tab.group), splitMark: splitMark,
                ids: ids))
        }
        if tabCount > browser.tabs.count {
            let more = tabCount - browser.tabs.count
            try write("  … \(more) more tab\(more == 1 ? "" : "s")")
        }
    }

    /// The recently closed section: a heading, then one line per entry.
    static func closedLines(_ closed: [Closed], ids: ShortIDs) -> [String] {
        ["recently closed: \(closed.count)"] + closed.map { entry in
            let what: String
            switch entry.kind {
            case "tab": what = entry.tabs.first.map { "\(ids.tab($0.id))  \(page($0))" } ?? ""
            case "group": what = "\"\(entry.group?.title ?? "")\" (\(entry.tabs.count) tabs)"
            default: what = "\(entry.tabs.count) tabs"
            }
            return "  \(ids.closedEntry(entry.id))  \(entry.kind.padding(toLength: 6, withPad: " ", startingAt: 0))  \(time(entry.closedAt))  \(what)"
        }
    }

    /// One tab: `* 3  0a1b2c3d  pinned  Title — URL` (`*` marks the active tab; `{` and `}`
    /// the first and second tab of a split view).
    static func line(for tab: Tab, active: Bool, group: Group?, splitMark: String? = nil, ids: ShortIDs) -> String {
        let marker = active ? "*" : " "
        var place = tab.pinned ? "pinned" : ""
        if let group {
            place = "[\(group.title.isEmpty ? "untitled" : group.title) \(group.color)\(group.collapsed ? " collapsed" : "")]"
        }
        if let splitMark { place = place.isEmpty ? splitMark : place + " " + splitMark }
        let index = String(tab.index).leftPadded(to: 3)
        return "\(marker)\(index)  \(ids.tab(tab.id))  \(place.rightPadded(to: 16))  \(page(tab))"
    }

    static func page(_ tab: Tab) -> String {
        guard let url = tab.url else { return "(no history)" }
        let title = tab.title ?? ""
        return title.isEmpty ? url : "\(title) — \(url)"
    }

    /// A time as `2026-11-23 09:30:00Z`.
    static func time(_ date: Date) -> String {
        timeFormatter.string(from: date) + "Z"
    }

    /// Made once: `show` and `ls --all` format a time per line.
    private static let timeFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter
    }()
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    func rightPadded(to width: Int) -> String {
        isEmpty ? String(repeating: " ", count: width) : count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
