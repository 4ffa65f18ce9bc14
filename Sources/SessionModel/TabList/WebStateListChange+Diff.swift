// MARK: - Computing a change from two states of a list

extension WebStateListChange {
    /// Describes what changed between `before` and `after`, two states of one list.
    ///
    /// This diff reads both lists whole (dictionaries of every identifier, then a longest
    /// increasing subsequence), so mutations do not use it: each computes its change directly.
    /// It serves ``between(_:_:moveHints:)`` and is the oracle the model's tests hold the
    /// mutations' changes to.
    ///
    /// `moveHints` names the tabs the mutation moved on purpose; among equally
    /// small answers, ``moved`` prefers them, so a single move reports the
    /// moved tab rather than the one it passed.
    init(from before: WebStateList, to after: WebStateList, moveHints: Set<WebStateID> = []) {
        self.init()
        var beforeIndexes: [WebStateID: Int] = [:]
        for (index, webState) in before.webStates.enumerated() { beforeIndexes[webState.id] = index }
        var afterIndexes: [WebStateID: Int] = [:]
        for (index, webState) in after.webStates.enumerated() { afterIndexes[webState.id] = index }

        for (index, webState) in before.webStates.enumerated() where afterIndexes[webState.id] == nil {
            removed.append(
                RemovedWebState(
                    webState: webState,
                    index: index,
                    wasPinned: before.isPinned(at: index),
                    groupID: before.groupID(at: index)
                )
            )
        }
        for (index, webState) in after.webStates.enumerated() {
            guard let oldIndex = beforeIndexes[webState.id] else {
                inserted.insert(webState.id)
                continue
            }
            if before.webStates[oldIndex] != webState
                || before.isPinned(at: oldIndex) != after.isPinned(at: index)
                || before.groupID(at: oldIndex) != after.groupID(at: index)
                || before.splitBook.split(of: webState.id) != after.splitBook.split(of: webState.id)
            {
                updated.insert(webState.id)
            }
        }

        let oldOrder = before.webStates.map(\.id).filter { afterIndexes[$0] != nil }
        let newOrder = after.webStates.map(\.id).filter { beforeIndexes[$0] != nil }
        moved = Self.minimalMoves(from: oldOrder, to: newOrder, preferring: moveHints)

        let oldGroups = Set(before.groups.keys)
        let newGroups = Set(after.groups.keys)
        groupsCreated = newGroups.subtracting(oldGroups)
        groupsDeleted = oldGroups.subtracting(newGroups)
        groupsUpdated = Set(
            oldGroups.intersection(newGroups).filter { before.groups[$0]?.visualData != after.groups[$0]?.visualData }
        )

        let oldSplits = Set(before.splits.keys)
        let newSplits = Set(after.splits.keys)
        splitsCreated = newSplits.subtracting(oldSplits)
        splitsDeleted = oldSplits.subtracting(newSplits)
        splitsUpdated = Set(
            oldSplits.intersection(newSplits).filter { before.splits[$0]?.visualData != after.splits[$0]?.visualData }
        )

        let oldActive = before.activeWebState?.id
        let newActive = after.activeWebState?.id
        if oldActive != newActive {
            activeChanged = true
            previousActiveID = oldActive
            newActiveID = newActive
        }
    }

    /// Returns a smallest set of tabs to call moved so that every other tab keeps its relative order.
    ///
    /// `oldOrder` and `newOrder` hold the same tabs. The kept tabs start as a longest common
    /// subsequence of the tabs outside `preferred`; then every tab that fits that subsequence in
    /// both orders is kept too, so no reported tab could be dropped.
    static func minimalMoves(
        from oldOrder: [WebStateID],
        to newOrder: [WebStateID],
        preferring preferred: Set<WebStateID>
    ) -> Set<WebStateID> {
        guard oldOrder != newOrder else { return [] }
        var oldPosition: [WebStateID: Int] = [:]
        for (index, id) in oldOrder.enumerated() { oldPosition[id] = index }

        // The longest increasing run of old positions, in new order, among the non-preferred tabs.
        let candidates = newOrder.filter { !preferred.contains($0) }
        var kept = Set(longestIncreasingSubsequence(candidates, key: { oldPosition[$0] ?? 0 }))

        // Add back any tab whose place among the kept ones is the same in both orders.
        for id in newOrder where !kept.contains(id) {
            let keptBeforeInOld = oldOrder.prefix(while: { $0 != id }).filter { kept.contains($0) }.count
            let keptBeforeInNew = newOrder.prefix(while: { $0 != id }).filter { kept.contains($0) }.count
            if keptBeforeInOld == keptBeforeInNew { kept.insert(id) }
        }
        return Set(newOrder).subtracting(kept)
    }

    /// Returns a longest subsequence of `elements` whose keys strictly increase.
    private static func longestIncreasingSubsequence(
        _ elements: [WebStateID],
        key: (WebStateID) -> Int
    ) -> [WebStateID] {
        var tails: [Int] = []  // tails[k]: index in `elements` ending the best run of length k + 1
        var previous = [Int](repeating: -1, count: elements.count)
        for (index, element) in elements.enumerated() {
            let value = key(element)
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if key(elements[tails[middle]]) < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: [WebStateID] = []
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            result.append(elements[cursor])
            cursor = previous[cursor]
        }
        return result.reversed()
    }
}
