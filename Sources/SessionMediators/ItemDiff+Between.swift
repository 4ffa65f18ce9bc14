import SessionConsumers

extension ItemDiff {
    /// The diff that turns `old` into `new`, matching items by identifier.
    ///
    /// Items whose identifier is only in `old` are removed, those only in `new`
    /// inserted, and those in both updated when their value differs. Among the
    /// items kept, the longest run already in the right relative order stays
    /// put and every other one is moved once, right after its predecessor in
    /// `new`, so moving one tab gives one move.
    ///
    ///     old  a b c d   new  b c d a   ->  moved [a: 0 -> 3]
    ///
    /// - Precondition: Identifiers are unique within each list.
    static func between(_ old: [Item], _ new: [Item]) -> ItemDiff {
        let oldByID = Dictionary(old.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.map(\.id))

        var removed: [Removal] = []
        for index in old.indices.reversed() where !newIDs.contains(old[index].id) {
            removed.append(Removal(index: index, id: old[index].id))
        }

        // The kept items, as they stand after the removals and as they must end up.
        var current = old.map(\.id).filter { newIDs.contains($0) }
        let target = new.map(\.id).filter { oldByID[$0] != nil }
        let targetIndex = Dictionary(target.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let staying = Set(longestIncreasingSubsequence(current.map { targetIndex[$0]! }))

        var moved: [Move] = []
        for (position, id) in target.enumerated() where !staying.contains(position) {
            let from = current.firstIndex(of: id)!
            current.remove(at: from)
            let to = position == 0 ? 0 : current.firstIndex(of: target[position - 1])! + 1
            current.insert(id, at: to)
            moved.append(Move(id: id, from: from, to: to))
        }

        var inserted: [Placement] = []
        var updated: [Placement] = []
        for (index, item) in new.enumerated() {
            if let before = oldByID[item.id] {
                if before != item { updated.append(Placement(index: index, item: item)) }
            } else {
                inserted.append(Placement(index: index, item: item))
            }
        }
        return ItemDiff(removed: removed, moved: moved, inserted: inserted, updated: updated)
    }
}

/// The values of one longest strictly increasing subsequence of `values` (patience sorting).
func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
    // tails[k]: index in `values` of the smallest tail of an increasing run of length k + 1.
    var tails: [Int] = []
    var previous = [Int?](repeating: nil, count: values.count)
    for (index, value) in values.enumerated() {
        var low = 0, high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        previous[index] = low > 0 ? tails[low - 1] : nil
        if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var result: [Int] = []
    var cursor = tails.last
    while let index = cursor {
        result.append(values[index])
        cursor = previous[index]
    }
    return result.reversed()
}
