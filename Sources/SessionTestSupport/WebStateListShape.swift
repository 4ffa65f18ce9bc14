import SessionModel

/// A tab list without its times: what must match when the same mutations are
/// applied to the pure model and to a store (the store stamps last-active times).
public struct WebStateListShape: Hashable, Sendable, CustomStringConvertible {
    /// Tab identifiers in order, with their openers and history indexes.
    public var tabs: [String]
    /// The number of pinned tabs.
    public var pinnedCount: Int
    /// Each tab's group.
    public var groupIDs: [TabGroupID?]
    /// Every group with its visual data.
    public var groups: [TabGroupID: TabGroupVisualData]
    /// The active index.
    public var activeIndex: Int?
    /// Each tab's split.
    public var splitIDs: [TabSplitID?]
    /// Every split with its visual data.
    public var splits: [TabSplitID: TabSplitVisualData]

    /// The shape of `list`.
    public init(_ list: WebStateList) {
        tabs = list.webStates.map { tab in
            let opener = tab.opener.map { " opener \($0.openerID) @\($0.navigationIndex.map(String.init) ?? "-")" } ?? ""
            return "\(tab.id) nav \(tab.navigationIndex.map(String.init) ?? "-")\(opener)"
        }
        pinnedCount = list.pinnedCount
        groupIDs = Array(list.groupIDs)
        groups = list.groups.mapValues(\.visualData)
        activeIndex = list.activeIndex
        splitIDs = (0..<list.count).map { list.splitID(at: $0) }
        splits = list.splits.mapValues(\.visualData)
    }

    public var description: String {
        "pinned \(pinnedCount), active \(activeIndex.map(String.init) ?? "none"), tabs:\n" + tabs.joined(separator: "\n")
    }
}
