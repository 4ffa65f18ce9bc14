import Foundation
import SessionModel

/// One browser (window) as a window list shows it.
public struct BrowserItem: Hashable, Sendable, Identifiable {
    /// The browser's identifier.
    public var id: BrowserID
    /// How many tabs it holds.
    public var tabCount: Int
    /// Its active tab, if any.
    public var activeTab: WebStateID?
    /// The active tab's page title; empty when it has none.
    public var activeTitle: String
    /// The active tab's URL to show, if it has a page.
    public var activeURL: String?
    /// When the browser was last made active.
    public var lastActiveAt: Date
    /// Whether the browser is off the record.
    public var isOffTheRecord: Bool

    /// Creates a browser item.
    public init(
        id: BrowserID, tabCount: Int, activeTab: WebStateID? = nil, activeTitle: String = "", activeURL: String? = nil,
        lastActiveAt: Date, isOffTheRecord: Bool = false
    ) {
        self.id = id
        self.tabCount = tabCount
        self.activeTab = activeTab
        self.activeTitle = activeTitle
        self.activeURL = activeURL
        self.lastActiveAt = lastActiveAt
        self.isOffTheRecord = isOffTheRecord
    }
}

/// Every open browser of a store, the most recently active first.
public struct BrowserListSnapshot: Hashable, Sendable {
    /// The browsers.
    public var items: [BrowserItem]

    /// Creates a snapshot.
    public init(items: [BrowserItem] = []) {
        self.items = items
    }

    /// Applies `diff` to this snapshot's browsers.
    ///
    /// - Throws: ``ItemDiffError`` if the diff does not fit these browsers.
    public func applying(_ diff: BrowserListDiff) throws(ItemDiffError) -> BrowserListSnapshot {
        BrowserListSnapshot(items: try diff.apply(to: items))
    }
}

/// How the window list changes between two snapshots; see ``ItemDiff``.
public typealias BrowserListDiff = ItemDiff<BrowserItem>
