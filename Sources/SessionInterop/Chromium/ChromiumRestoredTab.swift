import Foundation

/// A tab group's title, colour and collapsed state as Chromium stores them
/// (`tab_groups::TabGroupVisualData`).
struct ChromiumGroupVisuals: Sendable, Equatable {
    /// The title; may be empty.
    var title: String = ""
    /// The raw `TabGroupColorId`.
    var color: UInt32 = 0
    /// Whether the group is collapsed.
    var collapsed: Bool = false
}

/// A tab after its file's commands were replayed: what either log says about
/// one tab, before it becomes a ``SessionArchive/Tab``.
struct ChromiumRestoredTab: Sendable {
    /// The tab's history, in Chromium's index order.
    var navigations: [ChromiumNavigation]
    /// The position of the current entry in ``navigations``.
    var currentIndex: Int
    /// Whether the tab is pinned.
    var pinned: Bool
    /// The tab's group, if any.
    var group: ChromiumToken?
    /// When the tab was last active, if the file says.
    var lastActive: Date?
}

/// A window after its file's commands were replayed.
struct ChromiumRestoredWindow: Sendable {
    /// The tabs in strip order.
    var tabs: [ChromiumRestoredTab]
    /// The position of the selected tab in ``tabs``.
    var selectedIndex: Int
    /// The visual data of the window's groups.
    var groups: [ChromiumToken: ChromiumGroupVisuals]
    /// Whether this was the active window.
    var isActive: Bool
}
