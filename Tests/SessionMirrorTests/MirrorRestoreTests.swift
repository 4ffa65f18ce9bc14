import Foundation
@testable import SessionMirror
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// A stored window opened in the browser through the extension: the plan the host
/// gives, and the window the extension made taken as the stored one, its tabs with
/// their identifiers and histories (a restore is not a copy).
@Suite struct MirrorRestoreTests {
    /// Every page of `browser`'s plan, asked for as the extension does.
    static func plan(of browser: BrowserID, from mirror: BrowserMirror) throws -> (tabs: [RestorePlan.Tab], groups: [RestorePlan.Group]) {
        var tabs: [RestorePlan.Tab] = []
        var groups: [RestorePlan.Group] = []
        var offset: Int? = 0
        var id = 1000
        while let from = offset {
            var ask = MirrorMessage(id: id, type: .restorePlan)
            ask.browser = browser.uuidString
            ask.offset = from
            let reply = try mirror.handle(ask)
            let page = try #require(reply.plan, "\(reply)")
            tabs += page.tabs
            groups = page.groups
            offset = page.next
            id += 1
        }
        return (tabs, groups)
    }

    @Test func aClosedWindow_isRestoredWithItsTabsIdentitiesHistoriesPinsGroupsAndActiveTab() throws {
        let store = try TemporaryStore.onDisk()
        let mirror = BrowserMirror(database: store.database, source: .chromium)
        let browser = SimulatedBrowser()
        _ = browser.openWindow(url: "https://keep.example/0")
        let window = browser.openWindow(url: "https://w.example/0")
        for t in 1..<6 { browser.openTab(in: window, url: "https://w.example/\(t)") }
        let tabs = browser.windows[1].tabs.map(\.id)
        browser.navigate(tabs[1], to: "https://w.example/1/next")
        browser.go(tabs[1], by: -1)
        browser.setPinned(tabs[0], true)
        browser.group(tabs[2], count: 2, title: "Birds", color: "green")
        browser.activate(tabs[3])
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let stored = try #require(mirror.browser(forWindow: window))
        let before = try store.tabs.snapshot(of: stored)
        let histories = try before.list.webStates.map { try store.histories.history(of: $0.id) }
        browser.closeWindow(window)
        try MirrorFidelityTests.deliver(browser, to: mirror)
        #expect(try store.browsers.browser(stored) == nil)

        let plan = try Self.plan(of: stored, from: mirror)
        #expect(plan.tabs.map(\.sid) == before.list.webStates.map(\.id.uuidString))
        #expect(plan.tabs.map(\.pinned) == [true, false, false, false, false, false])
        #expect(plan.tabs.map(\.active) == [false, false, false, true, false, false])
        #expect(plan.tabs[1].url == "https://w.example/1" && plan.groups.map(\.title) == ["Birds"])
        #expect(try store.browsers.browser(stored) != nil, "asking for the plan opens the window again in the store")

        let restored = browser.restore(tabs: plan.tabs, groups: plan.groups)
        var told = MirrorMessage(id: 2000, type: .windowRestored)
        told.window = restored
        told.browser = stored.uuidString
        let reply = try mirror.handle(told)
        #expect(reply.error == nil && reply.ids?.count == 6, "\(reply) \(restored)")
        #expect(mirror.browser(forWindow: restored.id) == stored)
        let after = try store.tabs.snapshot(of: stored)
        #expect(after.list == before.list, "the same tabs, pins, group and active tab")
        #expect(try after.list.webStates.map { try store.histories.history(of: $0.id) } == histories)
        #expect(try store.browsers.browsers().count == 2)
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().isEmpty)
        #expect(try MirrorFidelityTests.mismatches(browser, mirror, store, checkHistories: false).isEmpty)
        // Later events of the restored window are the stored tabs'.
        browser.closeTab(restored.tabs![5].id)
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let closed = try #require(try SQLiteRecentlyClosedRepository(database: store.database).entries().first)
        #expect(closed.tabs.map(\.id) == [before.list.webStates[5].id])
    }

    /// A window closed and restored within the delay before a removed window is written as
    /// closed stays open: the close that was due is dropped.
    @Test func aWindowRestoredBeforeItsCloseWasWritten_staysOpen() throws {
        let store = try TemporaryStore.onDisk()
        let mirror = BrowserMirror(database: store.database, source: .firefox)
        let browser = SimulatedBrowser()
        _ = browser.openWindow(url: "https://keep.example/0")
        let window = browser.openWindow(url: "https://w.example/0")
        browser.openTab(in: window, url: "https://w.example/1")
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let stored = try #require(mirror.browser(forWindow: window))
        browser.closeWindow(window)
        for event in browser.takeEvents() { _ = try mirror.handle(event) }
        #expect(mirror.nextCloseDue != nil)
        #expect(try store.browsers.browser(stored) != nil)
        let plan = try Self.plan(of: stored, from: mirror)
        var told = MirrorMessage(id: 3000, type: .windowRestored)
        told.window = browser.restore(tabs: plan.tabs, groups: plan.groups)
        told.browser = stored.uuidString
        #expect(try mirror.handle(told).error == nil)
        try mirror.closeRemovedWindows(dueBy: .distantFuture)
        #expect(try store.browsers.browser(stored) != nil)
        #expect(try MirrorFidelityTests.mismatches(browser, mirror, store, checkHistories: false).isEmpty)
    }

    @Test func aWindowShownAlready_orAnotherBrowsers_orUnknown_isRefused_andNothingChanges() throws {
        let store = try TemporaryStore.onDisk()
        let mirror = BrowserMirror(database: store.database, source: .chromium)
        let browser = SimulatedBrowser()
        let window = browser.openWindow(url: "https://w.example/0")
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let shown = try #require(mirror.browser(forWindow: window))
        let firefox = try store.browsers.createBrowser(source: .firefox)
        for (target, reason) in [(shown, "already shown"), (firefox.id, "firefox's"), (BrowserID(), "no open or recently closed")] {
            var ask = MirrorMessage(id: 1, type: .restorePlan)
            ask.browser = target.uuidString
            #expect(throws: MirrorRefusal.self) { try mirror.handle(ask) }
            do { _ = try mirror.handle(ask) } catch { #expect("\(error)".contains(reason), "\(error)") }
        }
        var told = MirrorMessage(id: 2, type: .windowRestored)
        told.window = BrowserWindow(id: 999, tabs: [BrowserTab(id: 9991, windowId: 999, index: 0, url: "https://x.example/")])
        told.browser = shown.uuidString
        #expect(throws: MirrorRefusal.self) { try mirror.handle(told) }
        #expect(mirror.browser(forWindow: 999) == nil)
        #expect(try store.browsers.browsers().count == 2)
    }

    /// A page of the plan fits in one message to the browser (1 MB): a window of long URLs
    /// comes in several pages, and a URL longer than a message alone becomes a blank page.
    @Test func aLargeWindowsPlan_comesInPagesOfAtMostAMessage() throws {
        let long = "https://long.example/" + String(repeating: "a", count: 300_000)
        var tabs = (0..<7).map {
            RestorePlan.Tab(sid: WebStateID().uuidString, url: long + "\($0)", title: "T\($0)", pinned: false, group: nil, active: $0 == 0)
        }
        tabs[4].url = "data:text/plain," + String(repeating: "b", count: 2_000_000)
        var offset: Int? = 0
        var seen: [RestorePlan.Tab] = []
        while let from = offset {
            let page = try RestorePlan.page(browser: "b", tabs: tabs, groups: [], from: from)
            let bytes = try JSONEncoder().encode(MirrorReply(ack: 1, plan: page)).count
            #expect(bytes <= NativeMessaging.maximumOutgoing && !page.tabs.isEmpty && page.total == 7)
            seen += page.tabs
            offset = page.next
        }
        #expect(seen.map(\.sid) == tabs.map(\.sid))
        #expect(seen[4].url == "about:blank" && seen[3].url == tabs[3].url)
        #expect(throws: MirrorRefusal.self) { try RestorePlan.page(browser: "b", tabs: tabs, groups: [], from: 8) }
    }

    /// A window emptied by dragging its last tab away goes at once, with no entry: a browser
    /// quitting (or killed) next restores no empty window, so none may stay open in the store.
    @Test func aWindowEmptiedByADrag_goesAtOnce_evenIfTheBrowserQuitsNext() throws {
        let store = try TemporaryStore.onDisk()
        let mirror = BrowserMirror(database: store.database, source: .chromium)
        let browser = SimulatedBrowser()
        let kept = browser.openWindow(url: "https://kept.example/")
        let emptied = browser.openWindow(url: "https://dragged.example/")
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let gone = try #require(mirror.browser(forWindow: emptied))
        browser.drag(browser.windows[1].tabs[0].id, toWindow: kept, at: 1)
        for event in browser.takeEvents() { #expect(try mirror.handle(event).error == nil) }
        #expect(mirror.keepRemovedWindowsOpen() == 0, "nothing left waiting to be closed")
        #expect(try store.browsers.browser(gone) == nil)
        #expect(try store.browsers.browsers().count == 1)
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().isEmpty)
        #expect(try MirrorFidelityTests.mismatches(browser, mirror, store).isEmpty)
    }
}
