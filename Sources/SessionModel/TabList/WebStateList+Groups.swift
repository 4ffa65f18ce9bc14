// MARK: - Tab groups

extension WebStateList {
    /// Creates a group holding the tabs at `indexes`.
    ///
    /// Pinned members are unpinned and members of other groups leave them (an
    /// emptied group is deleted). The group is placed at a pivot: the first
    /// index; or the end of the pinned prefix if that tab was pinned; or just
    /// after the group that tab sat inside if it was not that group's first
    /// tab. Members left of the pivot are appended in order, then members right
    /// of it, so members keep their list order and every other tab keeps its
    /// order and its side of the pivot.
    ///
    ///     "| a b c d"             createGroup(at: [1, 3])  ->  "| a [ 1 b d ] c"
    ///     "a b | c d"             createGroup(at: [0, 2])  ->  "b | [ 1 a c ] d"
    ///     "| [ 0 a b c ] d"       createGroup(at: [1, 3])  ->  "| [ 0 a c ] [ 1 b d ]"
    ///     "| a [ 0 b c ] d"       createGroup(at: [1, 3])  ->  "| a [ 1 b d ] [ 0 c ]"
    ///
    /// - Parameters:
    ///   - indexes: The indexes of the members, in any order; duplicates count once.
    ///   - visualData: The new group's title, colour and collapsed state.
    ///   - id: The new group's identifier.
    /// - Returns: The new group's identifier, and what changed: the group is created, every
    ///   member updated, the members that changed place moved, emptied groups deleted.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if an index designates no tab;
    ///   ``WebStateListError/duplicateGroup(_:)`` if the list already has a group `id`;
    ///   ``WebStateListError/invalidState(_:)`` with ``WebStateListViolation/emptyGroup(_:)`` if
    ///   `indexes` is empty.
    @discardableResult
    public mutating func createGroup(
        at indexes: [Int],
        visualData: TabGroupVisualData,
        id: TabGroupID = TabGroupID()
    ) throws -> (group: TabGroupID, change: WebStateListChange) {
        try checkIndexes(indexes)
        guard groups[id] == nil else { throw WebStateListError.duplicateGroup(id) }
        // TabListRules.md, Splits: a split joins whole.
        let members = Array(Set(withSplitPartners(indexes))).sorted()
        guard let first = members.first else { throw WebStateListError.invalidState([.emptyGroup(id)]) }

        // TabListRules.md, Groups, create: the pivot.
        let pivot: Int
        if isPinned(at: first) {
            pivot = pinnedCount
        } else if let group = tabs.groupID(at: first), first > 0, tabs.groupID(at: first - 1) == group {
            pivot = range(ofGroupAt: first).upperBound
        } else {
            pivot = first
        }

        var change = WebStateListChange(groupsCreated: [id])
        groups[id] = TabGroup(id: id, visualData: visualData)
        gather(members, into: id, at: pivot..<pivot, recording: &change)
        return (id, record(change))
    }

    /// Sets the title, colour and collapsed state of group `id`.
    ///
    /// - Parameters:
    ///   - id: The group.
    ///   - visualData: Its new visual data.
    /// - Returns: What changed; empty if the visual data was already `visualData`.
    /// - Throws: ``WebStateListError/unknownGroup(_:)`` if the list has no such group.
    @discardableResult
    public mutating func updateGroup(_ id: TabGroupID, visualData: TabGroupVisualData) throws -> WebStateListChange {
        try checkGroup(id)
        guard groups[id]?.visualData != visualData else { return WebStateListChange() }
        groups[id]?.visualData = visualData
        return record(WebStateListChange(groupsUpdated: [id]))
    }

    /// Moves the tabs at `indexes` into group `group`.
    ///
    /// Tabs left of the group are appended to its end keeping their relative
    /// order, then tabs right of it likewise; pinned tabs are unpinned; tabs
    /// already inside stay put. Groups emptied on the way are deleted.
    ///
    ///     "a | b [ 0 c d ] e f"  moveToGroup([0, 1, 5], group: 0)  ->  "| [ 0 c d a b f ] e"
    ///
    /// - Parameters:
    ///   - indexes: The indexes of the tabs, in any order; duplicates count once.
    ///   - group: The group they join.
    /// - Returns: What changed: the tabs that join the group are updated, those that changed
    ///   place moved, emptied groups deleted.
    /// - Throws: ``WebStateListError/unknownGroup(_:)`` if the list has no such group;
    ///   ``WebStateListError/indexOutOfRange(index:count:)`` if an index designates no tab.
    @discardableResult
    public mutating func moveToGroup(_ indexes: [Int], group: TabGroupID) throws -> WebStateListChange {
        try checkGroup(group)
        try checkIndexes(indexes)
        guard let range = range(of: group) else { throw WebStateListError.unknownGroup(group) }
        var change = WebStateListChange()
        gather(Array(Set(withSplitPartners(indexes))).sorted(), into: group, at: range, recording: &change)
        return record(change)
    }

    /// Takes the tabs at `indexes` out of their groups.
    ///
    /// Each tab leaves its group and lands just after it; the tabs keep their
    /// order. Pinned and ungrouped tabs are unaffected. Emptied groups are deleted.
    ///
    ///     "| [ 0 a b c ] d"  removeFromGroups([0, 1])  ->  "| [ 0 c ] a b d"
    ///
    /// - Parameter indexes: The indexes of the tabs, in any order.
    /// - Returns: What changed: the tabs that leave a group are updated, those that changed
    ///   place moved, emptied groups deleted.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if an index designates no tab.
    @discardableResult
    public mutating func removeFromGroups(_ indexes: [Int]) throws -> WebStateListChange {
        try checkIndexes(indexes)
        var change = WebStateListChange()
        // TabListRules.md, Groups, remove: from the last, each tab lands just after its group.
        for index in Set(withSplitPartners(indexes)).sorted(by: >) where tabs.groupID(at: index) != nil {
            let target = range(ofGroupAt: index).upperBound - 1
            moveTab(from: index, to: target, pinned: false, group: nil, recording: &change)
        }
        return record(change)
    }

    /// Moves the whole group `id` so that it starts before the tab at `index`.
    ///
    /// The target is clamped to the regular tabs; a target inside another group
    /// snaps to that group's start; a target inside or just after the group
    /// itself changes nothing. The active tab stays the same tab.
    ///
    ///     "| [ 0 a b ] c d"      moveGroup(0, before: 4)  ->  "| c d [ 0 a b ]"
    ///     "| a [ 1 b c ] [ 0 d ]"  moveGroup(0, before: 2)  ->  "| a [ 0 d ] [ 1 b c ]"
    ///     "a | b [ 0 c ]"        moveGroup(0, before: 0)  ->  "a | [ 0 c ] b"
    ///
    /// - Parameters:
    ///   - id: The group to move.
    ///   - index: The index of the tab the group should precede; `count` for the end.
    /// - Returns: What changed; the group's tabs are the moved ones.
    /// - Throws: ``WebStateListError/unknownGroup(_:)`` if the list has no such group.
    @discardableResult
    public mutating func moveGroup(_ id: TabGroupID, before index: Int) throws -> WebStateListChange {
        try checkGroup(id)
        guard let range = range(of: id) else { throw WebStateListError.unknownGroup(id) }
        // TabListRules.md, Groups, move: clamp to the regular tabs, snap to a group's start.
        var target = min(max(index, pinnedCount), count)
        if target < count, tabs.groupID(at: target) != nil {
            target = self.range(ofGroupAt: target).lowerBound
        }
        // TabListRules.md, Splits: never between a split's tabs.
        if isInsideSplit(gap: target) { target -= 1 }
        // TabListRules.md, Groups, move: inside or just after the group itself changes nothing.
        if range.lowerBound <= target, target <= range.upperBound { return WebStateListChange() }

        let moving = range.reversed().map { tabs.remove(at: $0) }.reversed()
        let destination = target > range.lowerBound ? target - range.count : target
        for (offset, tab) in moving.enumerated() {
            tabs.insert(tab.webState, group: tab.group, at: destination + offset)
        }
        // The active tab stays the same tab: it moves with the group or shifts past it.
        if let active = activeIndex {
            if range.contains(active) {
                activeIndex = destination + (active - range.lowerBound)
            } else {
                let shifted = active < range.lowerBound ? active : active - range.count
                activeIndex = shifted >= destination ? shifted + range.count : shifted
            }
        }
        return record(WebStateListChange(moved: Set(moving.lazy.map(\.webState.id))))
    }

    /// Deletes group `id`; its tabs stay where they are, ungrouped.
    ///
    /// Nothing is closed and the active tab does not change.
    ///
    ///     "| a [ 0 b* c ] d"  deleteGroup(0)  ->  "| a b* c d"
    ///
    /// - Parameter id: The group to delete.
    /// - Returns: What changed: the group is deleted and its tabs updated.
    /// - Throws: ``WebStateListError/unknownGroup(_:)`` if the list has no such group.
    @discardableResult
    public mutating func deleteGroup(_ id: TabGroupID) throws -> WebStateListChange {
        try checkGroup(id)
        var change = WebStateListChange(groupsDeleted: [id])
        for index in range(of: id) ?? 0..<0 {
            tabs.setGroupID(nil, at: index)
            change.updated.insert(tabs[index].id)
        }
        groups[id] = nil
        return record(change)
    }

    // MARK: - Gathering tabs into a group

    /// Moves the tabs at `members` (ascending) into `group`, whose tabs occupy `range` (possibly
    /// empty, at a pivot), recording each step in `change`.
    ///
    /// <doc:TabListRules>, Groups, move into: tabs left of the range are appended to its end, from the
    /// rightmost so indexes stay valid; then tabs right of it, in order. Tabs inside stay put.
    /// Each member moves once, so `change` reports as moved exactly the members that passed
    /// another tab.
    private mutating func gather(
        _ members: [Int], into group: TabGroupID, at range: Range<Int>, recording change: inout WebStateListChange
    ) {
        let left = members.filter { $0 < range.lowerBound }
        let right = members.filter { $0 >= range.upperBound }
        var target = range.upperBound - 1
        for index in left.reversed() {
            moveTab(from: index, to: target, pinned: false, group: group, recording: &change)
            target -= 1
        }
        target = range.upperBound
        for index in right {
            moveTab(from: index, to: target, pinned: false, group: group, recording: &change)
            target += 1
        }
    }
}
