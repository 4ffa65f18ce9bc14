import Foundation
import SessionModel
import SessionStorage

/// Turns a decoded Firefox session into this store's document, leaving out
/// what the store cannot hold and counting it.
///
/// Every window becomes a browser with new identifiers: tabs in Firefox's
/// order with pinned tabs first and each group's tabs together, Firefox's
/// 1-based `selected` as the active tab and each tab's 1-based `index` as its
/// current entry. Split views become splits with Chromium's default visual
/// data (Firefox keeps no ratio or layout). Closed tabs become closed tab
/// entries; closed windows become browsers named by a closed window entry.
/// Saved groups (the root `savedGroups`) become the document's saved groups,
/// most recently saved first, and each window's closed groups (`closedGroups`)
/// recently closed group entries; both are read into ``ImportedTabGroup``s
/// first, kept beside the document. The result always passes `SessionArchive.check()`.
struct FirefoxArchiveBuilder {
    /// Used where Firefox recorded no usable time.
    let fallbackTime: Date
    /// The most history entries a tab keeps (the store's default limit).
    private let maximumEntries: Int
    private var browsers: [SessionArchive.Browser] = []
    private var closedEntries: [SessionArchive.ClosedEntry] = []
    private var savedGroups: [ImportedTabGroup] = []
    private var closedGroups: [ImportedTabGroup] = []
    /// What was left out, counted (the extensions in other files add to it).
    var tally = Tally()

    /// The document and notes for `file`; `fileTime` stands in for times the
    /// file does not record (the session's own `lastUpdate` comes first).
    static func build(
        _ file: FirefoxSessionFile, fileTime: Date, maximumEntries: Int = NavigationLimits.defaultMaximumEntries
    ) -> BrowserImport {
        let sessionTime = file.session.flatMap { time($0.lastUpdate) ?? time($0.startTime) }
        var builder = FirefoxArchiveBuilder(fallbackTime: sessionTime ?? fileTime, maximumEntries: maximumEntries)
        for (offset, window) in file.windows.enumerated() {
            let selected = offset + 1 == (file.selectedWindow ?? 1)
            builder.add(window, lastActive: selected ? sessionTime : nil, closedAt: nil)
        }
        for window in file.closedWindows ?? [] {
            builder.add(window, lastActive: nil, closedAt: time(window.closedAt) ?? builder.fallbackTime)
        }
        for source in file.savedGroups ?? [] {
            guard let source = source.value else {
                builder.tally.unreadableGroups += 1
                continue
            }
            builder.savedGroups.append(builder.keptGroup(source, browser: nil))
        }
        // Saved groups go to the document's saved groups, closed ones to recently closed.
        let saved = builder.savedGroups.compactMap { builder.savedGroup($0) }
            .enumerated().sorted { ($0.element.savedAt, $1.offset) > ($1.element.savedAt, $0.offset) }.map(\.element)
        builder.closedEntries += builder.closedGroups.compactMap { builder.closedGroupEntry($0) }
        let closed = builder.closedEntries.enumerated().sorted {
            ($0.element.closedAt, $1.offset) > ($1.element.closedAt, $0.offset)
        }.map(\.element)
        var result = BrowserImport(
            archive: SessionArchive(browsers: builder.browsers, closedEntries: closed, savedGroups: saved),
            skipped: builder.tally.lines)
        result.savedGroups = builder.savedGroups
        result.closedGroups = builder.closedGroups
        return result
    }

    /// A time in milliseconds since 1970, if it is one the store can keep
    /// (after 1970, before the year 10000).
    static func time(_ milliseconds: Double?) -> Date? {
        guard let milliseconds, milliseconds.isFinite, milliseconds > 0, milliseconds < 253_402_300_800_000 else {
            return nil
        }
        return Date(timeIntervalSince1970: milliseconds.rounded() / 1000)
    }

    // MARK: - Windows

    /// Adds an open window, or a closed one when `closedAt` is set.
    private mutating func add(_ window: FirefoxSessionFile.Window, lastActive: Date?, closedAt: Date?) {
        let browserID = BrowserID()
        let groups = groups(of: window)
        var items: [(original: Int, tab: SessionArchive.Tab)] = []
        let sources = window.tabs ?? []
        for (offset, source) in sources.enumerated() {
            var group: TabGroupID?
            if let firefoxGroup = source.groupId {
                if source.pinned == true {
                    tally.pinnedGrouped += 1
                } else if let known = groups[firefoxGroup] {
                    group = known.id
                } else {
                    tally.unknownGroup += 1
                }
            }
            guard let tab = tab(source, group: group) else {
                tally.emptyTabs += 1
                continue
            }
            items.append((offset, tab))
        }
        var ordered = Self.listOrder(items, tally: &tally)
        var tabs = ordered.map(\.tab)
        let splits = assignSplits(
            &tabs, keys: ordered.map { sources[$0.original].splitViewId }, views: window.splitViews)
        for index in ordered.indices { ordered[index].tab = tabs[index] }
        let kept = !ordered.isEmpty
        if kept {
            // Firefox selects the first tab when `selected` is missing (SessionStore.sys.mjs, restoreWindow).
            // Clamped before subtracting: the file's number may be anything, Int.min included.
            let selected = max(window.selected ?? 1, 1) - 1
            let active = items.first { $0.original == selected } ?? items.first { $0.original > selected }
                ?? items.last
            var usedGroups: [TabGroupID] = []
            for item in ordered {
                if let group = item.tab.group, !usedGroups.contains(group) { usedGroups.append(group) }
            }
            let byID = Dictionary(groups.values.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let closedEntry = closedAt.map { _ in ClosedEntryID() }
            let lastActiveAt = ([lastActive].compactMap { $0 } + tabs.map(\.lastActiveAt)).max() ?? fallbackTime
            browsers.append(SessionArchive.Browser(
                id: browserID, createdAt: tabs.map(\.createdAt).min() ?? fallbackTime, lastActiveAt: lastActiveAt,
                activeTab: active?.tab.id, closedEntry: closedEntry, groups: usedGroups.compactMap { byID[$0] },
                splits: splits, tabs: tabs))
            if let closedEntry, let closedAt {
                closedEntries.append(SessionArchive.ClosedEntry(
                    id: closedEntry, kind: .window, closedAt: closedAt, browser: browserID))
            }
        } else {
            tally.emptyWindows += 1
        }
        for source in window.closedGroups ?? [] {
            guard let source = source.value else {
                tally.unreadableGroups += 1
                continue
            }
            closedGroups.append(keptGroup(source, browser: kept ? browserID : nil))
        }
        for closed in window.closedTabs ?? [] {
            guard let tab = tab(closed.state, group: nil) else {
                tally.emptyClosedTabs += 1
                continue
            }
            let group = (closed.closedInTabGroupId ?? closed.state.groupId).flatMap { groups[$0] }
            closedEntries.append(SessionArchive.ClosedEntry(
                kind: .tab, closedAt: Self.time(closed.closedAt) ?? tab.lastActiveAt, browser: kept ? browserID : nil,
                tabIndex: closed.pos.flatMap { $0 >= 0 ? $0 : nil }, group: group, tabs: [tab]))
        }
    }

    /// The window's groups by their Firefox id, with new identifiers.
    private mutating func groups(of window: FirefoxSessionFile.Window) -> [String: SessionArchive.Group] {
        var groups: [String: SessionArchive.Group] = [:]
        for source in window.groups ?? [] where groups[source.id] == nil {
            groups[source.id] = SessionArchive.Group(
                title: source.name ?? "", color: color(source.color), collapsed: source.collapsed ?? false)
        }
        return groups
    }

    /// The colour Firefox names `name`, or grey (counted) for an unknown one.
    mutating func color(_ name: String?) -> TabGroupColor {
        let name = name ?? "(none)"
        let color = TabGroupColor(firefoxName: name)
        if color == nil { tally.unknownColors[name, default: 0] += 1 }
        return color ?? .grey
    }

    /// The tabs in list order: pinned tabs first, then the others with each
    /// group's tabs moved up behind its first tab, as the store requires.
    /// Firefox keeps both rules itself, so a real file loses no order here.
    private static func listOrder(
        _ items: [(original: Int, tab: SessionArchive.Tab)], tally: inout Tally
    ) -> [(original: Int, tab: SessionArchive.Tab)] {
        let pinned = items.filter(\.tab.pinned)
        if let firstRegular = items.firstIndex(where: { !$0.tab.pinned }) {
            tally.movedTabs += items[firstRegular...].filter(\.tab.pinned).count
        }
        var runs: [[(original: Int, tab: SessionArchive.Tab)]] = []
        var runOfGroup: [TabGroupID: Int] = [:]
        for item in items where !item.tab.pinned {
            if let group = item.tab.group, let run = runOfGroup[group] {
                if run != runs.count - 1 { tally.movedTabs += 1 }
                runs[run].append(item)
            } else {
                if let group = item.tab.group { runOfGroup[group] = runs.count }
                runs.append([item])
            }
        }
        return pinned + runs.joined()
    }

    // MARK: - Tabs and entries

    /// The tab with the entries the store accepts, or `nil` when none is left.
    mutating func tab(_ source: FirefoxSessionFile.Tab, group: TabGroupID?) -> SessionArchive.Tab? {
        let time = Self.time(source.lastAccessed) ?? fallbackTime
        let sourceEntries = source.entries ?? []
        // SessionStore.sys.mjs restores entry `(index || entries.length) - 1`, kept within the entries.
        let oneBased = source.index.flatMap { $0 == 0 ? nil : $0 } ?? sourceEntries.count
        let requested = min(max(oneBased, 1) - 1, max(sourceEntries.count - 1, 0))
        var entries: [SessionArchive.Entry] = []
        var current = 0
        for (offset, sourceEntry) in sourceEntries.enumerated() {
            guard let entry = entry(sourceEntry, at: time) else {
                tally.refusedEntries += 1
                continue
            }
            if offset <= requested { current = entries.count }
            entries.append(entry)
        }
        guard !entries.isEmpty else { return nil }
        if entries.count > maximumEntries {
            let start = max(0, min(current - maximumEntries / 2, entries.count - maximumEntries))
            tally.trimmedEntries += entries.count - maximumEntries
            entries = Array(entries[start..<(start + maximumEntries)])
            current -= start
        }
        let pinned = source.pinned ?? false
        return SessionArchive.Tab(
            pinned: pinned, group: pinned ? nil : group, createdAt: time, lastActiveAt: time,
            history: SessionArchive.History(currentIndex: current, entries: entries))
    }

    /// The entry, or `nil` when the store refuses its URL (empty, too long, or
    /// holding a NUL). Titles lose NUL characters and are cut to the store's limit.
    private mutating func entry(_ source: FirefoxSessionFile.Entry, at time: Date) -> SessionArchive.Entry? {
        guard let url = source.url else { return nil }
        let title = StorableText.title(source.title ?? "")
        var referrer: String?
        if let candidate = source.referrer, !candidate.isEmpty {
            referrer = Self.plainURL(candidate)
            if referrer == nil { tally.droppedReferrers += 1 }
        }
        let item = NavigationItem(url: url, title: title, referrerURL: referrer, timestamp: time)
        guard let valid = try? item.validated() else { return nil }
        return SessionArchive.Entry(valid)
    }

    /// `text` if it is an absolute URL the store can keep.
    private static func plainURL(_ text: String) -> String? {
        guard !text.contains("\0"), text.utf8.count <= NavigationLimits.maximumURLLength,
              let url = URL(string: text), url.scheme != nil
        else { return nil }
        return text
    }
}

extension FirefoxArchiveBuilder {
    /// What was left out or changed, counted while building.
    struct Tally {
        var emptyTabs = 0
        var emptyClosedTabs = 0
        var emptyWindows = 0
        var refusedEntries = 0
        var trimmedEntries = 0
        var droppedReferrers = 0
        var unknownColors: [String: Int] = [:]
        var unknownGroup = 0
        var pinnedGrouped = 0
        var movedTabs = 0
        var unreadableGroups = 0
        var emptyClosedGroups = 0
        var emptySavedGroups = 0
        var keptGroupSplits = 0
        var brokenSplits = 0
        var unlistedSplits = 0

        /// One line per kind of thing, in a fixed order; empty when nothing was left out.
        var lines: [String] {
            var lines: [String] = []
            func add(_ verb: String, _ count: Int, _ one: String, _ many: String, _ rest: String = "") {
                guard count > 0 else { return }
                lines.append("\(verb) \(count) \(count == 1 ? one : many)" + (rest.isEmpty ? "" : " \(rest)"))
            }
            let noEntry = "with no history entry the store accepts"
            add("skipped", emptyTabs, "tab", "tabs", noEntry)
            add("skipped", emptyClosedTabs, "closed tab", "closed tabs", noEntry)
            add("skipped", emptyWindows, "window", "windows", "with no tab left")
            add("skipped", refusedEntries, "history entry", "history entries",
                "whose URL the store refuses (empty, too long or holding a NUL)")
            add("dropped", trimmedEntries, "history entry", "history entries", "beyond the store's limit per tab")
            add("dropped", droppedReferrers, "referrer", "referrers", "(not a plain URL)")
            for (name, count) in unknownColors.sorted(by: { $0.key < $1.key }) {
                let shown = name.count > 40 || name.contains(where: \.isNewline) ? "(unreadable)" : "\"\(name)\""
                add("made grey", count, "tab group", "tab groups", "of the unknown colour \(shown)")
            }
            add("ungrouped", unknownGroup, "tab", "tabs", "whose group is not in its window's group list")
            add("ungrouped", pinnedGrouped, "pinned tab", "pinned tabs", "(pinned tabs belong to no group)")
            add("moved", movedTabs, "tab", "tabs", "to keep pinned tabs first and each group together")
            add("dropped", brokenSplits, "split view", "split views",
                "that are not two neighbouring tabs, both pinned or neither, in one group (their tabs kept as single tabs)")
            add("dropped", unlistedSplits, "split view", "split views",
                "that their window's splitViews list lacks or gives other than two tabs (their tabs kept as single tabs)")
            add("dropped", keptGroupSplits, "split view", "split views",
                "of saved or closed tab groups (a saved or recently closed group keeps none; its tabs kept as single tabs)")
            add("skipped", unreadableGroups, "saved or closed tab group", "saved or closed tab groups", "(not an object)")
            add("skipped", emptyClosedGroups, "closed tab group", "closed tab groups", "with no tab left")
            add("skipped", emptySavedGroups, "saved tab group", "saved tab groups", "with no tab left")
            return lines
        }
    }
}
