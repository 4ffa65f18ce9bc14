import Foundation
import SessionModel
import SessionStorage

extension FirefoxArchiveBuilder {
    /// A saved group (the root `savedGroups`) or a window's closed group
    /// (`closedGroups`) with its tabs and their histories, in the file's
    /// order; `browser` is the imported browser of the window it was closed
    /// from, if any. Tabs with no usable history entry are skipped and counted.
    mutating func keptGroup(_ source: FirefoxSessionFile.ClosedGroup, browser: BrowserID?) -> ImportedTabGroup {
        let id = TabGroupID()
        var tabs: [SessionArchive.Tab] = []
        var keys: [FirefoxSessionFile.SplitViewID?] = []
        for closed in source.tabs ?? [] {
            guard let closed = closed.value, let tab = tab(closed.state, group: id) else {
                tally.emptyClosedTabs += 1
                continue
            }
            tabs.append(tab)
            keys.append(closed.state.splitViewId)
        }
        let splits = assignSplits(&tabs, keys: keys, views: source.splitViews)
        return ImportedTabGroup(
            id: id, title: source.name ?? "", color: color(source.color), collapsed: source.collapsed ?? false,
            saved: source.saved ?? false, closedAt: Self.time(source.closedAt), browser: browser, tabs: tabs,
            splits: splits)
    }

    /// The document's saved group for a Firefox saved group, or `nil` (counted) when no tab
    /// of it is left. Its split views are dropped (counted): a saved group keeps none.
    mutating func savedGroup(_ group: ImportedTabGroup) -> SessionArchive.SavedGroup? {
        guard !group.tabs.isEmpty else {
            tally.emptySavedGroups += 1
            return nil
        }
        tally.keptGroupSplits += group.splits.count
        return SessionArchive.SavedGroup(
            id: group.id, title: group.title, color: group.color, collapsed: group.collapsed,
            sourceBrowser: group.browser, savedAt: group.closedAt ?? fallbackTime, tabs: group.listlessTabs)
    }

    /// The document's recently closed group entry for a window's closed group, or `nil`
    /// (counted) when no tab of it is left. Its split views are dropped (counted): a
    /// recently closed entry keeps none.
    mutating func closedGroupEntry(_ group: ImportedTabGroup) -> SessionArchive.ClosedEntry? {
        guard !group.tabs.isEmpty else {
            tally.emptyClosedGroups += 1
            return nil
        }
        tally.keptGroupSplits += group.splits.count
        return SessionArchive.ClosedEntry(
            kind: .group, closedAt: group.closedAt ?? group.tabs.map(\.lastActiveAt).max() ?? fallbackTime,
            browser: group.browser,
            group: SessionArchive.Group(id: group.id, title: group.title, color: group.color, collapsed: group.collapsed),
            tabs: group.listlessTabs)
    }
}

extension ImportedTabGroup {
    /// The tabs as a saved group or a closed group entry holds them: unpinned, with no
    /// group or split of their own (the group holds them).
    var listlessTabs: [SessionArchive.Tab] {
        tabs.map { tab in
            var tab = tab
            tab.pinned = false
            tab.group = nil
            tab.split = nil
            tab.opener = nil
            return tab
        }
    }
}
