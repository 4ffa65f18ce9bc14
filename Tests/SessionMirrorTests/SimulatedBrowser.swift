import Foundation
import SessionMirror

/// A browser made up by the tests: windows of tabs, each with a history, and the
/// events a WebExtension sees for each thing the user does, in the order
/// Chromium fires them. Not a recording of a real browser: the real ones are
/// driven by the browser suite.
final class SimulatedBrowser {
    struct Tab {
        var id: Int
        var history: [String]
        var current: Int
        var pinned = false
        var groupId: Int?
        var openerTabId: Int?
        var url: String { history[current] }
        var title: String { "Title of \(url)" }
    }

    struct Window {
        var id: Int
        var tabs: [Tab] = []
        var active: Int?
        var incognito = false
    }

    private(set) var windows: [Window] = []
    private(set) var groups: [Int: BrowserGroup] = [:]
    private var nextID = 100
    private var nextMessage = 1
    /// Events not yet taken by ``takeEvents()``.
    private var events: [MirrorMessage] = []

    private func newID() -> Int {
        nextID += 1
        return nextID
    }

    func takeEvents() -> [MirrorMessage] {
        defer { events.removeAll() }
        return events
    }

    private func emit(_ type: MirrorMessage.Kind, _ fill: (inout MirrorMessage) -> Void = { _ in }) {
        var message = MirrorMessage(id: nextMessage, type: type)
        nextMessage += 1
        fill(&message)
        // Firefox sends no webNavigation event for its own pages, such as the blank page
        // a window opened empty starts at.
        if type == .navigationCommitted, let url = message.url, Self.isBrowserPage(url) { return }
        events.append(message)
    }

    /// The page a window opened empty starts at, in Firefox.
    static let blankPage = "chrome://browser/content/blanktab.html"

    static func isBrowserPage(_ url: String) -> Bool { url.hasPrefix("about:") || url.hasPrefix("chrome:") }

    private func place(ofTab id: Int) -> (window: Int, index: Int)? {
        for (w, window) in windows.enumerated() {
            if let index = window.tabs.firstIndex(where: { $0.id == id }) { return (w, index) }
        }
        return nil
    }

    func described(_ tab: Tab, window: Window, index: Int) -> BrowserTab {
        var described = BrowserTab(
            id: tab.id, windowId: window.id, index: index, url: tab.url, title: tab.title, pinned: tab.pinned,
            groupId: tab.groupId ?? -1, active: window.active == tab.id, openerTabId: tab.openerTabId)
        described.incognito = window.incognito
        return described
    }

    private func describedTab(_ id: Int) -> BrowserTab? {
        guard let (w, index) = place(ofTab: id) else { return nil }
        return described(windows[w].tabs[index], window: windows[w], index: index)
    }

    /// Every window as `windows.getAll({populate: true})` gives them.
    func snapshot() -> [BrowserWindow] {
        windows.map { window in
            BrowserWindow(
                id: window.id, incognito: window.incognito,
                tabs: window.tabs.enumerated().map { described($1, window: window, index: $0) },
                groups: groups.values.filter { $0.windowId == window.id })
        }
    }

    // MARK: - What the user does

    @discardableResult
    func openWindow(url: String, incognito: Bool = false) -> Int {
        let window = Window(id: newID(), incognito: incognito)
        windows.append(window)
        emit(.windowCreated) { $0.window = BrowserWindow(id: window.id, incognito: incognito, tabs: []) }
        openTab(in: window.id, url: url)
        return window.id
    }

    @discardableResult
    func openTab(in windowID: Int, url: String, opener: Int? = nil, at position: Int? = nil) -> Int {
        guard let w = windows.firstIndex(where: { $0.id == windowID }) else { return -1 }
        let pinned = windows[w].tabs.prefix { $0.pinned }.count
        let index = min(max(position ?? windows[w].tabs.count, pinned), windows[w].tabs.count)
        var tab = Tab(id: newID(), history: [url], current: 0)
        tab.openerTabId = opener
        // Opened between two tabs of a group, it joins the group, as in Chromium.
        if index > 0, index < windows[w].tabs.count, let group = windows[w].tabs[index].groupId,
           windows[w].tabs[index - 1].groupId == group
        {
            tab.groupId = group
        }
        windows[w].tabs.insert(tab, at: index)
        windows[w].active = tab.id
        emit(.tabCreated) { $0.tab = self.described(tab, window: self.windows[w], index: index) }
        emit(.tabActivated) { $0.tabId = tab.id; $0.windowId = windowID }
        emit(.navigationCommitted) { $0.tabId = tab.id; $0.url = url; $0.transitionType = opener == nil ? "typed" : "link" }
        emit(.tabUpdated) { $0.tab = self.describedTab(tab.id) }
        return tab.id
    }

    func closeTab(_ id: Int) {
        guard let (w, index) = place(ofTab: id) else { return }
        let window = windows[w]
        if window.tabs.count == 1 {
            // Closing the last tab of the last window quits the browser: not simulated.
            guard windows.filter({ !$0.incognito }).count > 1 || window.incognito else { return }
            return closeWindow(window.id)
        }
        windows[w].tabs.remove(at: index)
        emit(.tabRemoved) { $0.tabId = id; $0.windowId = window.id; $0.isWindowClosing = false }
        dropEmptyGroups()
        if window.active == id {
            let next = windows[w].tabs[min(index, windows[w].tabs.count - 1)].id
            windows[w].active = next
            emit(.tabActivated) { $0.tabId = next; $0.windowId = window.id }
        }
    }

    func closeWindow(_ id: Int) {
        guard let w = windows.firstIndex(where: { $0.id == id }) else { return }
        for tab in windows[w].tabs {
            emit(.tabRemoved) { $0.tabId = tab.id; $0.windowId = id; $0.isWindowClosing = true }
        }
        windows.remove(at: w)
        emit(.windowRemoved) { $0.windowId = id }
        groups = groups.filter { $0.value.windowId != id }
    }

    func move(_ id: Int, to target: Int) {
        guard let (w, from) = place(ofTab: id) else { return }
        let tab = windows[w].tabs[from]
        let pinned = windows[w].tabs.prefix { $0.pinned }.count
        // A pinned tab stays among the pinned ones, another after them.
        let bounds = tab.pinned ? 0...(pinned - 1) : pinned...(windows[w].tabs.count - 1)
        var to = min(max(target, bounds.lowerBound), bounds.upperBound)
        if tab.groupId != nil { to = from }  // grouped tabs move with their group: not simulated
        guard to != from, wouldKeepGroupsTogether(w, from, to) else { return }
        windows[w].tabs.remove(at: from)
        windows[w].tabs.insert(tab, at: to)
        emit(.tabMoved) { $0.tabId = id; $0.windowId = self.windows[w].id; $0.fromIndex = from; $0.toIndex = to }
    }

    private func wouldKeepGroupsTogether(_ w: Int, _ from: Int, _ to: Int) -> Bool {
        var tabs = windows[w].tabs
        let tab = tabs.remove(at: from)
        tabs.insert(tab, at: to)
        var seen: Set<Int> = []
        var last: Int?
        for tab in tabs {
            if tab.groupId != last, let group = tab.groupId {
                if seen.contains(group) { return false }
                seen.insert(group)
            }
            last = tab.groupId
        }
        return true
    }

    func setPinned(_ id: Int, _ pinned: Bool) {
        guard let (w, from) = place(ofTab: id), windows[w].tabs[from].pinned != pinned,
              windows[w].tabs[from].groupId == nil
        else { return }
        var tab = windows[w].tabs.remove(at: from)
        tab.pinned = pinned
        let pinnedCount = windows[w].tabs.prefix { $0.pinned }.count
        let to = pinnedCount
        windows[w].tabs.insert(tab, at: to)
        emit(.tabUpdated) { $0.tab = self.describedTab(id) }
        if to != from {
            emit(.tabMoved) { $0.tabId = id; $0.windowId = self.windows[w].id; $0.fromIndex = from; $0.toIndex = to }
        }
    }

    /// Groups the unpinned, ungrouped tab and the ones after it (up to `count`), as `tabs.group` does.
    func group(_ id: Int, count: Int, title: String, color: String) {
        guard let (w, index) = place(ofTab: id), !windows[w].tabs[index].pinned else { return }
        let members = windows[w].tabs[index...].prefix { !$0.pinned && $0.groupId == nil }.prefix(count)
        guard !members.isEmpty else { return }
        let group = BrowserGroup(id: newID(), windowId: windows[w].id, title: "", color: "grey", collapsed: false)
        groups[group.id] = group
        emit(.groupCreated) { $0.group = group }
        for member in members {
            let position = windows[w].tabs.firstIndex { $0.id == member.id }!
            windows[w].tabs[position].groupId = group.id
            emit(.tabUpdated) { $0.tab = self.describedTab(member.id) }
        }
        groups[group.id]?.title = title
        groups[group.id]?.color = color
        emit(.groupUpdated) { $0.group = self.groups[group.id] }
    }

    func ungroup(_ id: Int) {
        guard let (w, index) = place(ofTab: id), windows[w].tabs[index].groupId != nil else { return }
        // Only the group's last tab leaves it, so the group stays together.
        let group = windows[w].tabs[index].groupId!
        let last = windows[w].tabs.lastIndex { $0.groupId == group }!
        windows[w].tabs[last].groupId = nil
        emit(.tabUpdated) { $0.tab = self.describedTab(self.windows[w].tabs[last].id) }
        dropEmptyGroups()
    }

    func renameGroup(of id: Int, title: String, color: String) {
        guard let (w, index) = place(ofTab: id), let group = windows[w].tabs[index].groupId else { return }
        groups[group]?.title = title
        groups[group]?.color = color
        emit(.groupUpdated) { $0.group = self.groups[group] }
    }

    private func dropEmptyGroups() {
        let used = Set(windows.flatMap { $0.tabs.compactMap(\.groupId) })
        for (id, group) in groups where !used.contains(id) {
            groups[id] = nil
            emit(.groupRemoved) { $0.group = group }
        }
    }

    func activate(_ id: Int) {
        guard let (w, _) = place(ofTab: id) else { return }
        windows[w].active = id
        emit(.tabActivated) { $0.tabId = id; $0.windowId = self.windows[w].id }
    }

    func navigate(_ id: Int, to url: String) {
        guard let (w, index) = place(ofTab: id) else { return }
        var tab = windows[w].tabs[index]
        tab.history = Array(tab.history[...tab.current]) + [url]
        tab.current += 1
        windows[w].tabs[index] = tab
        emit(.navigationCommitted) { $0.tabId = id; $0.url = url; $0.transitionType = "link" }
        emit(.tabUpdated) { $0.tab = self.describedTab(id) }
    }

    /// Discards a background tab as Chromium 156 does: the tab gets a new id, and
    /// `tabs.onReplaced` names both. Its page, history, place and openers stay.
    @discardableResult
    func discard(_ id: Int) -> Int? {
        guard let (w, index) = place(ofTab: id), windows[w].active != id else { return nil }
        let added = newID()
        windows[w].tabs[index].id = added
        for v in windows.indices {
            for t in windows[v].tabs.indices where windows[v].tabs[t].openerTabId == id {
                windows[v].tabs[t].openerTabId = added
            }
        }
        emit(.tabReplaced) { $0.addedTabId = added; $0.removedTabId = id }
        return added
    }

    /// Back or forward `steps` entries (negative: back).
    func go(_ id: Int, by steps: Int) {
        guard let (w, index) = place(ofTab: id) else { return }
        let target = windows[w].tabs[index].current + steps
        guard windows[w].tabs[index].history.indices.contains(target), steps != 0 else { return }
        windows[w].tabs[index].current = target
        let url = windows[w].tabs[index].url
        // Chromium reports the tab's new URL first, then the navigation.
        emit(.tabUpdated) { $0.tab = self.describedTab(id) }
        emit(.navigationCommitted) {
            $0.tabId = id; $0.url = url; $0.transitionType = "link"; $0.transitionQualifiers = ["forward_back"]
        }
    }

    /// Opens a stored window as the extension does for a restore: its tabs in the plan's
    /// order, pinned and grouped, the active one active. The events this fires are the
    /// extension's to drop (it sends the window whole, `windowRestored`): none is kept.
    /// - Returns: The window as described to the host, each tab with its plan's `sid`.
    func restore(tabs: [RestorePlan.Tab], groups planned: [RestorePlan.Group]) -> BrowserWindow {
        var window = Window(id: newID())
        var groupIDs: [String: Int] = [:]
        for group in planned {
            let id = newID()
            groupIDs[group.id] = id
            groups[id] = BrowserGroup(id: id, windowId: window.id, title: group.title, color: group.color, collapsed: group.collapsed)
        }
        var sids: [Int: String] = [:]
        for planned in tabs {
            var tab = Tab(id: newID(), history: [planned.url], current: 0)
            tab.pinned = planned.pinned
            tab.groupId = planned.group.flatMap { groupIDs[$0] }
            sids[tab.id] = planned.sid
            window.tabs.append(tab)
            if planned.active { window.active = tab.id }
        }
        windows.append(window)
        var made = BrowserWindow(
            id: window.id, incognito: false,
            tabs: window.tabs.enumerated().map { described($1, window: window, index: $0) },
            groups: groups.values.filter { $0.windowId == window.id })
        for index in made.tabs!.indices { made.tabs![index].sid = sids[made.tabs![index].id] }
        return made
    }

    /// As a browser whose session file lost the last change before it died: the tab
    /// comes back at another entry of its history, and nothing says so but a snapshot.
    func restore(_ id: Int, atEntry entry: Int) {
        guard let (w, index) = place(ofTab: id), windows[w].tabs[index].history.indices.contains(entry) else { return }
        windows[w].tabs[index].current = entry
    }

    /// Drags a tab into another window, at `position`.
    func drag(_ id: Int, toWindow target: Int, at position: Int) {
        guard let (w, index) = place(ofTab: id), let t = windows.firstIndex(where: { $0.id == target }), w != t
        else { return }
        if windows[w].tabs[index].pinned {
            // Chromium unpins it as it leaves its strip, and says so then, at index -1.
            var leaving = described(windows[w].tabs[index], window: windows[w], index: -1)
            leaving.pinned = false
            emit(.tabUpdated) { $0.tab = leaving }
        }
        var tab = windows[w].tabs.remove(at: index)
        tab.pinned = false
        tab.groupId = nil
        tab.openerTabId = nil
        let source = windows[w].id
        emit(.tabDetached) { $0.tabId = id; $0.oldWindowId = source; $0.oldPosition = index }
        if windows[w].active == id, !windows[w].tabs.isEmpty {
            let next = windows[w].tabs[min(index, windows[w].tabs.count - 1)].id
            windows[w].active = next
            emit(.tabActivated) { $0.tabId = next; $0.windowId = source }
        }
        let pinned = windows[t].tabs.prefix { $0.pinned }.count
        var at = min(max(position, pinned), windows[t].tabs.count)
        // Not into the middle of a group.
        while at < windows[t].tabs.count, at > 0, let g = windows[t].tabs[at].groupId, windows[t].tabs[at - 1].groupId == g {
            at += 1
        }
        windows[t].tabs.insert(tab, at: at)
        windows[t].active = id
        emit(.tabAttached) { $0.tabId = id; $0.newWindowId = target; $0.newPosition = at }
        emit(.tabUpdated) { $0.tab = self.describedTab(id) }
        emit(.tabActivated) { $0.tabId = id; $0.windowId = target }
        dropEmptyGroups()
        // Its last tab dragged away, the window goes (Chromium removes it after the attach).
        if let emptied = windows.firstIndex(where: { $0.id == source }), windows[emptied].tabs.isEmpty {
            windows.remove(at: emptied)
            emit(.windowRemoved) { $0.windowId = source }
        }
    }

    /// A restart: every window and tab comes back with a new id, as Chromium's do.
    func restart() {
        var renamed: [Int: Int] = [:]
        for w in windows.indices {
            windows[w].id = newID()
            for t in windows[w].tabs.indices {
                let id = newID()
                renamed[windows[w].tabs[t].id] = id
                windows[w].tabs[t].id = id
            }
            windows[w].active = windows[w].active.flatMap { renamed[$0] }
        }
        var newGroups: [Int: BrowserGroup] = [:]
        var renamedGroups: [Int: Int] = [:]
        for (id, var group) in groups {
            let new = newID()
            renamedGroups[id] = new
            group.id = new
            newGroups[new] = group
        }
        for w in windows.indices {
            for t in windows[w].tabs.indices {
                windows[w].tabs[t].openerTabId = windows[w].tabs[t].openerTabId.flatMap { renamed[$0] }
                windows[w].tabs[t].groupId = windows[w].tabs[t].groupId.flatMap { renamedGroups[$0] }
            }
        }
        for (id, group) in newGroups {
            newGroups[id]?.windowId = windows.first { $0.tabs.contains { $0.groupId == group.id } }?.id ?? group.windowId
        }
        groups = newGroups
        events.removeAll()
    }
}
