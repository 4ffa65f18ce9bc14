import SessionConsumers
import SessionModel

extension TabStripSnapshot {
    /// What a tab strip shows of an observed list: one item per tab, in order.
    init(_ snapshot: WebStateListSnapshot) {
        // One pass over the list's tree, not a lookup by position per tab.
        let list = snapshot.list
        var items: [TabItem] = []
        items.reserveCapacity(list.count)
        for (index, (webState, groupID)) in zip(list.webStates, list.groupIDs).enumerated() {
            items.append(TabItem(snapshot, webState: webState, groupID: groupID, at: index))
        }
        self.init(browser: snapshot.browser, items: items)
    }
}

extension TabItem {
    /// The tab `webState`, at `index` of an observed list in `groupID`, as a tab strip shows it.
    init(_ snapshot: WebStateListSnapshot, webState: WebState, groupID: TabGroupID?, at index: Int) {
        let list = snapshot.list
        let page = snapshot.pages[webState.id]
        let group = groupID.flatMap { list.groups[$0] }.map(TabGroupItem.init)
        let split = list.splitID(of: webState.id).flatMap { list.splits[$0] }.map(TabSplitItem.init)
        self.init(
            id: webState.id, title: page?.title ?? "", url: page.map { $0.virtualURL ?? $0.url },
            faviconURL: page?.faviconURL, isPinned: list.isPinned(at: index), group: group,
            isActive: list.activeIndex == index, createdAt: webState.createdAt, lastActiveAt: webState.lastActiveAt,
            split: split)
    }
}

extension TabGroupItem {
    /// A group as a tab strip shows it.
    init(_ group: TabGroup) {
        self.init(
            id: group.id, title: group.visualData.title, color: group.visualData.color,
            isCollapsed: group.visualData.isCollapsed)
    }
}

extension TabSplitItem {
    /// A split as a tab strip shows it.
    init(_ split: TabSplit) {
        self.init(id: split.id, ratio: split.visualData.ratio, layout: split.visualData.layout)
    }
}
