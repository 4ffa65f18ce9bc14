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
        // The lists are trees: every pass below walks them in order, O(1) per step, with no copy.
        let oldTabs = before.webStates, newTabs = after.webStates
        let oldCount = oldTabs.count, newCount = newTabs.count
        let common = min(oldCount, newCount)
        var prefix = 0
        for (oldTab, newTab) in zip(oldTabs, newTabs) {
            guard prefix < common, oldTab.id == newTab.id else { break }
            prefix += 1
        }
        var suffix = 0
        for (oldTab, newTab) in zip(oldTabs.reversedElements, newTabs.reversedElements) {
            guard suffix < common - prefix, oldTab.id == newTab.id else { break }
            suffix += 1
        }

        // The window: diffed as whole strips are.
        let oldWindow = prefix..<(oldCount - suffix)
        let newWindow = prefix..<(newCount - suffix)
        var windowTabs = newTabs.makeIterator(from: prefix)
        var windowGroups = after.groupIDs.makeIterator(from: prefix)
        let windowItems = newWindow.map { index in
            TabItem(new, webState: windowTabs.next()!, groupID: windowGroups.next()!, at: index)
        }
        let window = TabStripDiff.between(Array(shown.items[oldWindow]), windowItems)
        var items = shown.items
        items.replaceSubrange(oldWindow, with: windowItems)

        // The tabs in place: made again only where the model says they may differ.
        let changedGroups = Set(after.groups.compactMap { id, group in before.groups[id] == group ? nil : id })
        let samePages = old.pages == new.pages
        let hasSplits = !before.splits.isEmpty || !after.splits.isEmpty
        let changedSplits = Set(after.splits.compactMap { id, split in before.splits[id] == split ? nil : id })
        var updated = window.updated.map { TabStripDiff.Placement(index: $0.index + prefix, item: $0.item) }
        /// Compares `length` tabs in place, from `oldStart` in the old list and `newStart` in the new.
        func compare(length: Int, oldStart: Int, newStart: Int) {
            guard length > 0 else { return }
            var oldTabIterator = oldTabs.makeIterator(from: oldStart)
            var oldGroupIterator = before.groupIDs.makeIterator(from: oldStart)
            var newTabIterator = newTabs.makeIterator(from: newStart)
            var newGroupIterator = after.groupIDs.makeIterator(from: newStart)
            for offset in 0..<length {
                let oldTab = oldTabIterator.next()!, oldGroup = oldGroupIterator.next()!
                let newTab = newTabIterator.next()!, group = newGroupIterator.next()!
                let oldIndex = oldStart + offset, newIndex = newStart + offset
                let mayDiffer = oldTab != newTab
                    || before.isPinned(at: oldIndex) != after.isPinned(at: newIndex)
                    || oldGroup != group
                    || group.map(changedGroups.contains) == true
                    || (before.activeIndex == oldIndex) != (after.activeIndex == newIndex)
                    || (!samePages && old.pages[newTab.id] != new.pages[newTab.id])
                    || (hasSplits && before.splitID(of: oldTab.id) != after.splitID(of: newTab.id))
                    || (hasSplits && after.splitID(of: newTab.id).map(changedSplits.contains) == true)
                guard mayDiffer else { continue }
                let item = TabItem(new, webState: newTab, groupID: group, at: newIndex)
                guard item != shown.items[oldIndex] else { continue }
                items[newIndex] = item
                updated.append(TabStripDiff.Placement(index: newIndex, item: item))
            }
        }
        compare(length: prefix, oldStart: 0, newStart: 0)
        compare(length: suffix, oldStart: oldCount - suffix, newStart: newCount - suffix)
        updated.sort { $0.index < $1.index }

        let diff = TabStripDiff(
            removed: window.removed.map { .init(index: $0.index + prefix, id: $0.id) },
            moved: window.moved.map { .init(id: $0.id, from: $0.from + prefix, to: $0.to + prefix) },
            inserted: window.inserted.map { .init(index: $0.index + prefix, item: $0.item) },
            updated: updated)
        return (TabStripSnapshot(browser: new.browser, items: items), diff)
    }
}
