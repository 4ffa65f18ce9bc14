import Foundation

/// A tab group closed and kept, to reopen later (<doc:TabListRules>, Saved groups).
///
/// Its tabs keep their histories and engine state while the group is saved.
public struct SavedTabGroup: Hashable, Sendable, Identifiable {
    /// One tab of a saved group, as a list of saved groups shows it.
    public struct Tab: Hashable, Sendable, Identifiable {
        /// The tab's identifier, the same as while it was open.
        public var id: WebStateID
        /// The current page's title; empty for a tab with no page.
        public var title: String
        /// The current page's URL (its virtual URL when it has one); `nil` for a tab with no page.
        public var url: String?

        /// Creates a saved tab description.
        public init(id: WebStateID, title: String = "", url: String? = nil) {
            self.id = id
            self.title = title
            self.url = url
        }
    }

    /// The group's identifier, the same as while it was open.
    public var id: TabGroupID
    /// The group's title, colour and collapsed state.
    public var visualData: TabGroupVisualData
    /// The tabs, in the order they had.
    public var tabs: [Tab]
    /// The window the group was closed from; `nil` once that window is gone.
    public var sourceBrowser: BrowserID?
    /// When the group was saved.
    public var savedAt: Date

    /// Creates a saved group description.
    public init(
        id: TabGroupID, visualData: TabGroupVisualData, tabs: [Tab], sourceBrowser: BrowserID? = nil, savedAt: Date
    ) {
        self.id = id
        self.visualData = visualData
        self.tabs = tabs
        self.sourceBrowser = sourceBrowser
        self.savedAt = savedAt
    }
}
