import Foundation
import SessionModel

/// Split views. The browser gives each tab of a split view its `splitViewId`
/// (Chromium and Firefox, `tabs.Tab.splitViewId`); two neighbouring tabs of a
/// window that share one are a store split (``TabSplit``), under an identifier
/// kept for as long as the host runs (and matched again by a snapshot, as groups
/// are). A split view that disappears ends the store split; its tabs stay.
///
/// Neither browser tells an extension a split's ratio or layout: a new split is
/// 0.5, side by side, and a split the store knows keeps what it had.
///
/// A browser that never reports a tab's split view (one without the API) keeps
/// the store's splits of its windows while their tabs stay neighbours.
///
/// A split view the store cannot hold is left out and noted (``takeNotes()``):
/// more than two tabs, tabs that are not neighbours, or tabs that differ in
/// pinned state or group. A split view with one tab so far is a split being
/// made or ended, one event at a time: no split, and no note.
extension BrowserMirror {
    /// A browser split view: split ids are the browser's, kept apart per window.
    struct SplitKey: Hashable {
        var window: Int
        var split: Int
    }

    /// How many split views were left out since the host started.
    package var ignoredSplitCount: Int { memory.ignoredSplitTotal }

    /// What happened that the host's log should say, oldest first; taken, not kept.
    package func takeNotes() -> [String] {
        defer { memory.notes.removeAll() }
        return memory.notes
    }

    /// The split of each tab of a window's target list (parallel to `webStates`), and the splits.
    ///
    /// - Parameters:
    ///   - order: The browser tabs written, the first `order.count` tabs of the list.
    ///   - pinnedCount: How many tabs of the list are pinned.
    ///   - groupIDs: Each tab's group in the list.
    ///   - current: The stored list, whose splits keep their ratio and layout.
    func splits(
        for order: [Int], in window: Int, pinnedCount: Int, groupIDs: [TabGroupID?], current: WebStateList
    ) -> (splitIDs: [TabSplitID?], splits: [TabSplit]) {
        guard order.contains(where: { memory.state.tabs[$0]?.splitReported == true }) else {
            return keptSplits(for: order, pinnedCount: pinnedCount, groupIDs: groupIDs, current: current)
        }
        var members: [Int: [Int]] = [:]
        for (index, tab) in order.enumerated() {
            if let split = memory.state.tabs[tab]?.splitViewId { members[split, default: []].append(index) }
        }
        var splitIDs = [TabSplitID?](repeating: nil, count: groupIDs.count)
        var splits: [TabSplit] = []
        for (split, indexes) in members.sorted(by: { $0.key < $1.key }) {
            let key = SplitKey(window: window, split: split)
            guard indexes.count > 1 else { continue }
            if let reason = Self.refusal(indexes, pinnedCount: pinnedCount, groupIDs: groupIDs) {
                if memory.ignoredSplits.insert(key).inserted {
                    memory.ignoredSplitTotal += 1
                    memory.notes.append("split view \(split) of window \(window) not mirrored: \(reason)")
                }
                continue
            }
            memory.ignoredSplits.remove(key)
            let id = memory.splitOf[key] ?? TabSplitID()
            memory.splitOf[key] = id
            splits.append(TabSplit(id: id, visualData: current.splits[id]?.visualData ?? TabSplitVisualData()))
            for index in indexes { splitIDs[index] = id }
        }
        // Split views the window no longer shows are forgotten; the store's split ends with the list written.
        let shown = Set(members.keys)
        memory.splitOf = memory.splitOf.filter { $0.key.window != window || shown.contains($0.key.split) }
        memory.ignoredSplits = memory.ignoredSplits.filter { $0.window != window || shown.contains($0.split) }
        return (splitIDs, splits)
    }

    /// A window whose browser never says which split view a tab is in (one without split
    /// views): the store's splits stay, as long as their tabs can still be one.
    private func keptSplits(
        for order: [Int], pinnedCount: Int, groupIDs: [TabGroupID?], current: WebStateList
    ) -> (splitIDs: [TabSplitID?], splits: [TabSplit]) {
        var splitIDs = [TabSplitID?](repeating: nil, count: groupIDs.count)
        guard !current.splits.isEmpty else { return (splitIDs, []) }
        var members: [TabSplitID: [Int]] = [:]
        for (index, tab) in order.enumerated() {
            if let id = memory.tabOf[tab], let split = current.splitID(of: id) {
                members[split, default: []].append(index)
            }
        }
        var splits: [TabSplit] = []
        for (id, indexes) in members where Self.refusal(indexes, pinnedCount: pinnedCount, groupIDs: groupIDs) == nil {
            if let split = current.splits[id] { splits.append(split) }
            for index in indexes { splitIDs[index] = id }
        }
        return (splitIDs, splits)
    }

    /// Why the tabs at `indexes` (in order) cannot be one split, or `nil` when they can.
    static func refusal(_ indexes: [Int], pinnedCount: Int, groupIDs: [TabGroupID?]) -> String? {
        guard indexes.count == 2 else { return "\(indexes.count) tabs (a split holds two)" }
        let (first, second) = (indexes[0], indexes[1])
        guard second == first + 1 else { return "its tabs are not neighbours" }
        guard (first < pinnedCount) == (second < pinnedCount) else { return "one tab is pinned, the other not" }
        guard groupIDs[first] == groupIDs[second] else { return "its tabs are in different groups" }
        return nil
    }

    /// Each split view of a window's tabs (`order`) as the store split of `list` that holds
    /// both of its tabs, unless another split view has that one already.
    static func matchSplits(
        of order: [Int], in window: Int, state: BrowserState, tabOf: [Int: WebStateID], in list: WebStateList,
        into splitOf: inout [SplitKey: TabSplitID]
    ) {
        var members: [Int: [WebStateID]] = [:]
        for tab in order {
            guard let split = state.tabs[tab]?.splitViewId, let id = tabOf[tab] else { continue }
            members[split, default: []].append(id)
        }
        for (split, tabs) in members.sorted(by: { $0.key < $1.key }) where tabs.count == 2 {
            guard let stored = list.splitID(of: tabs[0]), list.splitID(of: tabs[1]) == stored,
                  !splitOf.values.contains(stored)
            else { continue }
            splitOf[SplitKey(window: window, split: split)] = stored
        }
    }
}
