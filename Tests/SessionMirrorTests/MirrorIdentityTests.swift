import Foundation
@testable import SessionMirror
@testable import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// What the mirror keeps across restarts of the browser and of the host, and
/// what it records when tabs and windows close.
@Suite struct MirrorIdentityTests {
    /// A browser of three windows with histories, groups and pinned tabs, mirrored.
    private static func mirrored() throws -> (TemporaryStore, SimulatedBrowser, BrowserMirror) {
        let store = try TemporaryStore.onDisk()
        let mirror = BrowserMirror(database: store.database)
        let browser = SimulatedBrowser()
        for w in 0..<3 {
            let window = browser.openWindow(url: "https://w\(w).example/0")
            for t in 1..<5 { browser.openTab(in: window, url: "https://w\(w).example/\(t)") }
            let tabs = browser.windows.last!.tabs.map(\.id)
            browser.navigate(tabs[1], to: "https://w\(w).example/1/next")
            browser.navigate(tabs[1], to: "https://w\(w).example/1/last")
            browser.go(tabs[1], by: -1)
            browser.setPinned(tabs[0], true)
            browser.group(tabs[2], count: 2, title: "Group \(w)", color: "blue")
        }
        try MirrorFidelityTests.deliver(browser, to: mirror)
        return (store, browser, mirror)
    }

    /// The store's tabs by URL, with their identifiers and histories.
    private static func tabsByURL(_ store: TemporaryStore) throws -> [String: (WebStateID, [String])] {
        var found: [String: (WebStateID, [String])] = [:]
        for browser in try store.browsers.browsers() {
            let snapshot = try store.tabs.snapshot(of: browser.id)
            for webState in snapshot.list.webStates {
                let history = try store.histories.history(of: webState.id)
                found[snapshot.pages[webState.id]?.url ?? ""] = (webState.id, history.items.map(\.url))
            }
        }
        return found
    }

    /// Which tabs carry the identifier the host gave them across a restart.
    enum Carried: CaseIterable, Sendable {
        /// Chromium: none; windows and tabs are matched by URL.
        case none
        /// Firefox: every tab (`sessions.setTabValue`).
        case all
        /// Firefox quit before it kept one tab's identifier in each window: that tab is
        /// matched by URL among its window's tabs (the full Firefox run found one such tab
        /// becoming a new tab, its history lost).
        case allButOnePerWindow
    }

    @Test(arguments: Carried.allCases)
    func aRestart_keepsEveryTabsIdentifierAndHistory_andDuplicatesNothing(carried: Carried) throws {
        let (store, browser, mirror) = try Self.mirrored()
        let before = try Self.tabsByURL(store)
        #expect(before.count == 15)
        browser.restart()
        // A new host process: it knows nothing but the store.
        let restarted = BrowserMirror(database: store.database)
        var windows = browser.snapshot()
        if carried != .none {
            let byURL = before
            for w in windows.indices {
                for t in windows[w].tabs!.indices where carried == .all || t != 2 {
                    windows[w].tabs![t].sid = byURL[windows[w].tabs![t].url!]?.0.uuidString
                }
            }
        }
        var snapshot = MirrorMessage(id: 1, type: .snapshot)
        snapshot.windows = windows
        let reply = try restarted.handle(snapshot)
        #expect(reply.ids?.count == 15)
        let after = try Self.tabsByURL(store)
        #expect(after.count == 15)
        for (url, (id, history)) in before {
            #expect(after[url]?.0 == id, "\(url)")
            #expect(after[url]?.1 == history, "\(url)")
        }
        #expect(try store.browsers.browsers().count == 3)
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().isEmpty)
        #expect(try MirrorFidelityTests.mismatches(browser, restarted, store).isEmpty)
        _ = mirror
    }

    @Test func aSnapshotWithNoTab_closesNothing_andAWindowNoLongerThere_isListedAsClosed() throws {
        let (store, browser, _) = try Self.mirrored()
        let restarted = BrowserMirror(database: store.database)
        var empty = MirrorMessage(id: 1, type: .snapshot)
        empty.windows = []
        _ = try restarted.handle(empty)
        #expect(try store.browsers.browsers().count == 3)
        // The browser comes back with two of its three windows.
        browser.closeWindow(browser.windows[2].id)
        browser.restart()
        var snapshot = MirrorMessage(id: 2, type: .snapshot)
        snapshot.windows = browser.snapshot()
        _ = try restarted.handle(snapshot)
        #expect(try store.browsers.browsers().count == 2)
        let closed = try SQLiteRecentlyClosedRepository(database: store.database).entries()
        #expect(closed.map(\.kind) == [.window] && closed.first?.tabs.count == 5, "\(closed)")
    }

    @Test func aTabClosedAlone_isARecentlyClosedTab_andAClosingWindowsTabs_oneRecentlyClosedWindow() throws {
        let (store, browser, mirror) = try Self.mirrored()
        let tab = browser.windows[0].tabs[3]
        browser.closeTab(tab.id)
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let repository = SQLiteRecentlyClosedRepository(database: store.database)
        let closedTab = try #require(try repository.entries().first)
        #expect(closedTab.kind == .tab && closedTab.tabs.first?.page?.url == tab.url)
        browser.closeWindow(browser.windows[1].id)
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let entries = try repository.entries()
        #expect(entries.map(\.kind) == [.window, .tab], "\(entries)")
        #expect(entries.first?.tabs.count == 5)
        #expect(try MirrorFidelityTests.mismatches(browser, mirror, store).isEmpty)
    }

    /// A browser that quits removes every window; they stay open in the store, and
    /// its next start finds them. A window removed while others stay is closed once
    /// the delay has passed, not before.
    @Test func windowsRemovedByAQuit_stayOpen_andOneClosedAlone_closesAfterTheDelay() throws {
        let (store, browser, mirror) = try Self.mirrored()
        browser.closeWindow(browser.windows[0].id)
        for event in browser.takeEvents() { _ = try mirror.handle(event) }
        #expect(mirror.nextCloseDue != nil)
        #expect(try mirror.closeRemovedWindows(dueBy: Date()) == 0)
        #expect(try store.browsers.browsers().count == 3)
        // The other two go: the last window gone, it was a quit.
        for window in browser.windows.map(\.id) { browser.closeWindow(window) }
        for event in browser.takeEvents() { _ = try mirror.handle(event) }
        #expect(mirror.nextCloseDue == nil)
        #expect(try store.browsers.browsers().count == 3)
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().isEmpty)
        // One window removed while the others stay: closed once due.
        let (store2, browser2, mirror2) = try Self.mirrored()
        browser2.closeWindow(browser2.windows[1].id)
        for event in browser2.takeEvents() { _ = try mirror2.handle(event) }
        let due = try #require(mirror2.nextCloseDue)
        #expect(try mirror2.closeRemovedWindows(dueBy: due) == 1)
        #expect(try store2.browsers.browsers().count == 2)
        #expect(try SQLiteRecentlyClosedRepository(database: store2.database).entries().map(\.kind) == [.window])
        _ = store
    }

    /// A tab that moved to another window while the host was away comes back with its
    /// identifier into that window's browser, whatever order the windows are written in.
    @Test(arguments: [false, true])
    func aCarriedTabNowInAnotherWindow_movesWithItsHistory_andNothingIsClosed(reversed: Bool) throws {
        let (store, browser, mirror) = try Self.mirrored()
        var windows = browser.snapshot()
        // The first window's last tab now shows in the second window, carrying its identifier.
        for w in windows.indices {
            for t in windows[w].tabs!.indices {
                windows[w].tabs![t].sid = mirror.webState(forTab: windows[w].tabs![t].id)?.uuidString
            }
        }
        var moved = windows[0].tabs!.removeLast()
        moved.windowId = windows[1].id
        moved.index = windows[1].tabs!.count
        moved.active = false
        windows[1].tabs!.append(moved)
        if reversed { windows.reverse() }
        let id = try #require(moved.sid.flatMap(WebStateID.init(uuidString:)))
        let history = try store.histories.history(of: id)
        let restarted = BrowserMirror(database: store.database)
        var snapshot = MirrorMessage(id: 1, type: .snapshot)
        snapshot.windows = windows
        _ = try restarted.handle(snapshot)
        #expect(restarted.webState(forTab: moved.id) == id)
        #expect(try store.histories.history(of: id) == history)
        let target = try #require(restarted.browser(forWindow: moved.windowId))
        #expect(try store.tabs.webStateList(in: target).index(of: id) != nil)
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().isEmpty)
        #expect(try store.browsers.browsers().count == 3)
    }

    @Test func aTabDraggedToAnotherWindow_keepsItsIdentifierAndHistory() throws {
        let (store, browser, mirror) = try Self.mirrored()
        let tab = browser.windows[0].tabs[1]
        let id = try #require(mirror.webState(forTab: tab.id))
        let history = try store.histories.history(of: id)
        browser.drag(tab.id, toWindow: browser.windows[2].id, at: 1)
        try MirrorFidelityTests.deliver(browser, to: mirror)
        #expect(mirror.webState(forTab: tab.id) == id)
        #expect(try store.histories.history(of: id) == history)
        #expect(try store.tabs.webStateList(in: try #require(mirror.browser(forWindow: browser.windows[2].id))).index(of: id) != nil)
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().isEmpty)
        #expect(try MirrorFidelityTests.mismatches(browser, mirror, store).isEmpty)
    }

    /// A window whose last tab is dragged into another goes, and leaves no recently
    /// closed window with no tabs in it; the tab keeps its identifier and history.
    @Test func aWindowWhoseLastTabIsDraggedAway_goes_andLeavesNoEmptyClosedWindow() throws {
        let (store, browser, mirror) = try Self.mirrored()
        let source = browser.windows[1]
        for tab in source.tabs.dropLast() { browser.drag(tab.id, toWindow: browser.windows[0].id, at: 1) }
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let last = try #require(browser.windows.first { $0.id == source.id }?.tabs.first)
        let id = try #require(mirror.webState(forTab: last.id))
        let history = try store.histories.history(of: id)
        browser.drag(last.id, toWindow: browser.windows[2].id, at: 0)
        #expect(!browser.windows.contains { $0.id == source.id })
        try MirrorFidelityTests.deliver(browser, to: mirror)
        #expect(try store.browsers.browsers().count == 2)
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().isEmpty)
        #expect(mirror.webState(forTab: last.id) == id)
        #expect(try store.histories.history(of: id) == history)
        #expect(try MirrorFidelityTests.mismatches(browser, mirror, store).isEmpty)
    }

    /// A tab Chromium discards comes back under a new id (`tabs.onReplaced`): the same
    /// tab in the store, its identifier and history kept, and later events by the new id
    /// (a navigation, a close) are its.
    @Test func aReplacedTab_keepsItsIdentifierAndHistory_andFollowsItsNewID() throws {
        let (store, browser, mirror) = try Self.mirrored()
        let tab = browser.windows[0].tabs[1]
        let id = try #require(mirror.webState(forTab: tab.id))
        let history = try store.histories.history(of: id)
        let added = try #require(browser.discard(tab.id))
        try MirrorFidelityTests.deliver(browser, to: mirror)
        #expect(mirror.webState(forTab: added) == id && mirror.webState(forTab: tab.id) == nil)
        #expect(try store.histories.history(of: id) == history)
        browser.navigate(added, to: "https://w0.example/after-discard")
        try MirrorFidelityTests.deliver(browser, to: mirror)
        #expect(try store.histories.history(of: id).items.last?.url == "https://w0.example/after-discard")
        #expect(try MirrorFidelityTests.mismatches(browser, mirror, store).isEmpty)
        browser.closeTab(added)
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let closed = try #require(try SQLiteRecentlyClosedRepository(database: store.database).entries().first)
        #expect(closed.tabs.first?.id == id)
    }

    /// Chromium unpins a pinned tab it moves into another window's unpinned part, and says
    /// so only as the tab leaves its strip (an update at index -1, before `onDetached`),
    /// never once it is in the other window. The real browser suite found the store keeping
    /// such a tab pinned. A tab of a closing window that is told the same keeps its pin.
    @Test func aPinnedTabUnpinnedAsItLeaves_arrivesUnpinned_butAClosingWindowsTabsKeepTheirPins() throws {
        let (store, browser, mirror) = try Self.mirrored()
        let source = browser.windows[0], target = browser.windows[2]
        let tab = source.tabs[0]
        let id = try #require(mirror.webState(forTab: tab.id))
        var leaving = browser.described(tab, window: source, index: -1)
        leaving.pinned = false
        var events = [MirrorMessage(id: 900, type: .tabUpdated), MirrorMessage(id: 901, type: .tabDetached),
                      MirrorMessage(id: 902, type: .tabAttached)]
        events[0].tab = leaving
        events[1].tabId = tab.id; events[1].oldWindowId = source.id; events[1].oldPosition = 0
        events[2].tabId = tab.id; events[2].newWindowId = target.id; events[2].newPosition = 1
        for event in events { #expect(try mirror.handle(event).error == nil) }
        let list = try store.tabs.webStateList(in: try #require(mirror.browser(forWindow: target.id)))
        let index = try #require(list.index(of: id))
        // Right after the target's pinned tab: where a stale pin would have been written.
        #expect(index == 1 && list.pinnedCount == 1, "\(list)")
        // A closing window's pinned tab, told the same as the window goes, stays pinned in its entry.
        let closing = browser.windows[1]
        var told = browser.described(closing.tabs[0], window: closing, index: -1)
        told.pinned = false
        var update = MirrorMessage(id: 903, type: .tabUpdated)
        update.tab = told
        _ = try mirror.handle(update)
        browser.closeWindow(closing.id)
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let entry = try #require(try SQLiteRecentlyClosedRepository(database: store.database).entries().first { $0.kind == .window })
        #expect(entry.tabs.first?.wasPinned == true)
    }

    /// Chromium and Firefox pointed at one store keep windows of their own: a start of
    /// either (a snapshot that shows none of the other's windows) closes nothing of the
    /// other's, nor the app's own window; a window of no source that a snapshot shows
    /// (mirrored before sources existed) is adopted with its identifiers.
    @Test func twoBrowsersSharingAStore_neverTouchEachOthersWindows() throws {
        let (store, chromium, firstHost) = try Self.mirrored()
        // The windows the first host made, from before sources: no source yet.
        for browser in try store.browsers.sources().keys { try store.browsers.setSource(nil, of: browser) }
        let app = try store.browsers.createBrowser()
        try store.tabs.insert(WebState(), in: app.id, params: .automatic().activate())
        let firefox = SimulatedBrowser()
        let firefoxMirror = BrowserMirror(database: store.database, source: .firefox)
        var snapshot = MirrorMessage(id: 1, type: .snapshot)
        snapshot.windows = firefox.snapshot()
        _ = try firefoxMirror.handle(snapshot)
        let window = firefox.openWindow(url: "https://ff.example/0")
        firefox.openTab(in: window, url: "https://ff.example/1")
        try MirrorFidelityTests.deliver(firefox, to: firefoxMirror)
        let firefoxBrowser = try #require(firefoxMirror.browser(forWindow: window))
        #expect(try store.browsers.browsers().count == 5)
        // Chromium starts again: its three windows are adopted, Firefox's and the app's stay as they are.
        let before = try Self.tabsByURL(store)
        chromium.restart()
        let restarted = BrowserMirror(database: store.database, source: .chromium)
        snapshot.windows = chromium.snapshot()
        _ = try restarted.handle(snapshot)
        let after = try Self.tabsByURL(store)
        for (url, (id, _)) in before { #expect(after[url]?.0 == id, "\(url)") }
        let sources = try store.browsers.sources()
        #expect(sources.values.filter { $0 == .chromium }.count == 3 && sources[firefoxBrowser] == .firefox && sources[app.id] == nil)
        #expect(try store.browsers.browsers().count == 5)
        // Each browser's windows as it shows them (the store holds the other's windows too).
        func mismatches(_ browser: SimulatedBrowser, _ mirror: BrowserMirror, histories: Bool = true) throws -> [String] {
            try MirrorFidelityTests.mismatches(browser, mirror, store, checkHistories: histories)
                .filter { !$0.contains("browsers in the store") }
        }
        #expect(try mismatches(firefox, firefoxMirror).isEmpty)
        // Firefox starts again with one window fewer: only its own window closes.
        firefox.closeWindow(window)
        _ = firefox.takeEvents()
        let again = BrowserMirror(database: store.database, source: .firefox)
        let other = firefox.openWindow(url: "https://ff.example/elsewhere")
        _ = firefox.takeEvents()
        snapshot.windows = firefox.snapshot()
        _ = try again.handle(snapshot)
        #expect(try store.browsers.browser(firefoxBrowser) == nil)
        let open = try store.browsers.browsers().map(\.id)
        #expect(open.contains(app.id) && open.count == 5, "\(open)")
        #expect(try mismatches(chromium, restarted).isEmpty)
        #expect(try mismatches(firefox, again).isEmpty)
        #expect(again.browser(forWindow: other) != nil)
        _ = firstHost
    }

    /// A browser killed just after a back restores the tab where it was before the back,
    /// without loading it, so no navigation event comes: the snapshot's URL, which the
    /// history holds, makes that entry current (the kill suite found the store left on
    /// the entry the browser had lost).
    @Test func aTabRestoredAtAnotherEntry_isAtThatEntry_afterTheSnapshot() throws {
        let (store, browser, mirror) = try Self.mirrored()
        let tab = browser.windows[2].tabs[3].id
        browser.navigate(tab, to: "https://w2.example/3/next")
        browser.go(tab, by: -1)
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let id = try #require(mirror.webState(forTab: tab))
        #expect(try store.histories.history(of: id).currentIndex == 0)
        browser.restart()
        let restarted = browser.windows[2].tabs[3].id
        browser.restore(restarted, atEntry: 1)
        let again = BrowserMirror(database: store.database)
        var snapshot = MirrorMessage(id: 1, type: .snapshot)
        snapshot.windows = browser.snapshot()
        _ = try again.handle(snapshot)
        #expect(again.webState(forTab: restarted) == id)
        let history = try store.histories.history(of: id)
        #expect(history.items.map(\.url) == ["https://w2.example/3", "https://w2.example/3/next"] && history.currentIndex == 1)
        #expect(try MirrorFidelityTests.mismatches(browser, again, store).isEmpty)
    }

    /// Firefox sends no navigation event for its own pages. A window opened empty starts at
    /// its blank page; a back to that page is seen only as the tab's new URL, and the store
    /// follows it there (the full Firefox run found the store left on the page the tab left).
    @Test func aBackToTheBrowsersOwnPage_isFollowed_withNoNavigationEvent() throws {
        let (store, browser, mirror) = try Self.mirrored()
        let window = browser.openWindow(url: SimulatedBrowser.blankPage)
        let tab = try #require(browser.windows.last?.tabs.first?.id)
        browser.navigate(tab, to: "https://w9.example/0")
        browser.navigate(tab, to: "https://w9.example/1")
        browser.go(tab, by: -2)
        let events = browser.takeEvents()
        #expect(!events.contains { $0.type == .navigationCommitted && $0.url == SimulatedBrowser.blankPage })
        for event in events { #expect(try mirror.handle(event).error == nil) }
        let id = try #require(mirror.webState(forTab: tab))
        let history = try store.histories.history(of: id)
        #expect(history.items.map(\.url) == [SimulatedBrowser.blankPage, "https://w9.example/0", "https://w9.example/1"])
        #expect(history.currentIndex == 0)
        browser.go(tab, by: 1)
        try MirrorFidelityTests.deliver(browser, to: mirror)
        #expect(try store.histories.history(of: id).currentIndex == 1)
        #expect(try MirrorFidelityTests.mismatches(browser, mirror, store).isEmpty)
        #expect(mirror.browser(forWindow: window) != nil)
    }

    /// A back of two steps to a URL the history holds twice goes to the nearer one.
    @Test func forwardBack_goesToTheNearestEntryWithTheURL() throws {
        let history = try NavigationHistory(
            items: ["a", "b", "a", "c", "d"].map { NavigationItem(url: $0) }, currentIndex: 4)
        #expect(BrowserMirror.nearest("a", in: history) == 2)
        #expect(BrowserMirror.nearest("b", in: history) == 1)
        #expect(BrowserMirror.nearest("x", in: history) == nil)
        let middle = try NavigationHistory(items: ["a", "b", "a"].map { NavigationItem(url: $0) }, currentIndex: 1)
        #expect(BrowserMirror.nearest("a", in: middle) == 0)
    }
}

/// The URL alignment's gaps: tabs between two matched ones pair in order when both lists have as many there.
@Suite struct GapPairingTests {
    @Test func tabsBetweenMatchedOnes_pairInOrder_whenTheGapsAreAsLong() {
        let pairs = BrowserMirror.commonSubsequence(["", "b", "x", "y", "e"], ["a", "b", "c", "d", "e"])
        #expect(pairs.map { [$0.0, $0.1] } == [[1, 1], [4, 4]])
        let filled = BrowserMirror.pairingGaps(pairs, 5, 5)
        #expect(filled.map { [$0.0, $0.1] } == [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]])
        // Gaps of different lengths stay unpaired.
        let uneven = BrowserMirror.pairingGaps(BrowserMirror.commonSubsequence(["b", "x", "e"], ["b", "c", "d", "e"]), 3, 4)
        #expect(uneven.map { [$0.0, $0.1] } == [[0, 0], [2, 3]])
    }
}
