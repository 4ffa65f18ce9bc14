/// How a split view lays out its two tabs.
public enum TabSplitLayout: String, CaseIterable, Sendable, Codable {
    /// Side by side, the first tab on the left (Chromium's `kVertical`, the default).
    case vertical
    /// One above the other, the first tab on top (Chromium's `kHorizontal`).
    case horizontal
}

/// How a split view looks: the share of the first tab and the layout.
public struct TabSplitVisualData: Hashable, Sendable, Codable {
    /// The first tab's share of the split's width (or height), between 0 and 1; 0.5 by default.
    public var ratio: Double

    /// Whether the tabs sit side by side or one above the other.
    public var layout: TabSplitLayout

    /// Creates visual data; a ratio outside 0...1 (or not a number) becomes 0.5.
    public init(ratio: Double = 0.5, layout: TabSplitLayout = .vertical) {
        self.ratio = (0...1).contains(ratio) ? ratio : 0.5
        self.layout = layout
    }
}

/// A split view: two neighbouring tabs of one list, shown side by side as one unit.
///
/// Which tabs belong to the split is kept by the ``WebStateList``
/// (``WebStateList/range(ofSplit:)``). A split always holds exactly two tabs, next to
/// each other, both pinned or neither, and in the same group or in none; a split that
/// loses a tab ends (<doc:TabListRules>, Splits).
public struct TabSplit: Hashable, Sendable, Identifiable {
    /// The split's identifier.
    public var id: TabSplitID

    /// The split's ratio and layout.
    public var visualData: TabSplitVisualData

    /// Creates a split description.
    public init(id: TabSplitID = TabSplitID(), visualData: TabSplitVisualData = TabSplitVisualData()) {
        self.id = id
        self.visualData = visualData
    }
}
