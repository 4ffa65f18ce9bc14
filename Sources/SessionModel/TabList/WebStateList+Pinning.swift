// MARK: - Pinning

extension WebStateList {
    /// Pins or unpins the tab at `index` and returns where it lands.
    ///
    /// Pinning moves the tab to the end of the pinned prefix and takes it out of
    /// its group (an emptied group is deleted); unpinning moves it to the end of
    /// the list. Pinning a pinned tab or unpinning a regular one changes nothing. A tab of
    /// a split takes its partner along, in the same order.
    ///
    ///     "a | b c* d"        setPinned(true, at: 2)   ->  "a c* | b d"     (index 1)
    ///     "a* b | c"          setPinned(false, at: 0)  ->  "b | c a*"       (index 2)
    ///     "| [ 0 a b ] c"     setPinned(true, at: 1)   ->  "b | [ 0 a ] c"  (index 0)
    ///
    /// - Parameters:
    ///   - pinned: Whether the tab should be pinned.
    ///   - index: The index of the tab.
    /// - Returns: The tab's index afterwards, and what changed: the tab is updated, and moved
    ///   unless it was already where it lands; a group it emptied is deleted.
    /// - Throws: ``WebStateListError/indexOutOfRange(index:count:)`` if `index` designates no tab.
    @discardableResult
    public mutating func setPinned(_ pinned: Bool, at index: Int) throws -> (index: Int, change: WebStateListChange) {
        try checkIndex(index)
        // TabListRules.md, Move and pin: pinning a pinned tab or unpinning a regular one changes nothing.
        guard pinned != isPinned(at: index) else { return (index, WebStateListChange()) }
        // TabListRules.md, Move and pin: to the end of the pinned prefix, or to the end of the list.
        let target = pinned ? pinnedCount : count - 1
        var change = WebStateListChange()
        if let split = splitRange(at: index) {
            // TabListRules.md, Splits: both tabs, in their order.
            let id = tabs[index].id
            if pinned {
                moveTab(from: split.lowerBound, to: target, pinned: true, group: nil, recording: &change)
                moveTab(from: split.lowerBound + 1, to: target + 1, pinned: true, group: nil, recording: &change)
            } else {
                moveTab(from: split.lowerBound + 1, to: target, pinned: false, group: nil, recording: &change)
                moveTab(from: split.lowerBound, to: target - 1, pinned: false, group: nil, recording: &change)
            }
            let change = record(change)
            return (self.index(of: id) ?? target, change)
        }
        moveTab(from: index, to: target, pinned: pinned, group: nil, recording: &change)
        return (target, record(change))
    }
}
