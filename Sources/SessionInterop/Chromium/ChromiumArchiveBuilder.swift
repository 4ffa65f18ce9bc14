import Foundation
import SessionModel
import SessionStorage

/// Turns replayed Chromium tabs and windows into this store's document
/// values, so that every result passes ``SessionArchive/check(configuration:)``:
/// - history entries whose URL the store cannot keep are dropped (and a tab
///   left without entries is dropped); titles are cut to the store's limit;
///   a history longer than the store keeps is cut around the current entry;
/// - pinned tabs come first and belong to no group; a group's tabs are made
///   contiguous (gathered at its first tab); groups without tabs are dropped;
/// - a split view is kept only as two neighbouring tabs, both pinned or
///   neither, in one group (as Chromium restores only splits of two tabs);
///   others are dropped and counted, their tabs kept as single tabs;
/// - every tab, group and browser gets a new identifier (the same Chromium
///   group can appear in an open window and in a closed one);
/// - times the file lacks fall back to the file's modification time.
struct ChromiumArchiveBuilder {
    /// The time to use where the file gives none.
    let fallbackTime: Date
    /// The most entries a tab's history may hold.
    let maximumEntries: Int
    private var droppedEntries = 0
    private var droppedTabs = 0
    private var trimmedTabs = 0
    private var unknownColors: Set<UInt32> = []
    private var droppedSplits = 0
    private var resetRatios = 0
    /// The saved-group id of each group made from a group Chromium marks saved.
    private(set) var savedGroupIDs: [TabGroupID: String] = [:]

    /// Creates a builder using `fallbackTime` for missing times.
    init(fallbackTime: Date, maximumEntries: Int = NavigationLimits.defaultMaximumEntries) {
        self.fallbackTime = fallbackTime
        self.maximumEntries = maximumEntries
    }

    /// The document tab for `tab`, or `nil` when none of its entries can be kept.
    mutating func tab(_ tab: ChromiumRestoredTab) -> SessionArchive.Tab? {
        var entries: [SessionArchive.Entry] = []
        var current: Int?
        for (position, navigation) in tab.navigations.enumerated() {
            guard let entry = navigation.entry(fallbackTime: fallbackTime) else {
                droppedEntries += 1
                continue
            }
            if position <= tab.currentIndex { current = entries.count }
            entries.append(entry)
        }
        guard !entries.isEmpty else {
            droppedTabs += 1
            return nil
        }
        var currentIndex = current ?? 0
        if entries.count > maximumEntries {
            let start = min(max(0, currentIndex - maximumEntries / 2), entries.count - maximumEntries)
            entries = Array(entries[start..<(start + maximumEntries)])
            currentIndex -= start
            trimmedTabs += 1
        }
        let times = entries.map(\.timestamp)
        let createdAt = times.min()!
        let lastActiveAt = max(tab.lastActive ?? times.max()!, createdAt)
        return SessionArchive.Tab(
            pinned: tab.pinned, createdAt: createdAt, lastActiveAt: lastActiveAt,
            history: SessionArchive.History(currentIndex: currentIndex, entries: entries))
    }

    /// The document group for a Chromium group's visual data.
    mutating func group(_ visuals: ChromiumGroupVisuals) -> SessionArchive.Group {
        let color = TabGroupColor(chromiumColorID: visuals.color)
        if color == nil { unknownColors.insert(visuals.color) }
        let group = SessionArchive.Group(
            title: StorableText.title(visuals.title), color: color ?? .grey, collapsed: visuals.collapsed)
        if let guid = visuals.savedGUID { savedGroupIDs[group.id] = guid }
        return group
    }

    /// The document split for a Chromium split's visual data; a ratio outside 0…1 becomes 0.5 (counted).
    mutating func split(_ visuals: ChromiumSplitVisuals) -> SessionArchive.Split {
        let data = TabSplitVisualData(ratio: visuals.ratio, layout: visuals.layout)
        if data.ratio != visuals.ratio { resetRatios += 1 }
        return SessionArchive.Split(ratio: data.ratio, layout: data.layout)
    }

    /// The document browser for `window`, or `nil` when none of its tabs can be kept.
    mutating func browser(_ window: ChromiumRestoredWindow, closedEntry: ClosedEntryID? = nil) -> SessionArchive.Browser? {
        var converted: [(source: Int, tab: SessionArchive.Tab, group: ChromiumToken?, split: ChromiumToken?)] = []
        for (source, chromiumTab) in window.tabs.enumerated() {
            guard let tab = self.tab(chromiumTab) else { continue }
            converted.append((source, tab, tab.pinned ? nil : chromiumTab.group, chromiumTab.split))
        }
        guard !converted.isEmpty else { return nil }
        // Pinned tabs first; then each group gathered at its first tab.
        var ordered = converted.filter { $0.tab.pinned }
        var placed: Set<ChromiumToken> = []
        for item in converted where !item.tab.pinned {
            guard let token = item.group else {
                ordered.append(item)
                continue
            }
            guard placed.insert(token).inserted else { continue }
            ordered += converted.filter { !$0.tab.pinned && $0.group == token }
        }
        var groups: [SessionArchive.Group] = []
        var groupIDs: [ChromiumToken: TabGroupID] = [:]
        var tabs: [SessionArchive.Tab] = []
        for item in ordered {
            var tab = item.tab
            if let token = item.group {
                if groupIDs[token] == nil {
                    let group = self.group(window.groups[token] ?? ChromiumGroupVisuals())
                    groupIDs[token] = group.id
                    groups.append(group)
                }
                tab.group = groupIDs[token]
            }
            tabs.append(tab)
        }
        let splits = assignSplits(&tabs, tokens: ordered.map(\.split), visuals: window.splits)
        let active = ordered.first { $0.source == window.selectedIndex }?.tab.id ?? tabs.first?.id
        return SessionArchive.Browser(
            createdAt: tabs.map(\.createdAt).min()!, lastActiveAt: tabs.map(\.lastActiveAt).max()!, activeTab: active,
            closedEntry: closedEntry, groups: groups, splits: splits, tabs: tabs)
    }

    /// Gives the tabs of each split view their split (`tokens[i]` is the split
    /// token of `tabs[i]`) and returns the splits in list order. A split view
    /// that is not exactly two neighbouring tabs, both pinned or neither, in
    /// one group is dropped and counted; its tabs stay single tabs.
    private mutating func assignSplits(
        _ tabs: inout [SessionArchive.Tab], tokens: [ChromiumToken?], visuals: [ChromiumToken: ChromiumSplitVisuals]
    ) -> [SessionArchive.Split] {
        var splits: [SessionArchive.Split] = []
        for candidate in SplitCandidate.find(tokens, in: tabs) {
            guard candidate.isKeepable else {
                droppedSplits += 1
                continue
            }
            let split = self.split(visuals[candidate.key] ?? ChromiumSplitVisuals())
            for member in candidate.members { tabs[member].split = split.id }
            splits.append(split)
        }
        return splits
    }

    /// Notes for what was dropped or changed.
    func note(into notes: inout ChromiumReadNotes) {
        if droppedEntries > 0 {
            notes.note("skipped \(droppedEntries) history \(droppedEntries == 1 ? "entry" : "entries") "
                + "whose URL is empty, holds a NUL or is too long")
        }
        if droppedTabs > 0 {
            notes.note("skipped \(droppedTabs) \(droppedTabs == 1 ? "tab" : "tabs") left without a history entry")
        }
        if trimmedTabs > 0 {
            notes.note("cut the history of \(trimmedTabs) \(trimmedTabs == 1 ? "tab" : "tabs") to \(maximumEntries) entries")
        }
        if droppedSplits > 0 {
            notes.note("dropped \(droppedSplits) split \(droppedSplits == 1 ? "view" : "views") that "
                + "\(droppedSplits == 1 ? "is" : "are") not two neighbouring tabs, both pinned or neither, in one group "
                + "(the tabs kept as single tabs)")
        }
        if resetRatios > 0 {
            notes.note("used 0.5 for \(resetRatios) split \(resetRatios == 1 ? "ratio" : "ratios") outside 0 to 1")
        }
        if !unknownColors.isEmpty {
            let values = unknownColors.sorted().map(String.init).joined(separator: ", ")
            notes.note("used grey for the unknown group \(unknownColors.count == 1 ? "colour" : "colours") \(values)")
        }
    }
}
