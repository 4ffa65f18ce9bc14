import Foundation
import SessionModel

/// The whole store as a JSON document: what `sessionstore export` writes and
/// `sessionstore import` reads. Format version 1 is described field by field
/// in `docs/export-format.md`.
///
/// Two exports of the same state are byte-identical: browsers are ordered as
/// `ls` lists them, most recently active first (then by creation time, most
/// recent first, then id), tabs and groups by their place in the list, closed
/// entries by closing time (most recent first) then id, archived tabs in the
/// archive's order, saved groups most recently saved first; keys are sorted; times
/// are UTC ISO 8601 with milliseconds; blobs are base64.
public struct SessionArchive: Codable, Sendable, Hashable {
    /// The value of ``format``.
    public static let formatName = "sessionstore"
    /// The version this library writes and reads.
    public static let currentVersion = 1

    /// Always `"sessionstore"`.
    public var format: String
    /// The format version; ``currentVersion``.
    public var version: Int
    /// Every window, open or closed (the archive and saved groups are not windows).
    public var browsers: [Browser]
    /// Recently closed tabs, groups and windows.
    public var closedEntries: [ClosedEntry]
    /// Tabs archived out of their windows, in the archive's order; absent from the JSON when there are none.
    public var archivedTabs: [ArchivedTab] = []
    /// Saved tab groups, most recently saved first; absent from the JSON when there are none.
    public var savedGroups: [SavedGroup] = []

    /// A browser (window) and its tab list.
    public struct Browser: Codable, Sendable, Hashable {
        /// The browser's identifier.
        public var id: BrowserID
        /// When the browser was created.
        public var createdAt: Date
        /// When the browser was last made active (windows are listed most recent first).
        public var lastActiveAt: Date
        /// The active tab, if any.
        public var activeTab: WebStateID?
        /// Set when the whole window sits in recently closed.
        public var closedEntry: ClosedEntryID?
        /// The groups, in list order.
        public var groups: [Group]
        /// The split views, in list order; absent from the JSON when there are none.
        public var splits: [Split]
        /// The tabs, in list order; pinned tabs first.
        public var tabs: [Tab]

        /// Creates a browser; `lastActiveAt` defaults to `createdAt`.
        public init(
            id: BrowserID = BrowserID(), createdAt: Date, lastActiveAt: Date? = nil, activeTab: WebStateID? = nil,
            closedEntry: ClosedEntryID? = nil, groups: [SessionArchive.Group] = [], splits: [SessionArchive.Split] = [],
            tabs: [SessionArchive.Tab]
        ) {
            self.splits = splits
            self.id = id
            self.createdAt = createdAt
            self.lastActiveAt = lastActiveAt ?? createdAt
            self.activeTab = activeTab
            self.closedEntry = closedEntry
            self.groups = groups
            self.tabs = tabs
        }
    }

    /// A tab group's identity and visual data.
    public struct Group: Codable, Sendable, Hashable {
        /// The group's identifier.
        public var id: TabGroupID
        /// The group's title; may be empty.
        public var title: String
        /// The group's colour.
        public var color: TabGroupColor
        /// Whether the group is collapsed.
        public var collapsed: Bool

        /// Creates a group.
        public init(id: TabGroupID = TabGroupID(), title: String, color: TabGroupColor, collapsed: Bool = false) {
            self.id = id
            self.title = title
            self.color = color
            self.collapsed = collapsed
        }
    }

    /// A split view: two neighbouring tabs of one browser shown side by side
    /// (<doc:TabListRules>, Splits). Its tabs name it in ``Tab/split``.
    ///
    /// Decoding refuses a `layout` other than `vertical` or `horizontal`, naming it;
    /// ``SessionArchive/check(configuration:)`` refuses a `ratio` outside 0...1.
    public struct Split: Codable, Sendable, Hashable {
        /// The split's identifier.
        public var id: TabSplitID
        /// The first tab's share, from 0 to 1.
        public var ratio: Double
        /// `vertical` (side by side) or `horizontal` (one above the other).
        public var layout: TabSplitLayout

        /// Creates a split.
        public init(id: TabSplitID = TabSplitID(), ratio: Double = 0.5, layout: TabSplitLayout = .vertical) {
            self.id = id
            self.ratio = ratio
            self.layout = layout
        }
    }

    /// A tab with its history.
    public struct Tab: Codable, Sendable, Hashable {
        /// The tab's identifier; unique in the whole document.
        public var id: WebStateID
        /// Whether the tab is pinned: pinned tabs come first and belong to no group.
        public var pinned: Bool
        /// The tab's group, one of its browser's groups.
        public var group: TabGroupID?
        /// The tab's split view, one of its browser's splits; absent from the JSON when `nil`.
        public var split: TabSplitID?
        /// The tab that opened it, in the same browser.
        public var opener: Opener?
        /// When the tab was created.
        public var createdAt: Date
        /// When the tab was last activated.
        public var lastActiveAt: Date
        /// The tab's back/forward list.
        public var history: History
        /// Opaque engine state (WebKit's interaction state), base64.
        public var engineState: Data?

        /// Creates a tab; `lastActiveAt` defaults to `createdAt`.
        public init(
            id: WebStateID = WebStateID(), pinned: Bool = false, group: TabGroupID? = nil,
            opener: SessionArchive.Opener? = nil, createdAt: Date, lastActiveAt: Date? = nil,
            history: SessionArchive.History, engineState: Data? = nil, split: TabSplitID? = nil
        ) {
            self.split = split
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

    /// An opener link.
    public struct Opener: Codable, Sendable, Hashable {
        /// The tab that opened this one.
        public var tab: WebStateID
        /// The opener's history index when it opened the tab.
        public var navigationIndex: Int?

        /// Creates an opener link.
        public init(tab: WebStateID, navigationIndex: Int?) {
            self.tab = tab
            self.navigationIndex = navigationIndex
        }
    }

    /// A tab's history.
    public struct History: Codable, Sendable, Hashable {
        /// The current entry's index; absent when there are no entries.
        public var currentIndex: Int?
        /// The entries, oldest first.
        public var entries: [Entry]

        /// Creates a history; `currentIndex` must be `nil` exactly when `entries` is empty.
        public init(currentIndex: Int?, entries: [SessionArchive.Entry]) {
            self.currentIndex = currentIndex
            self.entries = entries
        }
    }

    /// One history entry.
    public struct Entry: Codable, Sendable, Hashable {
        /// The URL that was loaded; not empty.
        public var url: String
        /// The URL shown to the user, when it differs from ``url``.
        public var virtualUrl: String?
        /// The page title; may be empty.
        public var title: String
        /// The referrer sent with the request, if any.
        public var referrerUrl: String?
        /// The referrer policy the request used.
        public var referrerPolicy: ReferrerPolicy
        /// How the user got to the page.
        public var transition: NavigationTransition
        /// When the navigation was committed.
        public var timestamp: Date
        /// The HTTP status of the main resource, in `0...999`, if known.
        public var httpStatus: Int?
        /// Whether the page was the result of a POST.
        public var post: Bool
        /// The page's favicon URL, if known.
        public var faviconUrl: String?
        /// The user agent the page was loaded with.
        public var userAgent: UserAgentType
        /// Opaque page state, base64.
        public var pageState: Data?

        /// Creates a history entry.
        public init(
            url: String, virtualUrl: String? = nil, title: String, referrerUrl: String? = nil,
            referrerPolicy: ReferrerPolicy = .default, transition: NavigationTransition = .link, timestamp: Date,
            httpStatus: Int? = nil, post: Bool = false, faviconUrl: String? = nil, userAgent: UserAgentType = .automatic,
            pageState: Data? = nil
        ) {
            self.url = url
            self.virtualUrl = virtualUrl
            self.title = title
            self.referrerUrl = referrerUrl
            self.referrerPolicy = referrerPolicy
            self.transition = transition
            self.timestamp = timestamp
            self.httpStatus = httpStatus
            self.post = post
            self.faviconUrl = faviconUrl
            self.userAgent = userAgent
            self.pageState = pageState
        }
    }

    /// A recently closed entry. A window's tabs live in its ``Browser``
    /// (whose ``Browser/closedEntry`` names the entry); a tab's or group's here.
    public struct ClosedEntry: Codable, Sendable, Hashable {
        /// The entry's identifier.
        public var id: ClosedEntryID
        /// What was closed: exactly one tab, a group (its tabs and ``group``), or a
        /// window (no tabs here: one ``Browser`` names the entry in ``Browser/closedEntry``).
        public var kind: RecentlyClosedEntry.Kind
        /// When it was closed.
        public var closedAt: Date
        /// The browser it was closed from, if it still exists.
        public var browser: BrowserID?
        /// The index of its (first) tab when it was closed.
        public var tabIndex: Int?
        /// The group it belonged to, or the closed group.
        public var group: Group?
        /// The closed tabs (none for a window).
        public var tabs: [Tab]

        /// Creates a recently closed entry: one tab, a group's tabs, or a window
        /// (whose tabs live in the ``SessionArchive/Browser`` that names it).
        public init(
            id: ClosedEntryID = ClosedEntryID(), kind: RecentlyClosedEntry.Kind, closedAt: Date, browser: BrowserID? = nil,
            tabIndex: Int? = nil, group: SessionArchive.Group? = nil, tabs: [SessionArchive.Tab] = []
        ) {
            self.id = id
            self.kind = kind
            self.closedAt = closedAt
            self.browser = browser
            self.tabIndex = tabIndex
            self.group = group
            self.tabs = tabs
        }
    }
}

extension SessionArchive {
    /// A tab archived out of its window (<doc:TabListRules>, Archived tabs): the tab
    /// with its history and engine state, and what a restore needs of its former place.
    ///
    /// Its ``tab`` is in no list: it is not pinned and has no group, opener or split
    /// (those it had are the `former` fields, kept as data).
    public struct ArchivedTab: Codable, Sendable, Hashable {
        /// The tab; its identifier is unique in the whole document.
        public var tab: Tab
        /// The window it was archived from; may name a browser the document does not hold.
        public var formerBrowser: BrowserID?
        /// Its index in that window when it was archived; 0 or more.
        public var formerIndex: Int
        /// The tab that had opened it, as data (no link: it may be anywhere, or gone).
        public var formerOpener: WebStateID?
        /// The group it was in, with the title and colour it had then.
        public var formerGroup: FormerGroup?
        /// When it was archived.
        public var archivedAt: Date

        /// Creates an archived tab.
        public init(
            tab: SessionArchive.Tab, formerBrowser: BrowserID?, formerIndex: Int, formerOpener: WebStateID? = nil,
            formerGroup: FormerGroup? = nil, archivedAt: Date
        ) {
            self.tab = tab
            self.formerBrowser = formerBrowser
            self.formerIndex = formerIndex
            self.formerOpener = formerOpener
            self.formerGroup = formerGroup
            self.archivedAt = archivedAt
        }
    }

    /// The group an archived tab was in: its identifier (which a window may still use),
    /// title and colour.
    public struct FormerGroup: Codable, Sendable, Hashable {
        /// The group's identifier.
        public var id: TabGroupID
        /// The group's title; may be empty.
        public var title: String
        /// The group's colour.
        public var color: TabGroupColor

        /// Creates a former group.
        public init(id: TabGroupID, title: String, color: TabGroupColor) {
            self.id = id
            self.title = title
            self.color = color
        }
    }

    /// A saved tab group (<doc:TabListRules>, Saved groups): a group closed and kept with
    /// its tabs, to reopen later. Not a recently closed entry.
    public struct SavedGroup: Codable, Sendable, Hashable {
        /// The group's identifier; unique among the document's groups.
        public var id: TabGroupID
        /// The group's title; may be empty.
        public var title: String
        /// The group's colour.
        public var color: TabGroupColor
        /// Whether the group is collapsed.
        public var collapsed: Bool
        /// The window it was closed from, as data; may name a browser the document does not hold.
        public var sourceBrowser: BrowserID?
        /// When it was saved.
        public var savedAt: Date
        /// Its tabs in their order, at least one; not pinned, with no group, opener or split of their own.
        public var tabs: [Tab]

        /// Creates a saved group.
        public init(
            id: TabGroupID = TabGroupID(), title: String, color: TabGroupColor, collapsed: Bool = false,
            sourceBrowser: BrowserID? = nil, savedAt: Date, tabs: [SessionArchive.Tab]
        ) {
            self.id = id
            self.title = title
            self.color = color
            self.collapsed = collapsed
            self.sourceBrowser = sourceBrowser
            self.savedAt = savedAt
            self.tabs = tabs
        }

        /// The group's title, colour and collapsed state.
        var visualData: TabGroupVisualData {
            TabGroupVisualData(title: title, color: color, isCollapsed: collapsed)
        }
    }
}

extension SessionArchive.Entry {
    /// The entry as a model value.
    var item: NavigationItem {
        NavigationItem(
            url: url, virtualURL: virtualUrl, title: title, referrerURL: referrerUrl, referrerPolicy: referrerPolicy,
            transition: transition, timestamp: timestamp, httpStatus: httpStatus, isPost: post,
            faviconURL: faviconUrl, userAgentType: userAgent, pageState: pageState)
    }

    /// The document form of a model value.
    public init(_ item: NavigationItem) {
        self.init(
            url: item.url, virtualUrl: item.virtualURL, title: item.title, referrerUrl: item.referrerURL,
            referrerPolicy: item.referrerPolicy, transition: item.transition, timestamp: item.timestamp,
            httpStatus: item.httpStatus, post: item.isPost, faviconUrl: item.faviconURL,
            userAgent: item.userAgentType, pageState: item.pageState)
    }
}

extension SessionArchive {
    // In an extension, so that the memberwise initializer stays for the store's export.
    /// Creates a document of the current format and version.
    public init(
        browsers: [Browser], closedEntries: [ClosedEntry] = [], archivedTabs: [ArchivedTab] = [],
        savedGroups: [SavedGroup] = []
    ) {
        self.init(
            format: Self.formatName, version: Self.currentVersion, browsers: browsers, closedEntries: closedEntries,
            archivedTabs: archivedTabs, savedGroups: savedGroups)
    }

    /// The encoder that gives the document's canonical bytes.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ArchiveTime.string(from: date))
        }
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    /// The decoder that reads the document (strict about times).
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ArchiveTime.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected a UTC time from year 0001 to 9999 like 2026-11-23T09:30:00.000Z")
            }
            return date
        }
        decoder.dataDecodingStrategy = .base64
        return decoder
    }
}
