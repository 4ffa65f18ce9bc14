// MARK: - Moving a tab

extension WebStateList {
    /// Moves the tab at `from` to `to`, keeping its pinned state.
    ///
    /// The target is clamped to the tab's own segment (pinned or regular). The
    /// tab stays in its group if the group's range contains the target;
    /// otherwise it joins the group shared by both of its neighbours once moved;
    /// otherwise it becomes ungrouped (an emptied group is deleted). The active
    /// tab follows the move. Moving to its own index changes nothing.
    ///
    /// A tab never lands between the two tabs of a split: it goes past the split in the
    /// direction it moves. Moving a tab of a split moves the split as a unit
    /// (<doc:TabListRules>, Splits): the pair starts at `to` when it moves left and ends
    /// at `to` when it moves right, clamped to its segment.
    ///
    ///     "a b | c* d e"         move(from: 2, to: 4)   ->  "a b | d e c*"
    ///     "a b | c d"            move(from: 3, to: 0)   ->  "a b | d c"
    ///     "| a [ 0 b c ] d"      move(from: 0, to: 1)   ->  "| [ 0 b a c ] d"
    ///     "| [ 0 a b c ] d"      move(from: 1, to: 3)   ->  "| [ 0 a c ] d b"
    ///
    /// - Parameters:
    ///   - from: The index of the tab to move.
    ///   - to: The index the tab should have once moved; clamped to its segment.
    /// - Returns: What changed; empty if the tab did not move. The tab (with its split partner)
    ///   is the only moved one; it is updated if it changed group, and a group it emptied is deleted.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if `from` designates no tab.
    @discardableResult
    public mutating func move(from: Int, to: Int) throws -> WebStateListChange {
        try checkIndex(from)
        if let split = splitRange(at: from) { return record(moveSplit(split, to: to)) }
        // TabListRules.md, Move and pin: clamp the target to the tab's own segment.
        let pinned = isPinned(at: from)
        var target = pinned ? min(max(to, 0), pinnedCount - 1) : min(max(to, pinnedCount), count - 1)
        // TabListRules.md, Move and pin: moving to its own index changes nothing.
        guard target != from else { return WebStateListChange() }
        // TabListRules.md, Splits: never between a split's tabs; go past the split.
        if from < target, isInsideSplit(gap: target + 1) { target += 1 }
        if from > target, isInsideSplit(gap: target) { target -= 1 }

        // TabListRules.md, Move and pin: stay in the group if its range holds the target,
        // else join the group both new neighbours share, else be ungrouped.
        var newGroup: TabGroupID?
        if let group = tabs.groupID(at: from), range(ofGroupAt: from).contains(target) {
            newGroup = group
        } else {
            let previous: TabGroupID?
            let next: TabGroupID?
            if from < target {
                previous = tabs.groupID(at: target)
                next = target + 1 < count ? tabs.groupID(at: target + 1) : nil
            } else {
                previous = target > 0 ? tabs.groupID(at: target - 1) : nil
                next = tabs.groupID(at: target)
            }
            if let previous, previous == next { newGroup = previous }
        }

        var change = WebStateListChange()
        moveTab(from: from, to: target, pinned: pinned, group: newGroup, recording: &change)
        return record(change)
    }

    // MARK: - Moving a split

    /// Moves the split whose tabs are at `split` as a unit, for ``move(from:to:)``.
    private mutating func moveSplit(_ split: Range<Int>, to: Int) -> WebStateListChange {
        let start = split.lowerBound
        let pinned = isPinned(at: start)
        // TabListRules.md, Splits, move: the pair starts at `to` moving left, ends there moving right.
        var target = to < start ? to : to > start + 1 ? to - 1 : start
        target = pinned ? min(max(target, 0), pinnedCount - 2) : min(max(target, pinnedCount), count - 2)
        guard target != start else { return WebStateListChange() }
        // Never between another split's tabs (in current positions, the pair lands before
        // `target` moving left, and before `target + 2` moving right).
        if target < start, isInsideSplit(gap: target) { target -= 1 }
        if target > start, isInsideSplit(gap: target + 2) { target += 1 }

        // The group, as for one tab: stay if the group's range holds the pair, else join the
        // group both new neighbours share.
        var newGroup: TabGroupID?
        let (left, right) = target < start ? (target - 1, target) : (target + 1, target + 2)
        if let group = tabs.groupID(at: start), case let range = range(ofGroupAt: start),
            range.lowerBound <= target, target + 1 < range.upperBound
        {
            newGroup = group
        } else if left >= 0, right < count, let previous = tabs.groupID(at: left), previous == tabs.groupID(at: right) {
            newGroup = previous
        }

        var change = WebStateListChange()
        if target < start {
            moveTab(from: start, to: target, pinned: pinned, group: newGroup, recording: &change)
            moveTab(from: start + 1, to: target + 1, pinned: pinned, group: newGroup, recording: &change)
        } else {
            moveTab(from: start + 1, to: target + 1, pinned: pinned, group: newGroup, recording: &change)
            moveTab(from: start, to: target, pinned: pinned, group: newGroup, recording: &change)
        }
        return change
    }

    // MARK: - Primitive move

    /// Moves one tab, setting its pinned state and group; the list's single move primitive.
    ///
    /// `to` is the tab's index once moved. The pinned count, the active index and
    /// the groups follow; the tab's old group is deleted if this empties it. The
    /// caller keeps the invariants (for example, never pins a grouped tab), and
    /// groups are contiguous when it is called.
    ///
    /// `change` gains what this step did: the tab is moved if its index changed
    /// (every other tab only shifts, so the others keep their order), updated if
    /// its pinned state or group changed, and an emptied group is deleted. A caller
    /// that moves several tabs passes the same change to every step, moving each
    /// tab at most once.
    mutating func moveTab(
        from: Int, to: Int, pinned: Bool, group: TabGroupID?, recording change: inout WebStateListChange
    ) {
        let wasPinned = from < pinnedCount
        let oldGroup = tabs.groupID(at: from)
        guard from != to || wasPinned != pinned || oldGroup != group else { return }

        // TabListRules.md, Invariants: an emptied group is deleted. Groups are contiguous, so the old
        // group empties exactly when neither neighbour of the tab belongs to it.
        var emptiedGroup: TabGroupID?
        if let oldGroup, oldGroup != group,
            from == 0 || tabs.groupID(at: from - 1) != oldGroup,
            from + 1 == count || tabs.groupID(at: from + 1) != oldGroup
        {
            emptiedGroup = oldGroup
        }

        if wasPinned != pinned { pinnedCount += pinned ? 1 : -1 }
        tabs.move(from: from, to: to, group: group)
        let webState = tabs[to]

        if let active = activeIndex {
            if active == from {
                activeIndex = to
            } else if min(from, to) <= active, active <= max(from, to) {
                activeIndex = active + (from < to ? -1 : 1)
            }
        }
        if from != to { change.moved.insert(webState.id) }
        if wasPinned != pinned || oldGroup != group { change.updated.insert(webState.id) }
        if let emptiedGroup {
            groups[emptiedGroup] = nil
            change.groupsDeleted.insert(emptiedGroup)
        }
    }
}
