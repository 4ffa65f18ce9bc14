import Foundation

/// A tab that left its window's list because it went unused, kept with its history
/// (<doc:TabListRules>, Archived tabs).
///
/// What it had in the list is kept as data for a restore: its window, index and group.
/// Its opener is data too, never a live link: restoring does not re-link it.
public struct ArchivedTab: Hashable, Sendable, Identifiable {
    /// The tab's identifier, the same as while it was open.
    public var id: WebStateID
    /// The current page's title; empty for a tab with no page.
    public var title: String
    /// The current page's URL (its virtual URL when it has one); `nil` for a tab with no page.
    public var url: String?
    /// The window the tab was archived from; `nil` once that window is gone.
    public var formerBrowser: BrowserID?
    /// The tab's index in that window when it was archived.
    public var formerIndex: Int
    /// The tab that had opened it, as data.
    public var formerOpener: WebStateID?
    /// The group it was in, with the title and colour it had then.
    public var formerGroup: TabGroup?
    /// When the tab was archived.
    public var archivedAt: Date
    /// When the tab was last active, before it was archived.
    public var lastActiveAt: Date

    /// Creates an archived tab description.
    public init(
        id: WebStateID, title: String = "", url: String? = nil, formerBrowser: BrowserID?, formerIndex: Int,
        formerOpener: WebStateID? = nil, formerGroup: TabGroup? = nil, archivedAt: Date, lastActiveAt: Date
    ) {
        self.id = id
        self.title = title
        self.url = url
        self.formerBrowser = formerBrowser
        self.formerIndex = formerIndex
        self.formerOpener = formerOpener
        self.formerGroup = formerGroup
        self.archivedAt = archivedAt
        self.lastActiveAt = lastActiveAt
    }
}

/// Which tabs stay in their window when unused tabs are archived. The active tab always stays.
public struct ArchiveExemptions: Hashable, Sendable {
    /// Pinned tabs stay (the default).
    public var pinned: Bool
    /// Tabs in a group stay (the default).
    public var grouped: Bool
    /// Tabs in a split view stay (the default).
    public var split: Bool

    /// Creates exemptions; by default pinned, grouped and split tabs stay.
    public init(pinned: Bool = true, grouped: Bool = true, split: Bool = true) {
        self.pinned = pinned
        self.grouped = grouped
        self.split = split
    }
}

/// What one call that archives tabs did.
public struct TabArchiveResult: Hashable, Sendable {
    /// How many tabs left their windows.
    public var archived: Int
    /// How many rows the call inserted, updated or deleted, those its triggers wrote included.
    public var rowsWritten: Int

    /// Creates a result.
    public init(archived: Int, rowsWritten: Int) {
        self.archived = archived
        self.rowsWritten = rowsWritten
    }
}

/// Where a restored archived tab goes.
public enum ArchiveRestorePlacement: Hashable, Sendable {
    /// Its former index (clamped), and its former group when that group is there or can be made again.
    case formerPosition
    /// The end of the window's list, ungrouped.
    case end
}
