import ArgumentParser
import Foundation
import SessionModel
import SessionStorage

extension SessionStore {
    /// `sessionstore ls`: the browsers and their tabs as a tree; changes nothing.
    struct Ls: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List browsers and their tabs: index, pinned, group, active (*), title and URL.",
            discussion: """
                Each browser is printed as soon as it is read. --limit N lists the first N tabs of \
                each browser and how many more it has, reading only those: quick on a window of \
                100,000 tabs.
                """)

        @OptionGroup var options: StoreOptions

        @Flag(help: "Also list recently closed tabs, groups and windows.")
        var all = false

        @Flag(help: "List the archived tabs instead: tabs taken out of their windows when unused, kept with their histories.")
        var archived = false

        @Flag(help: "List the saved tab groups instead: groups closed and kept, with their tabs.")
        var savedGroups = false

        @Flag(help: "Print JSON instead of text.")
        var json = false

        @Option(help: ArgumentHelp(
            "List only this browser, reading no other: its identifier or a unique prefix of it, as `ls` prints it.",
            valueName: "browser"))
        var browser: String?

        @Option(help: ArgumentHelp(
            "List at most this many tabs of each browser (the first ones), reading no others.", valueName: "count"))
        var limit: Int?

        func validate() throws {
            if archived && savedGroups { throw ValidationError("--archived and --saved-groups list different things: give one.") }
            if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more.") }
        }

        func run() throws {
            if archived { return try listArchived() }
            if savedGroups { return try listSavedGroups() }
            if json {
                let report = try options.reading {
                    try SessionReport(
                        database: $0, includeClosed: all, only: try browser.map(IdentifierResolver(database: $0).browser),
                        limit: limit)
                }
                return try JSONOutput.print(report)
            }
            // Each browser is printed as soon as it is read.
            func write(_ lines: [String]) throws {
                try StandardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            }
            try options.reading { database in
                let only = try browser.map(IdentifierResolver(database: database).browser)
                let ids = try ShortIDs(database: database)
                try SessionReport.read(database: database, includeClosed: all, only: only, limit: limit) { summaries in
                    try write([SessionReport.heading(browsers: summaries.count, tabs: summaries.reduce(0) { $0 + $1.tabCount })])
                } _: { browser, tabCount in
                    // Written in pieces of about 64 KiB: a large browser is never one string.
                    var text = ""
                    try SessionReport.writeLines(for: browser, tabCount: tabCount, ids: ids) { line in
                        text += line
                        text += "\n"
                        if text.utf8.count >= 1 << 16 {
                            try StandardOutput.write(Data(text.utf8))
                            text = ""
                        }
                    }
                    if !text.isEmpty { try StandardOutput.write(Data(text.utf8)) }
                } closed: { closed in
                    if let closed { try write(SessionReport.closedLines(closed, ids: ids)) }
                }
            }
        }
    
        /// `ls --archived`: one line per archived tab, in the order they were archived.
        private func listArchived() throws {
            let tabs = try options.reading { try SQLiteTabArchiveRepository(database: $0).archivedTabs() }
            if json { return try JSONOutput.print(ArchivedReport(tabs)) }
            var lines = ["\(tabs.count) archived tab\(tabs.count == 1 ? "" : "s")"]
            for tab in tabs {
                let page = tab.url.map { tab.title.isEmpty ? $0 : "\(tab.title) — \($0)" } ?? "(no history)"
                let place = tab.formerGroup.map { "[\($0.visualData.title.isEmpty ? "untitled" : $0.visualData.title)]" } ?? ""
                lines.append("  \(tab.id.uuidString.prefix(8))  was \(String(tab.formerIndex).leftPadded(to: 3))  "
                    + "\(SessionReport.time(tab.archivedAt))  \(place.rightPadded(to: 12))  \(page)")
            }
            try StandardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }

        /// `ls --saved-groups`: each saved group, the most recently saved first, with its tabs.
        private func listSavedGroups() throws {
            let groups = try options.reading { try SQLiteSavedTabGroupRepository(database: $0).savedGroups() }
            if json { return try JSONOutput.print(SavedGroupsReport(groups)) }
            let lines = SavedGroupsReport.lines(groups)
            try StandardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }
}

/// What `ls --saved-groups --json` (and `saved-groups list --json`) prints.
struct SavedGroupsReport: Encodable {
    /// The text listing: each group, with its tabs.
    static func lines(_ groups: [SavedTabGroup]) -> [String] {
        var lines = ["\(groups.count) saved group\(groups.count == 1 ? "" : "s")"]
        for group in groups {
            let title = group.visualData.title.isEmpty ? "untitled" : group.visualData.title
            lines.append("group \(group.id.uuidString.prefix(8))  [\(title) \(group.visualData.color.rawValue)]  "
                + "saved \(SessionReport.time(group.savedAt))  (\(group.tabs.count) tab\(group.tabs.count == 1 ? "" : "s"))")
            for tab in group.tabs {
                let page = tab.url.map { tab.title.isEmpty ? $0 : "\(tab.title) — \($0)" } ?? "(no history)"
                lines.append("  \(tab.id.uuidString.prefix(8))  \(page)")
            }
        }
        return lines
    }

    struct Group: Encodable {
        var id: String
        var title: String
        var color: String
        var collapsed: Bool
        var sourceBrowser: String?
        var savedAt: Date
        var tabs: [Tab]
    }

    struct Tab: Encodable {
        var id: String
        var title: String
        var url: String?
    }

    var savedGroups: [Group]

    init(_ groups: [SavedTabGroup]) {
        savedGroups = groups.map { group in
            Group(
                id: group.id.uuidString, title: group.visualData.title, color: group.visualData.color.rawValue,
                collapsed: group.visualData.isCollapsed, sourceBrowser: group.sourceBrowser?.uuidString,
                savedAt: group.savedAt,
                tabs: group.tabs.map { Tab(id: $0.id.uuidString, title: $0.title, url: $0.url) })
        }
    }
}

/// What `ls --archived --json` prints.
struct ArchivedReport: Encodable {
    struct Tab: Encodable {
        var id: String
        var title: String
        var url: String?
        var formerBrowser: String?
        var formerIndex: Int
        var formerGroup: SessionReport.Group?
        var archivedAt: Date
        var lastActiveAt: Date
    }

    var archivedTabs: [Tab]

    init(_ tabs: [ArchivedTab]) {
        archivedTabs = tabs.map { tab in
            Tab(
                id: tab.id.uuidString, title: tab.title, url: tab.url, formerBrowser: tab.formerBrowser?.uuidString,
                formerIndex: tab.formerIndex, formerGroup: tab.formerGroup.map(SessionReport.group(_:)),
                archivedAt: tab.archivedAt, lastActiveAt: tab.lastActiveAt)
        }
    }
}
