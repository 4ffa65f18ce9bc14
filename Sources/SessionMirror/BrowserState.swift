import Foundation

/// The browser's windows as its events tell them: each window's tabs in order,
/// each tab's page, pinned state and group, each window's groups and active tab.
///
/// Pure: the events change it, the mirror writes it to the store. Private
/// (incognito) windows and tabs never enter it.
package struct BrowserState: Sendable, Equatable {
    /// One tab, as the browser last reported it.
    package struct Tab: Sendable, Equatable {
        package var windowId: Int
        package var url: String?
        package var title: String
        package var pinned: Bool
        package var groupId: Int?
        package var openerTabId: Int?
        /// The browser's split view the tab is in (`tabs.Tab.splitViewId`), `nil` for none.
        package var splitViewId: Int? = nil
        /// Whether the browser ever said which split view the tab is in (one without split
        /// views never does).
        package var splitReported = false
    }

    /// Each window's tabs, in order.
    package private(set) var windows: [Int: [Int]] = [:]
    /// Every tab of every window.
    package private(set) var tabs: [Int: Tab] = [:]
    /// Every group, by its id.
    package private(set) var groups: [Int: BrowserGroup] = [:]
    /// Each window's active tab.
    package private(set) var active: [Int: Int] = [:]

    package init() {}

    /// The state a snapshot describes, its private windows left out.
    package init(snapshot windows: [BrowserWindow]) {
        for window in windows where window.incognito != true {
            addWindow(window)
        }
    }

    /// Adds a window, with the tabs and groups it comes with.
    package mutating func addWindow(_ window: BrowserWindow) {
        guard window.incognito != true else { return }
        if windows[window.id] == nil { windows[window.id] = [] }
        for group in window.groups ?? [] { groups[group.id] = group }
        for tab in (window.tabs ?? []).sorted(by: { $0.index < $1.index }) { insert(tab) }
    }

    /// Forgets a window, its tabs and groups.
    package mutating func removeWindow(_ id: Int) {
        for tab in windows[id] ?? [] { tabs[tab] = nil }
        windows[id] = nil
        active[id] = nil
        groups = groups.filter { $0.value.windowId != id }
    }

    /// Adds a tab at its index (clamped to the window), or updates one already known.
    package mutating func insert(_ tab: BrowserTab) {
        guard tab.incognito != true else { return }
        if tabs[tab.id] != nil {
            update(tab)
            return
        }
        var order = windows[tab.windowId] ?? []
        order.insert(tab.id, at: min(max(tab.index, 0), order.count))
        windows[tab.windowId] = order
        tabs[tab.id] = Tab(
            windowId: tab.windowId, url: Self.url(tab.url), title: tab.title ?? "", pinned: tab.pinned ?? false,
            groupId: Self.optionalID(tab.groupId), openerTabId: tab.openerTabId,
            splitViewId: Self.optionalID(tab.splitViewId), splitReported: tab.splitViewId != nil)
        if tab.active == true { active[tab.windowId] = tab.id }
    }

    /// Takes what a full `tabs.Tab` says of a known tab: its page, pinned state,
    /// group, and (when the window agrees) its index.
    package mutating func update(_ tab: BrowserTab) {
        // Index -1: the tab is leaving its strip (dragged away, or its window closing, the
        // browser quitting), and the browser takes it out of its group first. What follows
        // (detached, removed) says what happens; the group it leaves is not news.
        guard tab.index >= 0 else { return }
        guard var known = tabs[tab.id] else { return insert(tab) }
        if let url = Self.url(tab.url) { known.url = url }
        if let title = tab.title { known.title = title }
        if let pinned = tab.pinned { known.pinned = pinned }
        if tab.groupId != nil { known.groupId = Self.optionalID(tab.groupId) }
        // Absent: a browser without split views, or a message that does not say.
        if tab.splitViewId != nil {
            known.splitViewId = Self.optionalID(tab.splitViewId)
            known.splitReported = true
        }
        tabs[tab.id] = known
        if tab.active == true { active[known.windowId] = tab.id }
        // The index the browser reports now: pinning, for one, moves a tab without an onMoved here.
        if known.windowId == tab.windowId, var order = windows[tab.windowId], let from = order.firstIndex(of: tab.id) {
            let to = min(max(tab.index, 0), order.count - 1)
            if from != to {
                order.remove(at: from)
                order.insert(tab.id, at: to)
                windows[tab.windowId] = order
            }
        }
    }

    /// Removes a tab from its window (closed, or detached to be attached elsewhere).
    package mutating func remove(tab id: Int) {
        guard let tab = tabs[id] else { return }
        windows[tab.windowId]?.removeAll { $0 == id }
        if active[tab.windowId] == id { active[tab.windowId] = nil }
        tabs[id] = nil
    }

    /// Moves a tab within its window.
    package mutating func move(tab id: Int, to index: Int) {
        guard let tab = tabs[id], var order = windows[tab.windowId], let from = order.firstIndex(of: id) else { return }
        order.remove(at: from)
        order.insert(id, at: min(max(index, 0), order.count))
        windows[tab.windowId] = order
    }

    /// Puts a tab, detached from its window, into another at `index`.
    package mutating func attach(tab id: Int, detached: Tab, to window: Int, at index: Int) {
        var tab = detached
        tab.windowId = window
        var order = windows[window] ?? []
        order.insert(id, at: min(max(index, 0), order.count))
        windows[window] = order
        tabs[id] = tab
    }

    /// Makes a tab its window's active one.
    package mutating func activate(tab id: Int, in window: Int) {
        guard tabs[id]?.windowId == window else { return }
        active[window] = id
    }

    /// Gives a tab a new id (Chromium replaced it, prerendering a page).
    package mutating func replace(tab removed: Int, with added: Int) {
        guard let tab = tabs[removed], tabs[added] == nil else { return }
        tabs[removed] = nil
        tabs[added] = tab
        windows[tab.windowId] = windows[tab.windowId]?.map { $0 == removed ? added : $0 }
        if active[tab.windowId] == removed { active[tab.windowId] = added }
        for (other, value) in tabs where value.openerTabId == removed { tabs[other]?.openerTabId = added }
    }

    /// Adds or updates a group.
    package mutating func setGroup(_ group: BrowserGroup) {
        groups[group.id] = group
    }

    /// Forgets a group no tab is in any more. A group whose tabs are still in it is
    /// being torn down with its window (or the browser quitting): its tabs keep it,
    /// and what becomes of them (closed, moved) says the rest.
    package mutating func removeGroup(_ id: Int) {
        guard !tabs.values.contains(where: { $0.groupId == id }) else { return }
        groups[id] = nil
    }

    /// A page URL, `nil` for none (an empty string).
    private static func url(_ url: String?) -> String? {
        guard let url, !url.isEmpty else { return nil }
        return url
    }

    /// A group or split view id, `nil` for none (`-1`, `TAB_GROUP_ID_NONE` or `SPLIT_VIEW_ID_NONE`).
    private static func optionalID(_ id: Int?) -> Int? {
        guard let id, id >= 0 else { return nil }
        return id
    }
}
