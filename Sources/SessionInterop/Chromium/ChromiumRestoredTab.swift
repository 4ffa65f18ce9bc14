import Foundation
import SessionModel

/// A tab group's title, colour and collapsed state as Chromium stores them
/// (`tab_groups::TabGroupVisualData`), and whether it is saved.
struct ChromiumGroupVisuals: Sendable, Equatable {
    /// The title; may be empty.
    var title: String = ""
    /// The raw `TabGroupColorId`.
    var color: UInt32 = 0
    /// Whether the group is collapsed.
    var collapsed: Bool = false
    /// The group's id in Chromium's saved-tab-group store when Chromium marks
    /// it saved (`is_saved`, then `saved_guid`, since M113); `nil` otherwise.
    var savedGUID: String?
}

/// A split view's ratio and layout as Chromium stores them
/// (`split_tabs::SplitTabVisualData`); Chromium's defaults when a file gives none.
struct ChromiumSplitVisuals: Sendable, Equatable {
    /// The first tab's share, 0.5 by default.
    var ratio: Double = 0.5
    /// Side by side (`kVertical`) by default.
    var layout: TabSplitLayout = .vertical
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
    /// The tab's split view, if any.
    var split: ChromiumToken? = nil
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
    /// The ratio and layout of the window's split views (missing ones take the defaults).
    var splits: [ChromiumToken: ChromiumSplitVisuals] = [:]
    /// Whether this was the active window.
    var isActive: Bool
}
