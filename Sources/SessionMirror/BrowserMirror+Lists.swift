import Foundation
import SessionModel
import SessionStorage

extension BrowserMirror {
    /// Writes a window's tabs as the browser shows them: their order, pinned
    /// tabs, groups (title, colour, collapsed), split views and the active tab.
    /// Tabs the store has and the window no longer shows are closed (recently
    /// closed tabs); new ones are added with their opener, when it is in the same
    /// window.
    ///
    /// Between two events a browser may report a state the store's rules refuse
    /// (a group's tabs not yet together, a pinned tab not yet moved to the front):
    /// such a tab is written ungrouped or unpinned until the events that follow
    /// put it right.
    func reconcile(_ window: Int) throws {
        guard let browser = memory.browserOf[window], let order = memory.state.windows[window] else { return }
        // Tabs detached from this window and not yet attached elsewhere stay, at the end, until they are.
        let inTransit = memory.detached.filter { $0.value.from == window }.keys.compactMap { memory.tabOf[$0] }
        try lists.update(browser) { list in
            let target = try target(for: order, in: window, current: list, keeping: Set(inTransit))
            if target != list { list = target }
        }
    }

    /// The list the window's tabs make, reusing the store's tab values (their
    /// creation time, history index and opener) for tabs it knows.
    private func target(
        for order: [Int], in window: Int, current: WebStateList, keeping inTransit: Set<WebStateID>
    ) throws -> WebStateList {
        var known: [WebStateID: WebState] = [:]
        for webState in current.webStates { known[webState.id] = webState }
        var webStates: [WebState] = []
        var groupIDs: [TabGroupID?] = []
        var groups: [TabGroupID: TabGroup] = [:]
        var pinnedCount = 0
        var finishedGroups: Set<TabGroupID> = []
        var activeIndex: Int?
        var written: [Int] = []
        let ids = order.map { webStateID(forTab: $0) }
        let inWindow = Set(ids)
        for (position, tabID) in order.enumerated() {
            guard let tab = memory.state.tabs[tabID] else { continue }
            let id = ids[position]
            var webState = known[id] ?? WebState(id: id, createdAt: now())
            if let openerTab = tab.openerTabId, let opener = memory.tabOf[openerTab], opener != id, inWindow.contains(opener) {
                if webState.opener?.openerID != opener { webState.opener = WebStateOpener(openerID: opener) }
            } else if let opener = webState.opener?.openerID, !inWindow.contains(opener) {
                webState.opener = nil
            }
            let index = webStates.count
            // Pinned tabs form a prefix, in no group.
            let pinned = tab.pinned && pinnedCount == index
            if pinned { pinnedCount += 1 }
            var group: TabGroupID?
            // A group another window holds now (it is being moved there) is not this window's.
            if !pinned, let browserGroup = tab.groupId, (memory.state.groups[browserGroup]?.windowId ?? window) == window {
                let id = groupID(for: browserGroup)
                // A group's tabs are together: a tab after its group ended is written ungrouped.
                if !finishedGroups.contains(id) {
                    group = id
                    let described = memory.state.groups[browserGroup]
                    groups[id] = TabGroup(id: id, visualData: TabGroupVisualData(
                        title: described?.title ?? "", color: Self.color(described?.color),
                        isCollapsed: described?.collapsed ?? false))
                }
            }
            if let previous = groupIDs.last ?? nil, previous != group { finishedGroups.insert(previous) }
            if memory.state.active[window] == tabID { activeIndex = index }
            webStates.append(webState)
            groupIDs.append(group)
            written.append(tabID)
        }
        for id in current.webStates.map(\.id) where inTransit.contains(id) && !inWindow.contains(id) {
            var webState = known[id]!
            webState.opener = nil
            webStates.append(webState)
            groupIDs.append(nil)
        }
        // Openers point into the list (an opener in transit is not).
        let listed = Set(webStates.map(\.id))
        for index in webStates.indices where webStates[index].opener.map({ !listed.contains($0.openerID) }) == true {
            webStates[index].opener = nil
        }
        // Tabs in transit (after the window's own) are in no split.
        let (splitIDs, splits) = splits(
            for: written, in: window, pinnedCount: pinnedCount, groupIDs: groupIDs, current: current)
        return try WebStateList(
            webStates: webStates, pinnedCount: pinnedCount, groupIDs: groupIDs, groups: Array(groups.values),
            splitIDs: splitIDs, splits: splits, activeIndex: activeIndex)
    }

    /// The store's group for a browser group, a new identifier when it has none.
    func groupID(for group: Int) -> TabGroupID {
        if let known = memory.groupOf[group] { return known }
        let made = TabGroupID()
        memory.groupOf[group] = made
        return made
    }

    /// A browser's group colour name as the store's colour (Firefox may say `gray`).
    static func color(_ name: String?) -> TabGroupColor {
        guard let name else { return .grey }
        return TabGroupColor(rawValue: name == "gray" ? "grey" : name) ?? .grey
    }
}
