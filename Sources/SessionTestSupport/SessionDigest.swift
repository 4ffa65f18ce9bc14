import Foundation
import SessionModel
import SessionStorage

/// Everything a store holds that a replay must reproduce, as lines of text,
/// without timestamps or the identifiers the store makes up (closed entries'
/// own identifiers).
///
/// Two stores that received the same mutations have equal digests: open
/// browsers (by identifier) with their tab lists as ``WebStateListShape``,
/// every open or closed tab's history (URL, title, current index) and
/// engine-state size, and the recently closed entries in a clock-free order.
public struct SessionDigest: Hashable, Sendable, CustomStringConvertible {
    /// One line per fact, in a stable order.
    public var lines: [String]

    /// A digest from its lines, as an earlier ``lines`` recorded them.
    public init(lines: [String]) {
        self.lines = lines
    }

    /// The digest of `database` now.
    public init(_ database: SessionDatabase) throws {
        let browsers = SQLiteBrowserRepository(database: database)
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        let closed = SQLiteRecentlyClosedRepository(database: database)
        var lines: [String] = []
        var tabIDs: [WebStateID] = []
        for browser in try browsers.browsers().map(\.id).sorted(by: { $0.uuidString < $1.uuidString }) {
            let list = try tabs.webStateList(in: browser)
            let shape = WebStateListShape(list)
            lines.append("browser \(browser) pinned \(shape.pinnedCount) active \(shape.activeIndex.map(String.init) ?? "-")")
            for (index, tab) in shape.tabs.enumerated() {
                let group = list.groupID(at: index).map { id in
                    let visual = list.groups[id]?.visualData
                    return " group \(id) \(visual?.title ?? "?") \(visual?.color.rawValue ?? "?") \(visual?.isCollapsed == true ? "collapsed" : "open")"
                } ?? ""
                lines.append("  tab \(tab)\(group)")
            }
            tabIDs += list.webStates.map(\.id)
        }
        for entry in try closed.entries().sorted(by: { CrashWorkload.key(of: $0) < CrashWorkload.key(of: $1) }) {
            let pinned = entry.tabs.map { $0.wasPinned ? "p" : "-" }.joined()
            let visual = entry.group.map { " \($0.visualData.title) \($0.visualData.color.rawValue)" } ?? ""
            lines.append("closed \(CrashWorkload.key(of: entry)) \(pinned)\(visual)")
            tabIDs += entry.tabs.map(\.id)
        }
        for tab in tabIDs {
            let history = try histories.history(of: tab)
            let items = history.items.map { "\($0.url) \"\($0.title)\"" }.joined(separator: ", ")
            let engine = try histories.engineState(of: tab)?.count ?? 0
            lines.append("history \(tab) current \(history.currentIndex.map(String.init) ?? "-") engine \(engine): \(items)")
        }
        self.lines = lines
    }

    public var description: String { lines.joined(separator: "\n") }

    /// The first line where the two digests differ, for failure messages.
    public func firstDifference(from other: SessionDigest) -> String {
        for index in 0..<max(lines.count, other.lines.count) {
            let mine = index < lines.count ? lines[index] : "(none)"
            let theirs = index < other.lines.count ? other.lines[index] : "(none)"
            if mine != theirs { return "line \(index):\n  \(mine)\n  \(theirs)" }
        }
        return "no difference"
    }
}
