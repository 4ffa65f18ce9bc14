// MARK: - Split views

extension WebStateList {
    /// Returns the split of the tab at `index`, if any.
    ///
    /// - Precondition: `index` is a valid index.
    public func splitID(at index: Int) -> TabSplitID? {
        splitBook.split(of: tabs[index].id)
    }

    /// Returns the split of the tab whose identifier is `id`, if any, in O(1).
    public func splitID(of id: WebStateID) -> TabSplitID? {
        splitBook.split(of: id)
    }

    /// Returns the indexes of the two tabs of `split`; `nil` if the list has no such split.
    ///
    ///     "| a {0 b c} d"  range(ofSplit: 0)  ->  1..<3
    public func range(ofSplit split: TabSplitID) -> Range<Int>? {
        guard let first = splitBook.tabs(of: split).first, let index = index(of: first) else { return nil }
        return index..<index + 2
    }

    /// The split that holds the active tab, if any: a split counts as active when either of its
    /// tabs is. The active tab itself stays one tab (``activeIndex``), the focused side.
    public var activeSplit: TabSplitID? {
        activeWebState.flatMap { splitBook.split(of: $0.id) }
    }

    /// Shows the tabs at `indexes` side by side as split `id`.
    ///
    /// The second tab (by index) moves right after the first and takes its pinned state
    /// and group; a group it empties is deleted. The active tab stays the same tab.
    ///
    ///     "| a b c d"         createSplit(at: [0, 2])  ->  "| {0 a c} b d"
    ///     "a | [ 0 b ] c"     createSplit(at: [0, 2])  ->  "a c | [ 0 b ]"
    ///
    /// - Parameters:
    ///   - indexes: The indexes of the two tabs, in any order.
    ///   - visualData: The split's ratio and layout.
    ///   - id: The new split's identifier.
    /// - Returns: The new split's identifier, and what changed: the split is created, both tabs
    ///   updated, the second moved if it changed place, a group it emptied deleted.
    /// - Throws: ``WebStateListError/splitNeedsTwoTabs(count:)`` unless `indexes` names two
    ///   different tabs; ``WebStateListError/indexOutOfRange(index:count:)`` if an index designates
    ///   no tab; ``WebStateListError/duplicateSplit(_:)`` if the list already has a split `id`;
    ///   ``WebStateListError/alreadyInSplit(_:)`` if either tab is in a split.
    @discardableResult
    public mutating func createSplit(
        at indexes: [Int],
        visualData: TabSplitVisualData = TabSplitVisualData(),
        id: TabSplitID = TabSplitID()
    ) throws -> (split: TabSplitID, change: WebStateListChange) {
        let members = Array(Set(indexes)).sorted()
        guard members.count == 2 else { throw WebStateListError.splitNeedsTwoTabs(count: members.count) }
        try checkIndexes(members)
        guard splits[id] == nil else { throw WebStateListError.duplicateSplit(id) }
        for index in members where splitBook.split(of: tabs[index].id) != nil {
            throw WebStateListError.alreadyInSplit(tabs[index].id)
        }
        // TabListRules.md, Splits, create: the second tab joins the first, on its right.
        let (first, second) = (members[0], members[1])
        let firstID = tabs[first].id
        let secondID = tabs[second].id
        var change = WebStateListChange(updated: [firstID, secondID], splitsCreated: [id])
        moveTab(
            from: second, to: first + 1, pinned: isPinned(at: first), group: tabs.groupID(at: first),
            recording: &change
        )
        splits[id] = TabSplit(id: id, visualData: visualData)
        splitBook.add(id, tabs: [firstID, secondID])
        return (id, record(change))
    }

    /// Sets the ratio and layout of split `id`.
    ///
    /// - Returns: What changed; empty if the visual data was already `visualData`.
    /// - Throws: ``WebStateListError/unknownSplit(_:)`` if the list has no such split.
    @discardableResult
    public mutating func updateSplit(_ id: TabSplitID, visualData: TabSplitVisualData) throws -> WebStateListChange {
        guard let split = splits[id] else { throw WebStateListError.unknownSplit(id) }
        guard split.visualData != visualData else { return WebStateListChange() }
        splits[id]?.visualData = visualData
        return record(WebStateListChange(splitsUpdated: [id]))
    }

    /// Ends split `id`; its tabs stay where they are, each on its own.
    ///
    ///     "| a {0 b* c} d"  removeSplit(0)  ->  "| a b* c d"
    ///
    /// - Returns: What changed: the split is deleted and its tabs updated.
    /// - Throws: ``WebStateListError/unknownSplit(_:)`` if the list has no such split.
    @discardableResult
    public mutating func removeSplit(_ id: TabSplitID) throws -> WebStateListChange {
        guard splits[id] != nil else { throw WebStateListError.unknownSplit(id) }
        splits[id] = nil
        let members = splitBook.remove(id)
        return record(WebStateListChange(updated: Set(members), splitsDeleted: [id]))
    }

    // MARK: - Keeping splits whole

    /// Ends every split that lost a tab in `removed`; the tab left behind is updated.
    mutating func endSplits(losing removed: [RemovedWebState], recording change: inout WebStateListChange) {
        for entry in removed {
            guard let split = splitBook.split(of: entry.webState.id) else { continue }
            splits[split] = nil
            for tab in splitBook.remove(split) where tabs.contains(tab) {
                change.updated.insert(tab)
            }
            change.splitsDeleted.insert(split)
        }
    }

    /// The range of the split that holds the tab at `index`, or `nil` if it is in none.
    func splitRange(at index: Int) -> Range<Int>? {
        guard let partner = splitBook.partner(of: tabs[index].id), let other = self.index(of: partner) else {
            return nil
        }
        return min(index, other)..<min(index, other) + 2
    }

    /// Whether position `index` (a gap before the tab at `index`) lies between the two tabs of a split.
    func isInsideSplit(gap index: Int) -> Bool {
        guard !splitBook.isEmpty, index > 0, index < count else { return false }
        let left = splitBook.split(of: tabs[index - 1].id)
        return left != nil && left == splitBook.split(of: tabs[index].id)
    }

    /// Adds the split partners of the tabs at `indexes`.
    func withSplitPartners(_ indexes: [Int]) -> [Int] {
        guard !splitBook.isEmpty else { return indexes }
        var result = Set(indexes)
        for index in indexes {
            if let partner = splitBook.partner(of: tabs[index].id), let other = self.index(of: partner) {
                result.insert(other)
            }
        }
        return Array(result)
    }
}
