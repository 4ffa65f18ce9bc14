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
}
