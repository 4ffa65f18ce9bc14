import Foundation
import SessionModel
import SessionStorage

/// A window the store keeps, opened in the browser: the extension asks for its
/// plan (`restorePlan`: the tabs in order with their pages, pinned tabs, groups
/// and the active tab, a page of at most ``NativeMessaging/maximumOutgoing``
/// bytes at a time), opens it without loading its tabs, makes its split views
/// where the browser can (Chromium's `tabs.createSplit`; Firefox gives extensions
/// no way to, and the extension says so), and then tells the host
/// the window it made (`windowRestored`), each tab carrying the identifier the
/// plan gave it. Those tabs are the store's tabs, with their histories: a restore
/// is not a copy.
///
/// A window in recently closed is opened again in the store when its plan is
/// first asked for. An open window can be restored when it is this browser's, or
/// no browser's, and this browser does not show it already.
extension BrowserMirror {
    /// One page of a stored window's plan.
    func restorePlan(_ message: MirrorMessage) throws -> RestorePlan {
        guard let text = message.browser, let browser = BrowserID(uuidString: text) else {
            throw MirrorRefusal("restorePlan needs the store's browser (`browser`: its identifier)")
        }
        try reopenIfClosed(browser)
        guard memory.browserOf.values.contains(browser) == false else {
            throw MirrorRefusal("browser \(text) is already shown in this browser")
        }
        if let owner = try browsers.sources()[browser], owner != source {
            throw MirrorRefusal("browser \(text) is \(owner)'s, not \(source)'s")
        }
        let snapshot = try lists.snapshot(of: browser)
        let list = snapshot.list
        let tabs = zip(list.webStates, list.groupIDs).enumerated().map { index, tab in
            let (webState, groupID) = tab
            return RestorePlan.Tab(
                sid: webState.id.uuidString, url: snapshot.pages[webState.id]?.url ?? "",
                title: snapshot.pages[webState.id]?.title ?? "", pinned: index < list.pinnedCount,
                group: groupID?.uuidString, active: index == list.activeIndex,
                split: list.splitID(of: webState.id)?.uuidString)
        }
        let groups = list.orderedGroups.map(RestorePlan.Group.init)
        return try RestorePlan.page(browser: text, tabs: tabs, groups: groups, from: message.offset ?? 0)
    }

    /// After `windowRestored`: the window the extension made is the browser's window, and
    /// each of its tabs that carries one of the browser's tab identifiers is that tab.
    func applyRestoredWindow(_ message: MirrorMessage) throws -> [String: String] {
        guard let window = message.window, window.incognito != true, let text = message.browser,
              let browser = BrowserID(uuidString: text), try browsers.browser(browser) != nil
        else {
            throw MirrorRefusal("windowRestored needs the restored window and an open browser of the store")
        }
        guard memory.browserOf.values.contains(browser) == false, memory.state.windows[window.id] == nil else {
            throw MirrorRefusal("browser \(text) or window \(window.id) is already mirrored")
        }
        let owner = try browsers.sources()[browser]
        if let owner, owner != source {
            throw MirrorRefusal("browser \(text) is \(owner)'s, not \(source)'s")
        }
        // Closed a moment ago and back already: no longer due to be written as closed.
        memory.pendingCloses.removeAll { $0.browser == browser }
        memory.state.addWindow(window)
        memory.browserOf[window.id] = browser
        let list = try lists.webStateList(in: browser)
        let order = memory.state.windows[window.id] ?? []
        // Tabs the browser shows now claim their identifiers; a closed window's tabs no longer do.
        let claimed = Set(memory.state.tabs.keys.filter { !order.contains($0) }.compactMap { memory.tabOf[$0] })
        for tab in window.tabs ?? [] {
            guard let sid = tab.sid, let id = WebStateID(uuidString: sid), list.index(of: id) != nil, !claimed.contains(id)
            else { continue }
            memory.tabOf = memory.tabOf.filter { $0.value != id }
            memory.tabOf[tab.id] = id
        }
        // Groups of windows gone no longer claim theirs.
        memory.groupOf = memory.groupOf.filter { memory.state.groups[$0.key] != nil }
        Self.matchGroups(of: order, state: memory.state, tabOf: memory.tabOf, in: list, into: &memory.groupOf)
        Self.matchSplits(
            of: order, in: window.id, state: memory.state, tabOf: memory.tabOf, in: list, into: &memory.splitOf)
        if owner == nil { try browsers.setSource(source, of: browser) }
        if let missing = message.splitsNotMade, missing > 0 {
            memory.notes.append(
                "browser \(text) restored without \(missing) of its split view(s): this browser cannot make one "
                    + "for an extension, so the store's split(s) end as the window shows none")
        }
        try reconcile(window.id)
        var ids: [String: String] = [:]
        for tab in order {
            try followPage(ofTab: tab, fromSnapshot: true)
            if let id = memory.tabOf[tab] { ids[String(tab)] = id.uuidString }
        }
        return ids
    }

    /// Opens `browser` again in the store when it sits in recently closed, with its tabs.
    private func reopenIfClosed(_ browser: BrowserID) throws {
        guard try browsers.browser(browser) == nil else { return }
        let closed = SQLiteRecentlyClosedRepository(database: database)
        guard let entry = try closed.entries().first(where: { $0.kind == .window && $0.browser == browser }) else {
            throw MirrorRefusal("no open or recently closed window \(browser.uuidString) in the store")
        }
        _ = try closed.restore(entry.id)
    }
}

/// Why the host refused a message, in words the extension shows.
struct MirrorRefusal: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
