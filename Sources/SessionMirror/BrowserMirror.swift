import Foundation
import SessionModel
import SessionStorage

/// Mirrors a browser into a store, one extension message at a time: each
/// message is written in one transaction, through the repositories, before it
/// is acknowledged.
///
/// The browser's windows are browsers of the store, its tabs web states, its
/// groups tab groups; the browser's numeric ids map to the store's identifiers
/// for as long as the browser runs, and a snapshot (at the extension's start,
/// and after the host reconnects or the browser restarts) maps them again (see
/// ``WindowMatching``). Each window's tabs, pinned tabs, groups and active tab
/// are written as the browser shows them; a tab closed alone becomes a recently
/// closed tab, the tabs of a closing window a recently closed window. Histories
/// follow ``NavigationFollowing``.
///
/// Not thread-safe: the host calls it from one thread.
package final class BrowserMirror {
    package let database: SessionDatabase
    let browsers: SQLiteBrowserRepository
    let lists: SQLiteWebStateListRepository
    let histories: SQLiteNavigationHistoryRepository
    /// The browser this mirror keeps: it creates, matches and closes only windows of this source.
    package let source: BrowserSource
    let now: () -> Date

    /// What the engine knows, kept apart so that a failed write can put it back as it was.
    struct Memory {
        /// The browser as its events tell it.
        var state = BrowserState()
        var browserOf: [Int: BrowserID] = [:]
        var tabOf: [Int: WebStateID] = [:]
        var groupOf: [Int: TabGroupID] = [:]
        /// The store's split for each split view of a window (see ``BrowserMirror/SplitKey``).
        var splitOf: [SplitKey: TabSplitID] = [:]
        /// Split views the store cannot hold as the browser shows them, each noted once.
        var ignoredSplits: Set<SplitKey> = []
        /// How many split views were left out since the host started (``BrowserMirror/ignoredSplitCount``).
        var ignoredSplitTotal = 0
        /// What the host logs, taken with ``BrowserMirror/takeNotes()``.
        var notes: [String] = []
        /// Tabs detached from a window and not yet attached to another, with the window they left.
        var detached: [Int: (tab: BrowserState.Tab, from: Int)] = [:]
        /// The pinned state a tab leaving its strip was given (an update at index -1): Chromium
        /// unpins a tab it moves to another window's unpinned part, and says so only then.
        var leavingPinned: [Int: Bool] = [:]
        /// Tabs whose current entry was added for a new URL that `tabs.onUpdated`
        /// reported before `webNavigation` said how the user got there.
        var provisional: Set<WebStateID> = []
        /// Browsers whose windows the browser removed, not yet written as closed (see ``closeDelay``).
        var pendingCloses: [(browser: BrowserID, due: Date)] = []
    }

    /// How long a removed window waits before it is written as closed. A browser
    /// that quits removes every window, one after another, and restores them all
    /// at its next start: removals that end with no window left, or with the
    /// browser gone (the host's input ends), are a quit, and close nothing.
    package static let closeDelay: TimeInterval = 1.5

    /// When the first removed window is due to be written as closed, if any is waiting.
    package var nextCloseDue: Date? { memory.pendingCloses.map(\.due).min() }

    var memory = Memory()

    /// Whether a snapshot was written: until then the mirror knows no window of the browser.
    package private(set) var hasSnapshot = false

    /// The browser as the events received so far tell it.
    package var state: BrowserState { memory.state }

    /// The store's browser for a browser window, once known.
    package func browser(forWindow id: Int) -> BrowserID? { memory.browserOf[id] }

    /// The store's tab for a browser tab, once known.
    package func webState(forTab id: Int) -> WebStateID? { memory.tabOf[id] }

    /// The source of a host that could not tell which browser started it.
    package static let unnamedSource = BrowserSource(rawValue: "browser")!

    /// A mirror of the browser `source` into `database`; `now` stamps new tabs and entries.
    package init(database: SessionDatabase, source: BrowserSource = unnamedSource, now: @escaping () -> Date = Date.init) {
        self.database = database
        self.source = source
        browsers = SQLiteBrowserRepository(database: database)
        lists = SQLiteWebStateListRepository(database: database)
        histories = SQLiteNavigationHistoryRepository(database: database)
        self.now = now
    }

    /// Writes what `message` tells, in one transaction, and says what to reply.
    ///
    /// - Throws: ``StorageError`` when the store cannot be written (``StorageError/busy(path:)``
    ///   when another process held the lock past the busy timeout): nothing was written,
    ///   and the mirror is as it was, so the same message can be handled again.
    package func handle(_ message: MirrorMessage) throws -> MirrorReply {
        let saved = memory
        do {
            switch message.type {
            case .restorePlan:
                return MirrorReply(ack: message.id, plan: try database.writingTogether { try restorePlan(message) })
            case .overview:
                var reply = MirrorReply(ack: message.id)
                reply.overview = try overview()
                return reply
            case .search:
                var reply = MirrorReply(ack: message.id)
                reply.matches = try search(message.query ?? "", limit: 30)
                return reply
            case .reopenClosed:
                var reply = MirrorReply(ack: message.id)
                reply.reopen = try database.writingTogether { try reopenClosed(message) }
                return reply
            default:
                break
            }
            let ids = try database.writingTogether { try apply(message) }
            if message.type == .snapshot { hasSnapshot = true }
            return MirrorReply(ack: message.id, ids: ids.isEmpty ? nil : ids)
        } catch {
            memory = saved
            throw error
        }
    }

    /// Applies one message; returns the store identifiers of tabs it made known.
    private func apply(_ message: MirrorMessage) throws -> [String: String] {
        switch message.type {
        case .snapshot:
            return try applySnapshot(message.windows ?? [])
        case .restorePlan, .overview, .search, .reopenClosed, .openDone:
            return [:]
        case .windowRestored:
            return try applyRestoredWindow(message)
        case .windowCreated:
            guard let window = message.window, window.incognito != true else { return [:] }
            memory.state.addWindow(window)
            try ensureBrowser(window.id)
            try reconcile(window.id)
            return try follow(tabs: window.tabs ?? [])
        case .windowRemoved:
            guard let id = message.windowId, memory.state.windows[id] != nil else { return [:] }
            if let browser = memory.browserOf[id] {
                if try lists.webStateList(in: browser).webStates.isEmpty {
                    // Emptied (its last tab dragged away): no browser restores an empty window, so it
                    // goes now, leaving no entry, even if the browser is quitting or dies next.
                    try browsers.closeBrowser(browser)
                } else {
                    memory.pendingCloses.append((browser, now().addingTimeInterval(Self.closeDelay)))
                }
            }
            memory.state.removeWindow(id)
            memory.browserOf[id] = nil
            // The last window gone: the browser is quitting, and will restore them all.
            if memory.state.windows.isEmpty { memory.pendingCloses.removeAll() }
        case .tabCreated:
            guard let tab = message.tab, tab.incognito != true else { return [:] }
            memory.state.insert(tab)
            try ensureBrowser(tab.windowId)
            try reconcile(tab.windowId)
            return try follow(tabs: [tab])
        case .tabRemoved:
            guard let id = message.tabId, let tab = memory.state.tabs[id] else { return [:] }
            memory.leavingPinned[id] = nil
            memory.state.remove(tab: id)
            // The tabs of a closing window close with it, as one recently closed window (windowRemoved).
            if message.isWindowClosing != true { try reconcile(tab.windowId) }
        case .tabMoved:
            guard let id = message.tabId, let tab = memory.state.tabs[id], let index = message.toIndex else { return [:] }
            memory.state.move(tab: id, to: index)
            try reconcile(tab.windowId)
        case .tabDetached:
            guard let id = message.tabId, var tab = memory.state.tabs[id] else { return [:] }
            // It arrives in the other window as it left this one.
            if let pinned = memory.leavingPinned.removeValue(forKey: id) { tab.pinned = pinned }
            memory.detached[id] = (tab, tab.windowId)
            memory.state.remove(tab: id)
        case .tabAttached:
            guard let id = message.tabId, let window = message.newWindowId,
                  let (tab, from) = memory.detached.removeValue(forKey: id)
            else { return [:] }
            let position = message.newPosition ?? Int.max
            // It left its group; the browser says which group it joins, if any, next.
            var attached = tab
            attached.groupId = nil
            memory.state.attach(tab: id, detached: attached, to: window, at: position)
            let target = try ensureBrowser(window)
            if let webState = memory.tabOf[id], let source = memory.browserOf[from],
               try lists.webStateList(in: source).index(of: webState) != nil
            {
                // The same tab, with its history and identifier, in the other browser.
                try lists.moveWebState(webState, to: target, params: .atIndex(position))
            }
            try reconcile(from)
            try reconcile(window)
        case .tabActivated:
            guard let id = message.tabId, let window = message.windowId else { return [:] }
            memory.state.activate(tab: id, in: window)
            try reconcile(window)
        case .tabUpdated:
            guard let tab = message.tab, tab.incognito != true, memory.state.tabs[tab.id] != nil else { return [:] }
            // Leaving its strip (index -1): what it is given then is kept for where it goes,
            // if it is detached; a tab of a closing window keeps what it had (see BrowserState.update).
            if tab.index < 0, let pinned = tab.pinned { memory.leavingPinned[tab.id] = pinned }
            memory.state.update(tab)
            try reconcile(tab.windowId)
            _ = try follow(tabs: [tab])
        case .tabReplaced:
            guard let added = message.addedTabId, let removed = message.removedTabId else { return [:] }
            memory.state.replace(tab: removed, with: added)
            guard let webState = memory.tabOf.removeValue(forKey: removed) else { return [:] }
            memory.tabOf[added] = webState
            return [String(added): webState.uuidString]
        case .groupCreated, .groupUpdated, .groupMoved:
            guard let group = message.group else { return [:] }
            let before = memory.state.groups[group.id]?.windowId
            memory.state.setGroup(group)
            // A group moved to another window leaves the first one before it joins the second.
            if let before, before != group.windowId { try reconcile(before) }
            try reconcile(group.windowId)
        case .groupRemoved:
            guard let group = message.group else { return [:] }
            memory.state.removeGroup(group.id)
            try reconcile(group.windowId)
        case .navigationCommitted:
            try followNavigation(message)
        }
        return [:]
    }

    /// Writes the removed windows that are due (all of them with `.distantFuture`)
    /// as recently closed windows, in one transaction; returns how many.
    @discardableResult
    package func closeRemovedWindows(dueBy time: Date) throws -> Int {
        let due = memory.pendingCloses.filter { $0.due <= time }
        guard !due.isEmpty else { return 0 }
        try database.writingTogether {
            // A browser a window shows again (restored meanwhile) stays open.
            for close in due where try browsers.browser(close.browser) != nil && !memory.browserOf.values.contains(close.browser) {
                try browsers.closeBrowser(close.browser)
            }
        }
        memory.pendingCloses.removeAll { close in due.contains { $0.browser == close.browser } }
        return due.count
    }

    /// Forgets the removed windows not yet written as closed: the browser quit, and restores them.
    @discardableResult
    package func keepRemovedWindowsOpen() -> Int {
        defer { memory.pendingCloses.removeAll() }
        return memory.pendingCloses.count
    }

    /// The store's browser for a window, made when the window is new.
    @discardableResult
    func ensureBrowser(_ window: Int) throws -> BrowserID {
        if let known = memory.browserOf[window] { return known }
        let made = try browsers.createBrowser(source: source).id
        memory.browserOf[window] = made
        return made
    }

    /// The store's tab for a browser tab, a new identifier when it has none.
    func webStateID(forTab id: Int) -> WebStateID {
        if let known = memory.tabOf[id] { return known }
        let made = WebStateID()
        memory.tabOf[id] = made
        return made
    }

    /// Each tab's page followed into its history; the store identifiers of the tabs.
    private func follow(tabs: [BrowserTab]) throws -> [String: String] {
        var ids: [String: String] = [:]
        for tab in tabs where memory.state.tabs[tab.id] != nil {
            guard let webState = memory.tabOf[tab.id] else { continue }
            try followPage(ofTab: tab.id)
            ids[String(tab.id)] = webState.uuidString
        }
        return ids
    }
}
