/// Which tabs belong to which split, in both directions.
///
/// Kept by ``WebStateList`` beside its ``TabSequence``: a split's tabs are found by
/// identifier, and their positions (always two neighbours) by rank queries.
struct TabSplitBook: Hashable, Sendable {
    /// The split of each tab that is in one.
    private(set) var splitByTab: [WebStateID: TabSplitID] = [:]
    /// The tabs of each split, in list order.
    private(set) var tabsBySplit: [TabSplitID: [WebStateID]] = [:]

    var isEmpty: Bool { tabsBySplit.isEmpty }

    /// The split of tab `id`, if any.
    func split(of id: WebStateID) -> TabSplitID? {
        splitByTab[id]
    }

    /// The tabs of `split`, in list order; empty for an unknown split.
    func tabs(of split: TabSplitID) -> [WebStateID] {
        tabsBySplit[split] ?? []
    }

    /// The other tab of `id`'s split, if `id` is in one.
    func partner(of id: WebStateID) -> WebStateID? {
        guard let split = splitByTab[id] else { return nil }
        return tabsBySplit[split]?.first { $0 != id }
    }

    /// Records `split` as holding `tabs`, in list order.
    mutating func add(_ split: TabSplitID, tabs: [WebStateID]) {
        tabsBySplit[split] = tabs
        for tab in tabs { splitByTab[tab] = split }
    }

    /// Forgets `split` and returns the tabs it held.
    @discardableResult
    mutating func remove(_ split: TabSplitID) -> [WebStateID] {
        let tabs = tabsBySplit.removeValue(forKey: split) ?? []
        for tab in tabs { splitByTab[tab] = nil }
        return tabs
    }

    /// Puts tab `new` where `old` was in its split, for a replaced tab.
    mutating func rename(_ old: WebStateID, to new: WebStateID) {
        guard let split = splitByTab.removeValue(forKey: old) else { return }
        splitByTab[new] = split
        tabsBySplit[split] = tabsBySplit[split]?.map { $0 == old ? new : $0 }
    }
}
