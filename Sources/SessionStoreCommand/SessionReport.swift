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
    init(database: SessionDatabase, includeClosed: Bool, only: BrowserID? = nil) throws {
        let tabs = SQLiteWebStateListRepository(database: database)
        (browsers, closed) = try database.readingConsistently {
            let repository = SQLiteBrowserRepository(database: database)
            let summaries: [BrowserSummary]
            if let only {
                guard let browser = try repository.browser(only) else {
                    throw StorageError.unknownBrowser(only.uuidString)
                }
                summaries = [BrowserSummary(browser: browser, tabCount: 0)]
            } else {
                summaries = try repository.browserSummaries()
            }
            let browsers = try summaries.map { summary in
                let snapshot = try tabs.snapshot(of: summary.browser.id)
                return Browser(
                    id: summary.browser.id.uuidString, lastActiveAt: summary.browser.lastActiveAt,
                    tabs: Self.tabs(of: snapshot))
            }
            let closed = includeClosed
                ? try SQLiteRecentlyClosedRepository(database: database).entries()
                    .filter { only == nil || $0.browser == only }.map(Self.closed(_:))
                : nil
            return (browsers, closed)
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
        var lines: [String] = []
        let tabCount = browsers.reduce(0) { $0 + $1.tabs.count }
        lines.append("\(browsers.count) browser\(browsers.count == 1 ? "" : "s"), \(tabCount) tab\(tabCount == 1 ? "" : "s")")
        for browser in browsers {
            lines.append("browser \(browser.id)  (\(browser.tabs.count) tab\(browser.tabs.count == 1 ? "" : "s"))")
            lines += browser.tabs.map { "  " + Self.line(for: $0) }
        }
        if let closed { lines += Self.closedLines(closed) }
        return lines.joined(separator: "\n")
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
        return "\(marker)\(index)  \(place.padding(toLength: max(place.count, 16), withPad: " ", startingAt: 0))  \(page(tab))"
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
}
