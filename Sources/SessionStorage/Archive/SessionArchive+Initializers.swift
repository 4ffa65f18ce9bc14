import Foundation
import SessionModel

// Public initializers, so that code outside this module (the browser importers,
// an app's own converter) can build a document to import.

extension SessionArchive {
    /// Creates a document of the current format and version.
    public init(browsers: [Browser], closedEntries: [ClosedEntry] = []) {
        self.init(format: Self.formatName, version: Self.currentVersion, browsers: browsers, closedEntries: closedEntries)
    }
}

extension SessionArchive.Browser {
    /// Creates a browser; `lastActiveAt` defaults to `createdAt`.
    public init(
        id: BrowserID = BrowserID(), createdAt: Date, lastActiveAt: Date? = nil, activeTab: WebStateID? = nil,
        closedEntry: ClosedEntryID? = nil, groups: [SessionArchive.Group] = [], tabs: [SessionArchive.Tab]
    ) {
        self.id = id
        self.createdAt = createdAt
        self.lastActiveAt = lastActiveAt ?? createdAt
        self.activeTab = activeTab
        self.closedEntry = closedEntry
        self.groups = groups
        self.tabs = tabs
    }
}

extension SessionArchive.Tab {
    /// Creates a tab; `lastActiveAt` defaults to `createdAt`.
    public init(
        id: WebStateID = WebStateID(), pinned: Bool = false, group: TabGroupID? = nil,
        opener: SessionArchive.Opener? = nil, createdAt: Date, lastActiveAt: Date? = nil,
        history: SessionArchive.History, engineState: Data? = nil
    ) {
        self.id = id
        self.pinned = pinned
        self.group = group
        self.opener = opener
        self.createdAt = createdAt
        self.lastActiveAt = lastActiveAt ?? createdAt
        self.history = history
        self.engineState = engineState
    }
}

