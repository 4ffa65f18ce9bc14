/// The colours a tab group can have, as Chromium names them.
public enum TabGroupColor: String, CaseIterable, Sendable, Codable {
    /// Grey, the default colour.
    case grey
    /// Blue.
    case blue
    /// Red.
    case red
    /// Yellow.
    case yellow
    /// Green.
    case green
    /// Pink.
    case pink
    /// Purple.
    case purple
    /// Cyan.
    case cyan
    /// Orange.
    case orange
}

/// How a tab group looks: its title, colour and whether it is collapsed.
///
/// A collapsed group's tabs are skipped when choosing the next active tab after
/// a removal, as long as another tab of the segment remains (<doc:TabListRules>,
/// Removal, step 6).
public struct TabGroupVisualData: Hashable, Sendable, Codable {
    /// The group's title; empty by default.
    public var title: String

    /// The group's colour.
    public var color: TabGroupColor

    /// Whether the group is collapsed in the tab strip.
    public var isCollapsed: Bool

    /// Creates visual data.
    public init(title: String = "", color: TabGroupColor = .grey, isCollapsed: Bool = false) {
        self.title = title
        self.color = color
        self.isCollapsed = isCollapsed
    }
}
