// MARK: - Removal

extension WebStateList {
    /// Removes the tab at `index` (a close or a detach: the list rules are the same).
    ///
    /// The next active tab is chosen as SEMANTICS.md, Removal, says; every tab
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
    /// The next active tab is decided before anything is removed (SEMANTICS.md,
    /// Removal, steps 1 to 6), so the change reports at most one change of
    /// active tab. Tabs whose opener is removed lose it; emptied groups are
    /// deleted.
    ///
    ///     "a | b [ 0 c* d ] e"   remove([2, 3])  ->  "a | b e*"
    ///     "a b | c* d"           remove(try indexesForClosingOthers(keeping: 3))  ->  "a b | d*"
    ///
    /// - Parameter indexes: The indexes to remove; an empty set changes nothing.
    /// - Returns: What changed.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if an index designates no tab.
    @discardableResult
    public mutating func remove(_ indexes: RemovingIndexes) throws -> WebStateListChange {
        try checkIndexes(indexes)
        guard !indexes.isEmpty else { return WebStateListChange() }

        let before = self
        // SEMANTICS.md, Removal: the next active tab is decided once, before removal.
        let nextActive = OrderController(source: self).nextActiveIndex(activeIndex: activeIndex, removing: indexes)
        let removedIDs = Set(indexes.map { webStates[$0].id })
        let removedPinned = indexes.filter { $0 < pinnedCount }.count

        for index in indexes.reversed() {
            webStates.remove(at: index)
            groupIDs.remove(at: index)
        }
        pinnedCount -= removedPinned
        activeIndex = nextActive.flatMap { indexes.indexAfterRemoval($0) }

        // SEMANTICS.md, Removal: every tab whose opener is removed loses it.
        for index in webStates.indices {
            if let opener = webStates[index].opener, removedIDs.contains(opener.openerID) {
                webStates[index].opener = nil
            }
        }
        // SEMANTICS.md, Invariants: an emptied group is deleted.
        for group in Set(indexes.compactMap { before.groupIDs[$0] }) { deleteGroupIfEmpty(group) }

        return WebStateListChange(from: before, to: self)
    }

    // MARK: - Bulk closes

    /// Returns every index: close all is one set removal (SEMANTICS.md, Removal).
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
