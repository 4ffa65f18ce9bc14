import Foundation
import SessionModel

/// One tab as a tab strip or grid shows it: a value, with nothing that changes while a page loads.
public struct TabItem: Hashable, Sendable, Identifiable {
    /// The tab's identifier.
    public var id: WebStateID
    /// The current page's title; empty for a tab with no page or an untitled page.
    public var title: String
    /// The URL to show: the current page's virtual URL when it has one, else its URL; `nil` for a tab with no page.
    public var url: String?
    /// The current page's favicon URL.
    public var faviconURL: String?
    /// Whether the tab is pinned.
    public var isPinned: Bool
    /// The tab's group, if any.
    public var group: TabGroupItem?
    /// The split view the tab is shown in, if any; the split's two items are neighbours.
    public var split: TabSplitItem?
    /// Whether the tab is the active one.
    public var isActive: Bool
    /// When the tab was created.
    public var createdAt: Date
    /// When the tab was last active.
    public var lastActiveAt: Date

    /// Creates a tab item.
    public init(
        id: WebStateID, title: String = "", url: String? = nil, faviconURL: String? = nil, isPinned: Bool = false,
        group: TabGroupItem? = nil, isActive: Bool = false, createdAt: Date, lastActiveAt: Date? = nil,
        split: TabSplitItem? = nil
    ) {
        self.split = split
        self.id = id
        self.title = title
        self.url = url
        self.faviconURL = faviconURL
        self.isPinned = isPinned
        self.group = group
        self.isActive = isActive
        self.createdAt = createdAt
        self.lastActiveAt = lastActiveAt ?? createdAt
    }
}

/// A tab group as a tab strip shows it: its title, colour and collapsed state.
public struct TabGroupItem: Hashable, Sendable, Identifiable {
    /// The group's identifier.
    public var id: TabGroupID
    /// The group's title (may be empty).
    public var title: String
    /// The group's colour.
    public var color: TabGroupColor
    /// Whether the group is collapsed.
    public var isCollapsed: Bool

    /// Creates a group item.
    public init(id: TabGroupID, title: String = "", color: TabGroupColor = .grey, isCollapsed: Bool = false) {
        self.id = id
        self.title = title
        self.color = color
        self.isCollapsed = isCollapsed
    }
}

/// A split view as a tab strip shows it: two neighbouring tabs side by side.
public struct TabSplitItem: Hashable, Sendable, Identifiable {
    /// The split's identifier.
    public var id: TabSplitID
    /// The first tab's share of the split, from 0 to 1.
    public var ratio: Double
    /// Whether the tabs sit side by side or one above the other.
    public var layout: TabSplitLayout

    /// Creates a split item.
    public init(id: TabSplitID, ratio: Double = 0.5, layout: TabSplitLayout = .vertical) {
        self.id = id
        self.ratio = ratio
        self.layout = layout
    }
}
