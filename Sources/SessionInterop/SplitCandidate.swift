import SessionStorage

/// The tabs of a browser's list that one browser split view names, found by
/// the split's key in the browser's file (a Firefox `splitViewId`, a Chromium
/// split token), and whether the store can keep them as a split: exactly two
/// neighbouring tabs, both pinned or neither, in the same group or in none
/// (<doc:TabListRules>, Splits).
struct SplitCandidate<Key: Hashable> {
    /// The split's key in the file.
    var key: Key
    /// The positions of its tabs in the list, in order.
    var members: [Int]
    /// Whether the store can keep it.
    var isKeepable: Bool

    /// The split views named by `keys` (`keys[i]` belongs to `tabs[i]`), in the
    /// order of their first tab.
    static func find(_ keys: [Key?], in tabs: [SessionArchive.Tab]) -> [SplitCandidate] {
        var positions: [Key: [Int]] = [:]
        var order: [Key] = []
        for (index, key) in keys.enumerated() {
            guard let key else { continue }
            if positions[key] == nil { order.append(key) }
            positions[key, default: []].append(index)
        }
        return order.map { key in
            let members = positions[key] ?? []
            let keepable = members.count == 2 && members[1] == members[0] + 1
                && tabs[members[0]].pinned == tabs[members[1]].pinned && tabs[members[0]].group == tabs[members[1]].group
            return SplitCandidate(key: key, members: members, isKeepable: keepable)
        }
    }
}
