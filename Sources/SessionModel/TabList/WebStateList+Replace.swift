// MARK: - Replacement

extension WebStateList {
    /// Puts `webState` in place of the tab at `index` and returns the replaced tab.
    ///
    /// The new tab keeps the old one's pinned state and group, and has no
    /// opener (its own ``WebState/opener`` is dropped); tabs opened by the
    /// replaced tab lose their opener; if the replaced tab was active, the new
    /// one is.
    ///
    ///     "a | [ 0 b* c ] d"  replace(at: 1, with: X)  ->  "a | [ 0 X* c ] d"
    ///
    /// - Parameters:
    ///   - index: The index of the tab to replace.
    ///   - webState: The tab that takes its place.
    /// - Returns: The replaced tab, and what changed: the replaced tab removed, the new one
    ///   inserted, the tabs that lose their opener updated.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if `index` designates no tab;
    ///   ``WebStateListError/duplicateWebState(_:)`` if `webState` is already in the list.
    @discardableResult
    public mutating func replace(
        at index: Int,
        with webState: WebState
    ) throws -> (replaced: WebState, change: WebStateListChange) {
        try checkIndex(index)
        guard !tabs.contains(webState.id) else { throw WebStateListError.duplicateWebState(webState.id) }

        let replaced = tabs[index]
        var change = WebStateListChange(inserted: [webState.id])
        change.removed = [
            RemovedWebState(webState: replaced, index: index, wasPinned: isPinned(at: index), groupID: tabs.groupID(at: index))
        ]
        // TabListRules.md, Replace and activate: tabs opened by the replaced tab lose their opener
        // (found through the opener lookup).
        for other in tabs.childIndexes(ofOpener: replaced.id) {
            tabs.update(at: other) { $0.opener = nil }
            change.updated.insert(tabs[other].id)
        }
        // TabListRules.md, Replace and activate: same place, pinned state and group; no opener;
        // the new tab is active if the replaced one was.
        var newWebState = webState
        newWebState.opener = nil
        tabs.update(at: index) { $0 = newWebState }
        // TabListRules.md, Splits: the new tab takes the replaced one's place in its split.
        splitBook.rename(replaced.id, to: webState.id)
        if activeIndex == index { change.recordActive(from: replaced.id, to: webState.id) }
        return (replaced, record(change))
    }
}
