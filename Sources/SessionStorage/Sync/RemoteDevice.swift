import Foundation

/// Another device of the account, as its synced records last described it.
public struct RemoteDevice: Sendable, Hashable, Identifiable {
    /// The device's id.
    public var id: String
    /// Its name (empty until its device record arrives).
    public var name: String
    /// `desktop`, `phone`, `tablet` or `unknown`.
    public var formFactor: String
    /// When the server last stored one of its records.
    public var lastSeenAt: Date?
    /// Its open windows, most recently active first, each with its tabs in order.
    public var windows: [RemoteWindow]
    /// Its recently closed tabs, most recent first.
    public var closedTabs: [RemoteClosedTab]
    /// Its archived tabs, in the archive's order: empty unless that device publishes them
    /// (``SyncStorage/setUploadsArchivedTabs(_:)``).
    public var archivedTabs: [RemoteTab] = []

    /// Every open tab of the device.
    public var tabCount: Int { windows.reduce(0) { $0 + $1.tabs.count } }
}

/// An open window of another device.
public struct RemoteWindow: Sendable, Hashable, Identifiable {
    /// The window's id on its device.
    public var id: String
    /// Its tabs in order.
    public var tabs: [RemoteTab]
}

/// An open tab of another device.
public struct RemoteTab: Sendable, Hashable, Identifiable {
    /// The record's id on the server: names the tab to open it here.
    public var id: String
    /// The tab's id on its device.
    public var tabID: String
    /// Whether it is pinned.
    public var isPinned: Bool
    /// The title of its group.
    public var groupTitle: String?
    /// The page it shows.
    public var title: String
    /// The page's URL.
    public var url: String
    /// When it was last active.
    public var lastActiveAt: Date?
    /// The split view it is shown in on its device (the same on both of the split's tabs,
    /// neighbours in ``RemoteWindow/tabs``), when that device sent one.
    public var splitID: String? = nil
}

/// A recently closed tab of another device.
public struct RemoteClosedTab: Sendable, Hashable, Identifiable {
    /// The record's id on the server.
    public var id: String
    /// The tab's id on its device.
    public var tabID: String
    /// When it was closed.
    public var closedAt: Date?
    /// The page it showed.
    public var title: String
    /// The page's URL.
    public var url: String
}
