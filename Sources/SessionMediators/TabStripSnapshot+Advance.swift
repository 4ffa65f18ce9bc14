import SessionConsumers
import SessionModel

extension TabStripSnapshot {
    /// The strip of `new` and its diff from `shown`, the strip of `old`, made in
    /// proportion to what changed rather than to the number of tabs.
    ///
    /// The tabs both lists begin and end with (by identifier) keep their place:
    /// each is compared with its old self through the model (its value, pinned
    /// state, group, whether it is active, its page), and only those that differ
    /// are made again. The window between them, where tabs were inserted, removed
    /// or moved, is diffed as ``ItemDiff/between(_:_:)`` would diff the whole
    /// strips. So a one-tab change to a 100,000-tab strip builds a few items and
    /// a window of the tabs it passed over, and the rest is a pass over identifiers.
    ///
    /// - Returns: `nil` when `shown` is not `old`'s strip.
    static func advancing(
        from old: WebStateListSnapshot, shown: TabStripSnapshot, to new: WebStateListSnapshot
    ) -> (strip: TabStripSnapshot, diff: TabStripDiff)? {
        let before = old.list, after = new.list
        guard old.browser == new.browser, shown.browser == new.browser, shown.items.count == before.count else { return nil }
        // Flat copies, one pass each: the comparisons below visit every position.
        let oldTabs = Array(before.webStates), newTabs = Array(after.webStates)
        let oldGroups = Array(before.groupIDs), newGroups = Array(after.groupIDs)
        let common = min(oldTabs.count, newTabs.count)
        var prefix = 0
        while prefix < common, oldTabs[prefix].id == newTabs[prefix].id { prefix += 1 }
        var suffix = 0
        while suffix < common - prefix, oldTabs[oldTabs.count - 1 - suffix].id == newTabs[newTabs.count - 1 - suffix].id {
            suffix += 1
        }

        // The window: diffed as whole strips are.
        let oldWindow = prefix..<(oldTabs.count - suffix)
        let newWindow = prefix..<(newTabs.count - suffix)
        let windowItems = newWindow.map { TabItem(new, webState: newTabs[$0], groupID: newGroups[$0], at: $0) }
        let window = TabStripDiff.between(Array(shown.items[oldWindow]), windowItems)
        var items = shown.items
        items.replaceSubrange(oldWindow, with: windowItems)

        // The tabs in place: made again only where the model says they may differ.
        let changedGroups = Set(after.groups.compactMap { id, group in before.groups[id] == group ? nil : id })
        let samePages = old.pages == new.pages
        var updated = window.updated.map { TabStripDiff.Placement(index: $0.index + prefix, item: $0.item) }
        func compare(old oldIndex: Int, new newIndex: Int) {
            let id = newTabs[newIndex].id
            let group = newGroups[newIndex]
            let mayDiffer = oldTabs[oldIndex] != newTabs[newIndex]
                || before.isPinned(at: oldIndex) != after.isPinned(at: newIndex)
                || oldGroups[oldIndex] != group
                || group.map(changedGroups.contains) == true
                || (before.activeIndex == oldIndex) != (after.activeIndex == newIndex)
                || (!samePages && old.pages[id] != new.pages[id])
            guard mayDiffer else { return }
            let item = TabItem(new, webState: newTabs[newIndex], groupID: group, at: newIndex)
            guard item != shown.items[oldIndex] else { return }
            items[newIndex] = item
            updated.append(TabStripDiff.Placement(index: newIndex, item: item))
        }
        for index in 0..<prefix { compare(old: index, new: index) }
        for offset in 0..<suffix { compare(old: oldTabs.count - 1 - offset, new: newTabs.count - 1 - offset) }
        updated.sort { $0.index < $1.index }

        let diff = TabStripDiff(
            removed: window.removed.map { .init(index: $0.index + prefix, id: $0.id) },
            moved: window.moved.map { .init(id: $0.id, from: $0.from + prefix, to: $0.to + prefix) },
            inserted: window.inserted.map { .init(index: $0.index + prefix, item: $0.item) },
            updated: updated)
        return (TabStripSnapshot(browser: new.browser, items: items), diff)
    }
}
