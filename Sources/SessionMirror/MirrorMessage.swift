import Foundation

/// One message the browser extension sends the native host: a browser event as
/// the WebExtensions API reported it, or a snapshot of every window.
///
/// Keys follow the WebExtensions API (`windowId`, `openerTabId`, `isWindowClosing`),
/// so the extension forwards what it is given nearly as it is given. `docs/browser-mirror.md`
/// lists every message.
package struct MirrorMessage: Decodable, Sendable, Equatable {
    /// What happened.
    package enum Kind: String, Decodable, Sendable {
        case snapshot
        case windowCreated, windowRemoved
        case tabCreated, tabRemoved, tabMoved, tabDetached, tabAttached, tabActivated, tabUpdated, tabReplaced
        case groupCreated, groupUpdated, groupMoved, groupRemoved
        case navigationCommitted
        /// The extension asks for a stored window to open (``RestorePlan``), from tab `offset` on.
        case restorePlan
        /// The extension opened a stored window: `window`, each tab carrying its `sid`, is `browser`.
        case windowRestored
        /// The popup asks for the stored windows and the recently closed entries (``StoreOverview``).
        case overview
        /// The popup asks for the tabs matching `query` (``PopupMatch``).
        case search
        /// The popup reopens the recently closed `entry` (``ReopenPlan``).
        case reopenClosed
        /// The extension opened what `sessionstore open --in` asked for (request `request`): `results`.
        case openDone
    }

    /// The extension's sequence number, echoed in the reply.
    package var id: Int
    package var type: Kind

    package var windows: [BrowserWindow]?
    package var window: BrowserWindow?
    package var tab: BrowserTab?
    package var group: BrowserGroup?

    package var windowId: Int?
    package var tabId: Int?
    package var isWindowClosing: Bool?
    package var fromIndex: Int?
    package var toIndex: Int?
    package var oldWindowId: Int?
    package var oldPosition: Int?
    package var newWindowId: Int?
    package var newPosition: Int?
    package var addedTabId: Int?
    package var removedTabId: Int?

    /// `navigationCommitted`: the top frame's new URL, how the user got there
    /// (`webNavigation`'s `transitionType` and `transitionQualifiers`), and when
    /// (milliseconds since 1970).
    package var url: String?
    package var transitionType: String?
    package var transitionQualifiers: [String]?
    package var timeStamp: Double?
    /// A navigation within the page (`history.pushState`, a fragment): no new document.
    package var sameDocument: Bool?
    /// `restorePlan`, `windowRestored`: the store's browser (its identifier).
    package var browser: String?
    /// `restorePlan`: the first tab of the page asked for (0 when absent).
    package var offset: Int?
    /// `search`: what the user typed.
    package var query: String?
    /// `reopenClosed`: the recently closed entry (its identifier).
    package var entry: String?
    /// `openDone`: the host's request number, and what became of each browser it named.
    package var request: Int?
    package var results: [HostChannel.Opened]?
    /// `windowRestored`: how many of the plan's splits the browser could not make (it has no
    /// `tabs.createSplit`); the host notes it.
    package var splitsNotMade: Int?

    package init(id: Int, type: Kind) {
        self.id = id
        self.type = type
    }
}

/// A window as `windows.get(…, {populate: true})` describes it.
package struct BrowserWindow: Codable, Sendable, Equatable {
    package var id: Int
    package var incognito: Bool?
    package var tabs: [BrowserTab]?
    package var groups: [BrowserGroup]?

    package init(id: Int, incognito: Bool? = nil, tabs: [BrowserTab]? = nil, groups: [BrowserGroup]? = nil) {
        self.id = id
        self.incognito = incognito
        self.tabs = tabs
        self.groups = groups
    }
}

/// A tab as `tabs.Tab` describes it.
package struct BrowserTab: Codable, Sendable, Equatable {
    package var id: Int
    package var windowId: Int
    package var index: Int
    package var url: String?
    package var title: String?
    package var pinned: Bool?
    /// `-1` (`tabGroups.TAB_GROUP_ID_NONE`) when the tab is in no group.
    package var groupId: Int?
    package var active: Bool?
    package var openerTabId: Int?
    package var incognito: Bool?
    /// The store's identifier for the tab, as the host gave it and the extension
    /// kept it (in `sessions.setTabValue` on Firefox, which survives a restart).
    package var sid: String?
    /// The split view the tab is in; `-1` (`tabs.SPLIT_VIEW_ID_NONE`) for none, absent when the
    /// browser has no split views (and then the tab's split is left as it was).
    package var splitViewId: Int?

    package init(
        id: Int, windowId: Int, index: Int, url: String? = nil, title: String? = nil, pinned: Bool? = nil,
        groupId: Int? = nil, active: Bool? = nil, openerTabId: Int? = nil, sid: String? = nil,
        splitViewId: Int? = nil
    ) {
        self.id = id
        self.windowId = windowId
        self.index = index
        self.url = url
        self.title = title
        self.pinned = pinned
        self.groupId = groupId
        self.active = active
        self.openerTabId = openerTabId
        self.sid = sid
        self.splitViewId = splitViewId
    }
}

/// A tab group as `tabGroups.TabGroup` describes it.
package struct BrowserGroup: Codable, Sendable, Equatable {
    package var id: Int
    package var windowId: Int
    package var title: String?
    package var color: String?
    package var collapsed: Bool?

    package init(id: Int, windowId: Int, title: String? = nil, color: String? = nil, collapsed: Bool? = nil) {
        self.id = id
        self.windowId = windowId
        self.title = title
        self.color = color
        self.collapsed = collapsed
    }
}

/// The host's answer to one message: sent once what the message changed is
/// committed, or once it was refused.
package struct MirrorReply: Encodable, Sendable, Equatable {
    /// The message's `id` (absent when the message could not be read far enough to have one).
    package var ack: Int?
    /// Why the message was refused; nothing of it was written.
    package var error: String?
    /// The store's identifiers of tabs the message made known: the extension keeps them.
    package var ids: [String: String]?
    /// `restorePlan`: the window to open, or one page of it.
    package var plan: RestorePlan?
    /// `overview`: the stored windows and the recently closed entries.
    package var overview: StoreOverview?
    /// `search`: the matching tabs, best first.
    package var matches: [PopupMatch]?
    /// `reopenClosed`: what the browser makes.
    package var reopen: ReopenPlan?

    package init(ack: Int?, error: String? = nil, ids: [String: String]? = nil, plan: RestorePlan? = nil) {
        self.ack = ack
        self.error = error
        self.ids = ids
        self.plan = plan
    }
}

/// What the host asks of the extension, unasked: `open` the store's `browsers` as
/// windows (for `sessionstore open --in`), then answer with `openDone` and `request`.
package struct HostRequest: Encodable, Sendable, Equatable {
    package var type = "open"
    package var request: Int
    package var browsers: [String]

    package init(request: Int, browsers: [String]) {
        self.request = request
        self.browsers = browsers
    }
}
