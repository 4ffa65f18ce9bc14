/// Decides where an inserted tab goes and which tab becomes active after a removal.
///
/// These are Chromium's order-controller rules (<doc:TabListRules>, Insertion, steps
/// 4 and 5, and Removal), run on any ``OrderControllerSource``. The controller
/// never changes the list; ``WebStateList`` applies its answers.
package struct OrderController<Source: OrderControllerSource> {
    /// The list the decisions are about.
    package let source: Source

    /// Creates a controller that reads `source`.
    package init(source: Source) {
        self.source = source
    }

    // MARK: - Insertion

    /// Returns the index at which a new tab is inserted.
    ///
    /// A desired index wins. Otherwise, with an opener, the tab goes right after
    /// the opener's last child, or right after the opener if it has none (the
    /// last child is found by a circular scan starting just after the opener;
    /// children whose recorded opener navigation index differs from the
    /// opener's current one do not count, nor do grandchildren). Otherwise, the
    /// end of the range. Any index outside `range` becomes `range.upperBound`.
    ///
    ///     "| a b c"    desired nil, opener a (b opened by a)   ->  2
    ///     "| a b c"    desired 9, range 0...3                   ->  3
    ///
    /// - Parameters:
    ///   - desiredIndex: The requested index, if any.
    ///   - openerIndex: The index of the new tab's opener, if any.
    ///   - range: The allowed insertion points, `upperBound` included.
    /// - Returns: An index in `range`.
    package func insertionIndex(desiredIndex: Int?, openerIndex: Int?, in range: ClosedRange<Int>) -> Int {
        var index: Int?
        if let desiredIndex {
            // TabListRules.md, Insertion, step 4: a desired index wins.
            index = desiredIndex
        } else if let openerIndex {
            // TabListRules.md, Insertion, step 4: after the opener's last child, or after the opener.
            index = (lastChild(of: openerIndex) ?? openerIndex) + 1
        }
        // TabListRules.md, Insertion, step 5: anything outside the range appends to it.
        guard let index, range.contains(index) else { return range.upperBound }
        return index
    }

    // MARK: - Next active tab

    /// Returns the index, before removal, of the tab that is active once `removing` is removed.
    ///
    /// Applies <doc:TabListRules>, Removal, steps 1 to 6, once for the whole set.
    ///
    ///     "| a* b c" (c opened by a)  removing [0]  ->  2 (the first child, c)
    ///     "| a b* c"                  removing [1]  ->  2 (the nearest after)
    ///
    /// - Parameters:
    ///   - activeIndex: The active index before removal, if any.
    ///   - removing: The indexes removed together.
    /// - Returns: The index before removal of the next active tab, or `nil` for none.
    package func nextActiveIndex(activeIndex: Int?, removing: RemovingIndexes) -> Int? {
        let count = source.count
        // TabListRules.md, Removal, step 1: no active tab, or every tab removed.
        guard let active = activeIndex, (0..<count).contains(active) else { return nil }
        let removedCount = removing.indexes.lazy.filter { (0..<count).contains($0) }.count
        guard removedCount < count else { return nil }

        // TabListRules.md, Removal, step 2: the active tab is not removed.
        if !removing.contains(active) { return active }

        // TabListRules.md, Removal, step 3: the first surviving child of the active tab.
        if let child = child(of: active, scanningAfter: active, removing: removing, checkNavigationIndex: false) {
            return child
        }

        // TabListRules.md, Removal, step 4: the first surviving sibling, else the opener itself.
        if let opener = source.opener(at: active), let openerIndex = index(of: opener.openerID) {
            if let sibling = child(
                of: openerIndex, scanningAfter: active, removing: removing, checkNavigationIndex: false
            ) {
                return sibling
            }
            if !removing.contains(openerIndex) { return openerIndex }
        }

        // TabListRules.md, Removal, step 5: first and last removed indexes in one group.
        if let first = removing.first, let last = removing.last,
            let group = source.groupID(at: first), source.groupID(at: last) == group,
            let range = source.range(of: group),
            let nearest = nearest(to: active, in: range, removing: removing, skippingCollapsed: false)
        {
            return nearest
        }

        // TabListRules.md, Removal, step 6: the nearest in the segment, outside collapsed groups
        // first; then the nearest in the segment; then the nearest in the other segment.
        let pinnedCount = source.pinnedCount
        let isPinned = active < pinnedCount
        let segment = isPinned ? 0..<pinnedCount : pinnedCount..<count
        let otherSegment = isPinned ? pinnedCount..<count : 0..<pinnedCount
        return nearest(to: active, in: segment, removing: removing, skippingCollapsed: true)
            ?? nearest(to: active, in: segment, removing: removing, skippingCollapsed: false)
            ?? nearest(to: active, in: otherSegment, removing: removing, skippingCollapsed: false)
    }

    // MARK: - Scans

    /// Returns the index of the tab whose identifier is `id`.
    private func index(of id: WebStateID) -> Int? {
        source.index(of: id)
    }

    /// Returns the first surviving child of the tab at `openerIndex` in a circular scan of the
    /// list that starts just after `start` (with `last`, the last one instead).
    ///
    /// With `checkNavigationIndex`, a child counts only if its recorded opener navigation index
    /// equals the opener's current one. Grandchildren never count. The children come from the
    /// source's opener lookup and are ranked by their distance from `start`: the list itself is
    /// not scanned.
    private func child(
        of openerIndex: Int,
        scanningAfter start: Int,
        removing: RemovingIndexes = [],
        checkNavigationIndex: Bool,
        last: Bool = false
    ) -> Int? {
        let count = source.count
        let openerNavigationIndex = source.navigationIndex(at: openerIndex)
        let children = source.childIndexes(ofOpener: source.id(at: openerIndex)).lazy.filter { index in
            if index == openerIndex || removing.contains(index) { return false }
            return !checkNavigationIndex || source.opener(at: index)?.navigationIndex == openerNavigationIndex
        }
        // The scan visits start + 1, start + 2, … (mod count).
        let distance = { (index: Int) in (index - start - 1 + count) % count }
        return last
            ? children.max { distance($0) < distance($1) }
            : children.min { distance($0) < distance($1) }
    }

    /// Returns the last child of the tab at `openerIndex` in a circular scan that starts just
    /// after it, counting only children opened at the opener's current navigation index.
    private func lastChild(of openerIndex: Int) -> Int? {
        child(of: openerIndex, scanningAfter: openerIndex, checkNavigationIndex: true, last: true)
    }

    /// Returns the surviving index of `range` nearest to `index`: the first after it, or only if
    /// there is none, the first before it. With `skippingCollapsed`, tabs of collapsed groups are
    /// skipped.
    private func nearest(
        to index: Int,
        in range: Range<Int>,
        removing: RemovingIndexes,
        skippingCollapsed: Bool
    ) -> Int? {
        func eligible(_ candidate: Int) -> Bool {
            if removing.contains(candidate) { return false }
            if skippingCollapsed, let group = source.groupID(at: candidate), source.isCollapsed(group: group) {
                return false
            }
            return true
        }
        let after = max(index + 1, range.lowerBound)
        if after < range.upperBound, let found = (after..<range.upperBound).first(where: eligible) {
            return found
        }
        let before = min(index, range.upperBound)
        if range.lowerBound < before, let found = (range.lowerBound..<before).reversed().first(where: eligible) {
            return found
        }
        return nil
    }
}
