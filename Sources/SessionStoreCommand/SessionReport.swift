import Foundation
import SessionModel
import SessionStorage

/// What `ls` and `closed` show: the store's browsers, tabs and closed entries
/// as plain values, printed as a tree or encoded as JSON.
struct SessionReport: Encodable {
    struct Tab: Encodable {
        var index: Int
        var id: String
        var isPinned: Bool
        var isActive: Bool
        var group: Group?
        var title: String?
        var url: String?
    }

    struct Group: Encodable {
        var id: String
        var title: String
        var color: String
        var isCollapsed: Bool
    }

    struct Browser: Encodable {
        var id: String
        var lastActiveAt: Date
        var tabs: [Tab]
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
    var closed: [Closed]?

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
        self.closed = closed
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
                let listed: [Tab]
                let count: Int
                if let limit {
                    let listing = try tabs.listing(of: browser.id, limit: limit)
                    listed = Self.tabs(of: listing)
                    count = listing.tabCount
                } else {
                    listed = Self.tabs(of: try tabs.snapshot(of: browser.id))
                    count = listed.count
                }
                return (Browser(id: browser.id.uuidString, lastActiveAt: browser.lastActiveAt, tabs: listed), count)
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

    static func tabs(of listing: TabListing) -> [Tab] {
        listing.tabs.enumerated().map { index, tab in
            Tab(
                index: index, id: tab.id.uuidString, isPinned: tab.isPinned, isActive: listing.activeIndex == index,
                group: tab.group.map(Self.group(_:)), title: tab.page?.title, url: tab.page?.url)
        }
    }

    static func tabs(of snapshot: WebStateListSnapshot) -> [Tab] {
        let list = snapshot.list
        return list.webStates.enumerated().map { index, webState in
            let page = snapshot.pages[webState.id]
            return Tab(
                index: index, id: webState.id.uuidString, isPinned: list.isPinned(at: index),
                isActive: list.activeIndex == index,
                group: list.groupID(at: index).flatMap { list.groups[$0] }.map(Self.group(_:)),
                title: page?.title, url: page?.url)
        }
    }

    static func group(_ group: TabGroup) -> Group {
        Group(
            id: group.id.uuidString, title: group.visualData.title, color: group.visualData.color.rawValue,
            isCollapsed: group.visualData.isCollapsed)
    }

    static func closed(_ entry: RecentlyClosedEntry) -> Closed {
        Closed(
            id: entry.id.uuidString, kind: entry.kind.rawValue, closedAt: entry.closedAt,
            browser: entry.browser?.uuidString, tabIndex: entry.tabIndex, group: entry.group.map(group(_:)),
            tabs: entry.tabs.enumerated().map { offset, tab in
                Tab(index: offset, id: tab.id.uuidString, isPinned: tab.wasPinned, isActive: false, group: nil,
                    title: tab.page?.title, url: tab.page?.url)
            })
    }

    // MARK: - Text

    /// The tree `ls` prints.
    var text: String {
        let tabCount = browsers.reduce(0) { $0 + $1.tabs.count }
        var lines = [Self.heading(browsers: browsers.count, tabs: tabCount)]
        for browser in browsers { Self.writeLines(for: browser, tabCount: browser.tabs.count) { lines.append($0) } }
        if let closed { lines += Self.closedLines(closed) }
        return lines.joined(separator: "\n")
    }

    /// The tree's first line.
    static func heading(browsers: Int, tabs: Int) -> String {
        "\(browsers) browser\(browsers == 1 ? "" : "s"), \(tabs) tab\(tabs == 1 ? "" : "s")"
    }

    /// A browser's lines, one at a time: its heading, its tabs, and how many more it has than are shown.
    static func writeLines(for browser: Browser, tabCount: Int, _ write: (String) throws -> Void) rethrows {
        try write("browser \(browser.id)  (\(tabCount) tab\(tabCount == 1 ? "" : "s"))")
        for tab in browser.tabs { try write("  " + line(for: tab)) }
        if tabCount > browser.tabs.count {
            let more = tabCount - browser.tabs.count
            try write("  … \(more) more tab\(more == 1 ? "" : "s")")
        }
    }

    /// The recently closed section: a heading, then one line per entry.
    static func closedLines(_ closed: [Closed]) -> [String] {
        ["recently closed: \(closed.count)"] + closed.map { entry in
            let what: String
            switch entry.kind {
            case "tab": what = entry.tabs.first.map { page($0) } ?? ""
            case "group": what = "\"\(entry.group?.title ?? "")\" (\(entry.tabs.count) tabs)"
            default: what = "\(entry.tabs.count) tabs"
            }
            return "  \(entry.id)  \(entry.kind.padding(toLength: 6, withPad: " ", startingAt: 0))  \(time(entry.closedAt))  \(what)"
        }
    }

    /// One tab: `* 3  pinned  Title — URL` (`*` marks the active tab).
    static func line(for tab: Tab) -> String {
        let marker = tab.isActive ? "*" : " "
        var place = tab.isPinned ? "pinned" : ""
        if let group = tab.group {
            place = "[\(group.title.isEmpty ? "untitled" : group.title) \(group.color)\(group.isCollapsed ? " collapsed" : "")]"
        }
        let index = String(tab.index).leftPadded(to: 3)
        return "\(marker)\(index)  \(place.rightPadded(to: 16))  \(page(tab))"
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
