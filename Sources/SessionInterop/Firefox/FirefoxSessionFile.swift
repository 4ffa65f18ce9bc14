import Foundation

/// The part of Firefox's session JSON that the reader uses; every other key is
/// ignored.
///
/// The shapes follow Firefox's `browser/components/sessionstore`:
/// `SessionStore.sys.mjs` (`getCurrentState`: `windows`, `_closedWindows`,
/// `session`), `TabState.sys.mjs` (a tab's `entries`, 1-based `index`,
/// `pinned`, `lastAccessed`, `groupId`), `SessionHistory.sys.mjs` (an entry's
/// `url`, `title` and, in older files, a plain `referrer`) and
/// `TabGroupState.sys.mjs` (a group's `id`, `name`, `color`, `collapsed`;
/// a closed or saved group's `tabs` and `splitViews`). Split views: a tab's
/// `splitViewId`, a window's `splitViews: [{id, numberOfTabs}]` and the root
/// `maxSplitViewId` (`SessionStore.sys.mjs`, `TabState.sys.mjs`).
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
    /// Tab groups saved and closed ("Save and Close Group"), kept outside any window.
    var savedGroups: [Lenient<ClosedGroup>]?
    /// The highest split view id given out; absent before split views (and in
    /// files whose string ids Firefox has not yet migrated to numbers).
    var maxSplitViewId: Double?

    enum CodingKeys: String, CodingKey {
        case version, windows, selectedWindow, session, savedGroups, maxSplitViewId
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
        /// The window's split views.
        var splitViews: [Lenient<SplitView>]?
        /// Groups deleted from this window ("Delete Group"), most recent first.
        var closedGroups: [Lenient<ClosedGroup>]?
        var closedTabs: [ClosedTab]?
        /// For a closed window, when it was closed (ms since 1970).
        var closedAt: Double?

        enum CodingKeys: String, CodingKey {
            case tabs, selected, groups, splitViews, closedGroups, closedAt
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
        /// The `id` of one of the window's `splitViews`.
        var splitViewId: SplitViewID?
    }

    /// A split view's id: an integer in current files, a string such as
    /// `"1706789123456-42"` in older files (Firefox migrates those on load).
    struct SplitViewID: Decodable, Hashable {
        /// The id as text, so that both kinds compare.
        var text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                text = String(number)
            } else if let string = try? container.decode(String.self) {
                text = string
            } else {
                let number = try container.decode(Double.self)
                text = number.isFinite && number == number.rounded() && abs(number) < 1e15
                    ? String(Int(number)) : String(number)
            }
        }
    }

    /// A window's split view: its id and how many tabs it holds.
    struct SplitView: Decodable {
        var id: SplitViewID
        var numberOfTabs: Int?
    }

    /// A group kept after it left the tab strip: a window's closed group or a
    /// saved group (`TabGroupState.closed`, `savedInOpenWindow`, `savedInClosedWindow`).
    struct ClosedGroup: Decodable {
        var id: String?
        var name: String?
        var color: String?
        var collapsed: Bool?
        /// When it was closed (ms since 1970).
        var closedAt: Double?
        /// Set on saved groups.
        var saved: Bool?
        /// Its tabs as closed tabs (empty for a group saved in a window that was closed).
        var tabs: [Lenient<ClosedTab>]?
        /// The split views among its tabs.
        var splitViews: [Lenient<SplitView>]?
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

    /// A value read when it has the expected shape and left as `nil` otherwise,
    /// so one odd closed group or split view does not make the file unreadable.
    struct Lenient<Value: Decodable>: Decodable {
        var value: Value?

        init(from decoder: any Decoder) throws {
            value = try? Value(from: decoder)
        }
    }
}
