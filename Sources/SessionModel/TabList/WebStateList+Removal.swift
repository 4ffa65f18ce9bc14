// MARK: - Removal

extension WebStateList {
    /// Removes the tab at `index` (a close or a detach: the list rules are the same).
    ///
    /// The next active tab is chosen as <doc:TabListRules>, Removal, says; every tab
    /// the removed one opened loses its opener; an emptied group is deleted.
    ///
    ///     "| a* b c" (c opened by a)   remove(at: 0)  ->  "| b c*"
    ///     "| a b* c"                   remove(at: 1)  ->  "| a c*"
    ///
    /// - Parameter index: The index of the tab to remove.
    /// - Returns: What changed.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if `index` designates no tab.
    @discardableResult
    public mutating func remove(at index: Int) throws -> WebStateListChange {
        try checkIndex(index)
        return try remove(RemovingIndexes([index]))
    }

    /// Removes a set of tabs at once, choosing the next active tab once for the whole set.
    ///
    /// The next active tab is decided before anything is removed (<doc:TabListRules>,
    /// Removal, steps 1 to 6), so the change reports at most one change of
    /// active tab. Tabs whose opener is removed lose it; emptied groups are
    /// deleted.
    ///
    ///     "a | b [ 0 c* d ] e"   remove([2, 3])  ->  "a | b e*"
    ///     "a b | c* d"           remove(try indexesForClosingOthers(keeping: 3))  ->  "a b | d*"
    ///
    /// - Parameter indexes: The indexes to remove; an empty set changes nothing.
    /// - Returns: What changed: the tabs removed (in index order, each with its index before
    ///   removal), the tabs that lose their opener updated, the emptied groups deleted.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if an index designates no tab.
    @discardableResult
    public mutating func remove(_ indexes: RemovingIndexes) throws -> WebStateListChange {
        try checkIndexes(indexes.indexes)
        guard !indexes.isEmpty else { return WebStateListChange() }

        // TabListRules.md, Removal: the next active tab is decided once, before removal.
        let previousActiveID = activeWebState?.id
        let nextActive = OrderController(source: self).nextActiveIndex(activeIndex: activeIndex, removing: indexes)
        let nextActiveID = nextActive.map { tabs[$0].id }

        var change = WebStateListChange()
        change.removed.reserveCapacity(indexes.count)
        var emptiedGroups: [TabGroupID] = []
        for index in indexes.indexes {
            let group = tabs.groupID(at: index)
            let removedWebState = RemovedWebState(
                webState: tabs[index], index: index, wasPinned: index < pinnedCount, groupID: group
            )
            change.removed.append(removedWebState)
            // TabListRules.md, Invariants: an emptied group is deleted. A group (contiguous) empties
            // only if its first tab is removed, and then only if all its tabs are.
            if let group, index == 0 || tabs.groupID(at: index - 1) != group,
                range(ofGroupAt: index).allSatisfy(indexes.contains)
            {
                emptiedGroups.append(group)
            }
        }

        let removedPinned = indexes.indexes.filter { $0 < pinnedCount }.count
        for index in indexes.indexes.reversed() { tabs.remove(at: index) }
        pinnedCount -= removedPinned
        activeIndex = nextActive.flatMap { indexes.indexAfterRemoval($0) }
        change.recordActive(from: previousActiveID, to: nextActiveID)

        // TabListRules.md, Removal: every tab whose opener is removed loses it (the removed tabs'
        // children, found through the opener lookup).
        for removed in change.removed {
            for index in tabs.childIndexes(ofOpener: removed.webState.id) {
                tabs.update(at: index) { $0.opener = nil }
                change.updated.insert(tabs[index].id)
            }
        }
        for group in emptiedGroups {
            groups[group] = nil
            change.groupsDeleted.insert(group)
        }
        return record(change)
    }

    // MARK: - Bulk closes

    /// Returns every index: close all is one set removal (<doc:TabListRules>, Removal).
    ///
    ///     "a | b* c"  remove(indexesForCloseAll())  ->  "|"
    public func indexesForCloseAll() -> RemovingIndexes {
        RemovingIndexes(range: 0..<count)
    }

    /// Returns the index of every regular (unpinned) tab.
    ///
    ///     "a | b* c"  remove(indexesForCloseAllRegular())  ->  "a* |"
    public func indexesForCloseAllRegular() -> RemovingIndexes {
        RemovingIndexes(range: pinnedCount..<count)
    }

    /// Returns the index of every tab of group `id`.
    ///
    ///     "| a [ 0 b* c ] d"  remove(try indexesForClosingGroup(0))  ->  "| a d*"
    ///
    /// - Throws: ``WebStateListError/unknownGroup(_:)`` if the list has no such group.
    public func indexesForClosingGroup(_ id: TabGroupID) throws -> RemovingIndexes {
        try checkGroup(id)
        return RemovingIndexes(range: range(of: id) ?? 0..<0)
    }

    /// Returns the index of every regular tab except the one kept; pinned tabs always stay.
    ///
    ///     "a | b c* d"  remove(try indexesForClosingOthers(keeping: 2))  ->  "a | c*"
    ///     "a* | b c"    remove(try indexesForClosingOthers(keeping: 0))  ->  "a* |"
    ///
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if `index` designates no tab.
    public func indexesForClosingOthers(keeping index: Int) throws -> RemovingIndexes {
        try checkIndex(index)
        return RemovingIndexes((pinnedCount..<count).filter { $0 != index })
    }
}
