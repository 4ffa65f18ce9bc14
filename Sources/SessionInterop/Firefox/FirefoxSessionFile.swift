import Foundation

/// The part of Firefox's session JSON that the reader uses; every other key is
/// ignored.
///
/// The shapes follow Firefox's `browser/components/sessionstore`:
/// `SessionStore.sys.mjs` (`getCurrentState`: `windows`, `_closedWindows`,
/// `session`), `TabState.sys.mjs` (a tab's `entries`, 1-based `index`,
/// `pinned`, `lastAccessed`, `groupId`), `SessionHistory.sys.mjs` (an entry's
/// `url`, `title` and, in older files, a plain `referrer`) and
/// `TabGroupState.sys.mjs` (a group's `id`, `name`, `color`, `collapsed`).
struct FirefoxSessionFile: Decodable {
    /// `["sessionrestore", 1]` in every file Firefox writes.
    var version: Version?
    /// The open windows.
    var windows: [Window]
    /// The focused window, 1-based.
    var selectedWindow: Int?
    /// Recently closed windows, most recent first.
    var closedWindows: [Window]?
    /// When the session started and was last written.
    var session: Session?
    /// Tab groups saved and closed outside any window.
    var savedGroups: [IgnoredValue]?

    enum CodingKeys: String, CodingKey {
        case version, windows, selectedWindow, session, savedGroups
        case closedWindows = "_closedWindows"
    }

    /// The `version` pair: a format name and a number.
    struct Version: Decodable {
        /// `"sessionrestore"`.
        var name: String?

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            name = container.isAtEnd ? nil : try? container.decode(String.self)
        }
    }

    /// The `session` object's times, in milliseconds since 1970.
    struct Session: Decodable {
        var lastUpdate: Double?
        var startTime: Double?
    }

    /// A window, open or closed.
    struct Window: Decodable {
        var tabs: [Tab]?
        /// The selected tab, 1-based.
        var selected: Int?
        var groups: [Group]?
        var closedGroups: [IgnoredValue]?
        var closedTabs: [ClosedTab]?
        /// For a closed window, when it was closed (ms since 1970).
        var closedAt: Double?

        enum CodingKeys: String, CodingKey {
            case tabs, selected, groups, closedGroups, closedAt
            case closedTabs = "_closedTabs"
        }
    }

    /// A tab's state.
    struct Tab: Decodable {
        var entries: [Entry]?
        /// The current entry, 1-based.
        var index: Int?
        var pinned: Bool?
        /// When the tab was last selected (ms since 1970).
        var lastAccessed: Double?
        /// The `id` of one of the window's `groups`.
        var groupId: String?
    }

    /// One history entry (frames' `children` are ignored).
    struct Entry: Decodable {
        var url: String?
        var title: String?
        /// A plain referrer URL, as files before Firefox 70 kept it; later ones
        /// keep only a serialized `referrerInfo`, which is not read.
        var referrer: String?
    }

    /// A tab group of a window.
    struct Group: Decodable {
        var id: String
        var name: String?
        var color: String?
        var collapsed: Bool?
    }

    /// A recently closed tab of a window.
    struct ClosedTab: Decodable {
        var state: Tab
        /// When it was closed (ms since 1970).
        var closedAt: Double?
        /// Its index in the tab strip when it was closed.
        var pos: Int?
        /// The group it was closed from, if any.
        var closedInTabGroupId: String?
    }

    /// Any JSON value, only counted.
    struct IgnoredValue: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
