import Foundation

/// The kind of a synced record (docs/sync-protocol.md, "Keys").
package enum SyncRecordKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A device: its name, form factor and windows.
    case device
    /// An open tab.
    case tab
    /// A tab group.
    case group
    /// A recently closed tab.
    case closed
}

/// The payload version this library writes; a reader keeps the fields it knows of a newer one.
package let syncPayloadVersion = 1

/// One navigation of a synced tab. Times are milliseconds since 1970 (UTC).
public struct SyncedNavigation: Sendable, Hashable, Codable {
    /// The page's URL.
    public var url: String
    /// The page's title.
    public var title: String
    /// The URL shown to the user, when it differs from ``url``.
    public var virtualURL: String?
    /// The page's favicon URL.
    public var faviconURL: String?
    /// When the page was visited, in milliseconds since 1970.
    public var time: Int64

    /// Creates a navigation.
    public init(url: String, title: String, virtualURL: String? = nil, faviconURL: String? = nil, time: Int64) {
        self.url = url
        self.title = title
        self.virtualURL = virtualURL
        self.faviconURL = faviconURL
        self.time = time
    }

    enum CodingKeys: String, CodingKey {
        case url, title, time
        case virtualURL = "virtual_url"
        case faviconURL = "favicon_url"
    }
}

/// One open window of a device record.
package struct SyncedWindow: Sendable, Hashable, Codable {
    /// The window's (browser's) id.
    package var id: String
    /// Its active tab's id.
    package var activeTab: String?
    /// How many tabs it holds.
    package var tabs: Int
    /// When it was last active, in milliseconds since 1970.
    package var lastActive: Int64

    /// Creates a window entry.
    package init(id: String, activeTab: String?, tabs: Int, lastActive: Int64) {
        self.id = id
        self.activeTab = activeTab
        self.tabs = tabs
        self.lastActive = lastActive
    }

    enum CodingKeys: String, CodingKey {
        case id, tabs
        case activeTab = "active_tab"
        case lastActive = "last_active"
    }
}

/// A `device` record: grows with windows, not with tabs.
package struct SyncedDevice: Sendable, Hashable, Codable {
    /// The payload version.
    package var v: Int
    /// The device's name.
    package var name: String
    /// `desktop`, `phone`, `tablet` or `unknown`.
    package var formFactor: String
    /// Its open windows.
    package var windows: [SyncedWindow]

    /// Creates a device record.
    package init(name: String, formFactor: String, windows: [SyncedWindow], v: Int = syncPayloadVersion) {
        self.v = v
        self.name = name
        self.formFactor = formFactor
        self.windows = windows
    }

    enum CodingKeys: String, CodingKey {
        case v, name, windows
        case formFactor = "form_factor"
    }
}

/// A `tab` record: one open tab with the navigations around its current one.
package struct SyncedTab: Sendable, Hashable, Codable {
    /// The payload version.
    package var v: Int
    /// The tab's id.
    package var id: String
    /// Its window's id.
    package var window: String
    /// Its place: a window's tabs in ascending sort key.
    package var sortKey: Int64
    /// Whether it is pinned.
    package var pinned: Bool
    /// Its group's id.
    package var group: String?
    /// The tab that opened it.
    package var opener: String?
    /// When it was last active, in milliseconds since 1970.
    package var lastActive: Int64
    /// The index of the current page in ``navigations``.
    package var current: Int?
    /// At most 12 navigations: from current−6 to current+5.
    package var navigations: [SyncedNavigation]
    /// The split view the tab is shown in, if any; absent from the payload otherwise (a client
    /// from before splits reads the record as before).
    package var split: SyncedSplit?
    /// `true` for an archived tab (published only when its device opted in), whose ``window`` is
    /// then its device's archive; absent otherwise (a client from before reads it as one more window).
    package var archived: Bool?

    /// Creates a tab record.
    package init(
        id: String, window: String, sortKey: Int64, pinned: Bool, group: String?, opener: String?,
        lastActive: Int64, current: Int?, navigations: [SyncedNavigation], split: SyncedSplit? = nil,
        archived: Bool? = nil, v: Int = syncPayloadVersion
    ) {
        self.split = split
        self.archived = archived
        self.v = v
        self.id = id
        self.window = window
        self.sortKey = sortKey
        self.pinned = pinned
        self.group = group
        self.opener = opener
        self.lastActive = lastActive
        self.current = current
        self.navigations = navigations
    }

    /// The page the tab shows.
    package var currentNavigation: SyncedNavigation? {
        current.flatMap { navigations.indices.contains($0) ? navigations[$0] : nil }
    }

    enum CodingKeys: String, CodingKey {
        case v, id, window, pinned, group, opener, current, navigations, split, archived
        case sortKey = "sort_key"
        case lastActive = "last_active"
    }
}

/// A `group` record.
package struct SyncedGroup: Sendable, Hashable, Codable {
    /// The payload version.
    package var v: Int
    /// The group's id.
    package var id: String
    /// Its window's id.
    package var window: String
    /// Its title (may be empty).
    package var title: String
    /// Its colour's name.
    package var color: String
    /// Whether it is collapsed.
    package var collapsed: Bool

    /// Creates a group record.
    package init(id: String, window: String, title: String, color: String, collapsed: Bool, v: Int = syncPayloadVersion) {
        self.v = v
        self.id = id
        self.window = window
        self.title = title
        self.color = color
        self.collapsed = collapsed
    }
}

/// A `closed` record: one recently closed tab (a closed window gives one per tab).
package struct SyncedClosedTab: Sendable, Hashable, Codable {
    /// The payload version.
    package var v: Int
    /// The tab's id.
    package var id: String
    /// The window it was closed from.
    package var window: String?
    /// When it was closed, in milliseconds since 1970.
    package var closedAt: Int64
    /// The title of the group it was in.
    package var groupTitle: String?
    /// The index of the current page in ``navigations``.
    package var current: Int?
    /// At most 12 navigations around the current one.
    package var navigations: [SyncedNavigation]

    /// Creates a closed-tab record.
    package init(
        id: String, window: String?, closedAt: Int64, groupTitle: String?, current: Int?,
        navigations: [SyncedNavigation], v: Int = syncPayloadVersion
    ) {
        self.v = v
        self.id = id
        self.window = window
        self.closedAt = closedAt
        self.groupTitle = groupTitle
        self.current = current
        self.navigations = navigations
    }

    /// The page the tab showed.
    package var currentNavigation: SyncedNavigation? {
        current.flatMap { navigations.indices.contains($0) ? navigations[$0] : nil }
    }

    enum CodingKeys: String, CodingKey {
        case v, id, window, current, navigations
        case closedAt = "closed_at"
        case groupTitle = "group_title"
    }
}

/// What one synced record holds.
package enum SyncRecordContent: Sendable, Hashable {
    /// A device record.
    case device(SyncedDevice)
    /// An open tab.
    case tab(SyncedTab)
    /// A tab group.
    case group(SyncedGroup)
    /// A recently closed tab.
    case closed(SyncedClosedTab)

    /// The record's kind.
    package var kind: SyncRecordKind {
        switch self {
        case .device: .device
        case .tab: .tab
        case .group: .group
        case .closed: .closed
        }
    }

    /// The payload's JSON (keys sorted, so the same content gives the same bytes).
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        switch self {
        case .device(let value): return try encoder.encode(value)
        case .tab(let value): return try encoder.encode(value)
        case .group(let value): return try encoder.encode(value)
        case .closed(let value): return try encoder.encode(value)
        }
    }

    /// Reads a payload of `kind`; fields it does not know are ignored.
    package static func decoded(_ data: Data, kind: SyncRecordKind) throws -> SyncRecordContent {
        let decoder = JSONDecoder()
        switch kind {
        case .device: return .device(try decoder.decode(SyncedDevice.self, from: data))
        case .tab: return .tab(try decoder.decode(SyncedTab.self, from: data))
        case .group: return .group(try decoder.decode(SyncedGroup.self, from: data))
        case .closed: return .closed(try decoder.decode(SyncedClosedTab.self, from: data))
        }
    }
}

/// A tab's split view in its record: the split's id, the first tab's share and the layout.
package struct SyncedSplit: Sendable, Hashable, Codable {
    /// The split's id; both tabs of the split carry it.
    package var id: String
    /// The first tab's share, from 0 to 1.
    package var ratio: Double
    /// `vertical` or `horizontal`.
    package var layout: String

    /// Creates a split description.
    package init(id: String, ratio: Double, layout: String) {
        self.id = id
        self.ratio = ratio
        self.layout = layout
    }
}
