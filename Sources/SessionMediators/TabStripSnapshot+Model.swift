import SessionConsumers
import SessionModel

extension TabStripSnapshot {
    /// What a tab strip shows of an observed list: one item per tab, in order.
    init(_ snapshot: WebStateListSnapshot) {
        self.init(browser: snapshot.browser, items: snapshot.list.webStates.indices.map { TabItem(snapshot, at: $0) })
    }
}

extension TabItem {
    /// The tab at `index` of an observed list, as a tab strip shows it.
    init(_ snapshot: WebStateListSnapshot, at index: Int) {
        let list = snapshot.list
        let webState = list.webStates[index]
        let page = snapshot.pages[webState.id]
        let group = list.groupID(at: index).flatMap { list.groups[$0] }.map(TabGroupItem.init)
        self.init(
            id: webState.id, title: page?.title ?? "", url: page.map { $0.virtualURL ?? $0.url },
            faviconURL: page?.faviconURL, isPinned: list.isPinned(at: index), group: group,
            isActive: list.activeIndex == index, createdAt: webState.createdAt, lastActiveAt: webState.lastActiveAt)
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
