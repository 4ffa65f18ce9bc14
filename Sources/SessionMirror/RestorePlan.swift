import Foundation
import SessionModel

/// A stored window, or one page of it, as the extension opens it: its tabs in
/// order (pinned ones first), each with the page to show, its group, its split
/// and whether it is the active one, and the window's groups.
package struct RestorePlan: Encodable, Sendable, Equatable {
    /// One tab to open.
    package struct Tab: Encodable, Sendable, Equatable {
        /// The store's identifier of the tab: the extension gives it back in `windowRestored`.
        package var sid: String
        /// The page to show (empty for a tab with no page yet; `about:blank` when its URL
        /// alone would take more than half a page, about 467 KB).
        package var url: String
        package var title: String
        package var pinned: Bool
        /// The store's group identifier, one of the plan's `groups`.
        package var group: String?
        package var active: Bool
        /// The store's split identifier, shared with the tab next to it; the extension makes the
        /// split where the browser can (Chromium's `tabs.createSplit`).
        package var split: String?
    }

    /// One group of the window.
    package struct Group: Encodable, Sendable, Equatable {
        package var id: String
        package var title: String
        package var color: String
        package var collapsed: Bool

        /// The store's group as the browser makes it.
        init(_ group: TabGroup) {
            self.init(
                id: group.id.uuidString, title: group.visualData.title, color: group.visualData.color.rawValue,
                collapsed: group.visualData.isCollapsed)
        }

        package init(id: String, title: String, color: String, collapsed: Bool) {
            self.id = id
            self.title = title
            self.color = color
            self.collapsed = collapsed
        }
    }

    /// The store's browser.
    package var browser: String
    /// The index of this page's first tab in the window.
    package var offset: Int
    /// How many tabs the window has.
    package var total: Int
    package var tabs: [Tab]
    /// Every group of the window (on each page).
    package var groups: [Group]
    /// Where the next page starts, when there is one: ask again with this `offset`.
    package var next: Int?

    /// The largest JSON a page's tabs may take, leaving room for the rest of the reply.
    static let pageBytes = NativeMessaging.maximumOutgoing - 64 * 1024

    /// The page of `tabs` from `offset` on that fits in a message.
    static func page(browser: String, tabs: [Tab], groups: [Group], from offset: Int) throws -> RestorePlan {
        guard (0...tabs.count).contains(offset) else {
            throw MirrorRefusal("offset \(offset) is past the window's \(tabs.count) tabs")
        }
        let encoder = JSONEncoder()
        var budget = pageBytes - (try encoder.encode(groups)).count
        var page: [Tab] = []
        for var tab in tabs[offset...] {
            var size = try encoder.encode(tab).count + 1
            if size > pageBytes / 2 {
                // A URL too long for a message (data: URLs can be megabytes): a blank page, same tab.
                tab.url = "about:blank"
                size = try encoder.encode(tab).count + 1
            }
            if size > budget, !page.isEmpty { break }
            budget -= size
            page.append(tab)
        }
        let end = offset + page.count
        return RestorePlan(
            browser: browser, offset: offset, total: tabs.count, tabs: page, groups: groups,
            next: end < tabs.count ? end : nil)
    }
}
