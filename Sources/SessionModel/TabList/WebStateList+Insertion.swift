// MARK: - Insertion

extension WebStateList {
    /// Inserts a tab where <doc:TabListRules>, Insertion, puts it, and returns its index.
    ///
    /// 1. With ``InsertionParams/inheritingOpener()``, every opener in the list is
    ///    forgotten and the active tab (if any) becomes the opener, over any
    ///    explicit one.
    /// 2. With an opener and no explicit group, the tab joins the opener's group,
    ///    even if a pin was requested.
    /// 3. The allowed range is the group's (first tab to just past the last), the
    ///    pinned prefix, or the regular tabs.
    /// 4. A desired index wins; otherwise right after the opener's last current
    ///    child (circular scan), or right after the opener; otherwise the end.
    /// 5. An index outside the range becomes its end.
    /// 6. An insert strictly inside a group joins that group.
    /// 7. The active index shifts, then the tab is activated if asked.
    ///
    ///     "a | b c"              insert(X, .automatic())                 ->  "a | b c X"
    ///     "a | b c"              insert(X, .atIndex(0).pinned())         ->  "X a | b c"
    ///     "| a* b c" (b by a)    insert(X, .automatic().withOpener(a))   ->  "| a* b X c"
    ///
    /// ``InsertionParams/withOpener(_:)-(WebStateID)`` records the opener at its
    /// current history index, as Chromium's `WebStateOpener(opener)` does, so the
    /// new tab counts as the opener's child for later placements until the opener
    /// navigates away.
    ///     "| [ 0 a b ] c"        insert(X, .atIndex(1))                  ->  "| [ 0 a X b ] c"
    ///     "| [ 0 a b ] c"        insert(X, .atIndex(2))                  ->  "| [ 0 a b ] X c"
    ///
    /// The tab's own ``WebState/opener`` is used as the explicit opener when
    /// `params` has none; inheriting replaces it.
    ///
    /// - Parameters:
    ///   - webState: The tab to insert.
    ///   - params: Where and how to insert it.
    /// - Returns: The new tab's index, and what changed: the tab is inserted; with
    ///   ``InsertionParams/inheritingOpener()``, the tabs that lose their opener are updated.
    /// - Throws: ``WebStateListError/duplicateWebState(_:)`` if the tab is already in the list;
    ///   ``WebStateListError/pinnedAndGrouped`` if `params` asks for both a pin and a group;
    ///   ``WebStateListError/unknownGroup(_:)`` if the group is not in the list;
    ///   ``WebStateListError/unknownWebState(_:)`` if an explicit opener is not in the list.
    @discardableResult
    public mutating func insert(
        _ webState: WebState,
        params: InsertionParams
    ) throws -> (index: Int, change: WebStateListChange) {
        guard !tabs.contains(webState.id) else { throw WebStateListError.duplicateWebState(webState.id) }
        if params.pinned, params.group != nil { throw WebStateListError.pinnedAndGrouped }
        if let group = params.group { try checkGroup(group) }
        var explicitOpener = params.opener ?? webState.opener
        var openerIndex: Int?
        if !params.inheritOpener, let openerTab = params.openerTab {
            // Chromium's WebStateOpener(opener): the opener at its current history index.
            guard let index = index(of: openerTab) else { throw WebStateListError.unknownWebState(openerTab) }
            explicitOpener = WebStateOpener(openerID: openerTab, navigationIndex: tabs[index].navigationIndex)
            openerIndex = index
        } else if !params.inheritOpener, let explicitOpener {
            guard let index = index(of: explicitOpener.openerID) else {
                throw WebStateListError.unknownWebState(explicitOpener.openerID)
            }
            openerIndex = index
        }

        var change = WebStateListChange(inserted: [webState.id])
        let previousActiveID = activeWebState?.id
        var opener = explicitOpener
        if params.inheritOpener {
            // TabListRules.md, Insertion, step 1: forget every opener (the tabs that have one,
            // found through the opener lookup), then inherit the active tab.
            for id in tabs.tabsWithOpeners {
                guard let index = tabs.index(of: id) else { continue }
                tabs.update(at: index) { $0.opener = nil }
                change.updated.insert(id)
            }
            opener = activeWebState.map { WebStateOpener(openerID: $0.id, navigationIndex: $0.navigationIndex) }
            openerIndex = activeIndex
        }

        // TabListRules.md, Insertion, step 2: the opener's group, which wins over a pin.
        var group = params.group
        if group == nil, let openerIndex { group = tabs.groupID(at: openerIndex) }
        let pinned = params.pinned && group == nil

        // TabListRules.md, Insertion, step 3: the allowed range.
        // A deduced group is found from the opener outwards; an explicit one by a scan.
        let groupRange = group.flatMap { group in
            if let openerIndex, tabs.groupID(at: openerIndex) == group { return self.range(ofGroupAt: openerIndex) }
            return self.range(of: group)
        }
        let range: ClosedRange<Int>
        if let groupRange {
            range = groupRange.lowerBound...groupRange.upperBound
        } else if pinned {
            range = 0...pinnedCount
        } else {
            range = pinnedCount...count
        }

        // TabListRules.md, Insertion, steps 4 and 5.
        var newIndex = OrderController(source: self).insertionIndex(
            desiredIndex: params.desiredIndex, openerIndex: openerIndex, in: range
        )
        // TabListRules.md, Splits: never between a split's tabs; just after the split.
        if isInsideSplit(gap: newIndex) { newIndex += 1 }

        // TabListRules.md, Insertion, step 6: between two tabs of one group, join it.
        let previousGroup = newIndex > 0 ? tabs.groupID(at: newIndex - 1) : nil
        let nextGroup = newIndex < count ? tabs.groupID(at: newIndex) : nil
        if let previousGroup, previousGroup == nextGroup { group = previousGroup }

        var newWebState = webState
        newWebState.opener = opener
        tabs.insert(newWebState, group: group, at: newIndex)
        if pinned { pinnedCount += 1 }

        // TabListRules.md, Insertion, step 7: shift the active index, then activate if asked.
        if let active = activeIndex, active >= newIndex { activeIndex = active + 1 }
        if params.activate { activeIndex = newIndex }
        change.recordActive(from: previousActiveID, to: activeWebState?.id)

        return (newIndex, record(change))
    }
}
