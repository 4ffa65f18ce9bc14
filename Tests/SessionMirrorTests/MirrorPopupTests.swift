import Foundation
@testable import SessionMirror
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// What the popup asks of the host: the stored windows and closed entries, a search
/// over every stored tab, and a closed tab reopened as the same stored tab.
@Suite struct MirrorPopupTests {
    static func ask(_ mirror: BrowserMirror, _ type: MirrorMessage.Kind, _ fill: (inout MirrorMessage) -> Void = { _ in }) throws
        -> MirrorReply
    {
        var message = MirrorMessage(id: 900, type: type)
        fill(&message)
        let reply = try mirror.handle(message)
        #expect(reply.ack == 900 && reply.error == nil, "\(reply)")
        return reply
    }

    @Test func theOverview_andTheSearch_nameWhatThisBrowserShows() throws {
        let store = try TemporaryStore.onDisk()
        let mirror = BrowserMirror(database: store.database, source: .chromium)
        let browser = SimulatedBrowser()
        let window = browser.openWindow(url: "https://first.example/")
        let zebra = browser.openTab(in: window, url: "https://zebra.example/stripes")
        browser.openTab(in: window, url: "https://gone.example/")
        try MirrorFidelityTests.deliver(browser, to: mirror)
        browser.closeTab(browser.windows[0].tabs[2].id)
        try MirrorFidelityTests.deliver(browser, to: mirror)
        // A window of the store this browser does not show, and no browser keeps (an app's, say).
        let elsewhere = SimulatedBrowser()
        let app = BrowserMirror(database: store.database, source: .firefox)
        let appWindow = elsewhere.openWindow(url: "https://app.example/")
        try MirrorFidelityTests.deliver(elsewhere, to: app)
        let other = try #require(app.browser(forWindow: appWindow))
        try store.browsers.setSource(nil, of: other)

        let overview = try #require(try Self.ask(mirror, .overview).overview)
        #expect(overview.windows.count == 2)
        let shown = try #require(overview.windows.first { $0.window == window })
        #expect(shown.source == "chromium" && shown.tabs == 2 && shown.url == "https://zebra.example/stripes", "\(shown)")
        #expect(overview.windows.contains { $0.browser == other.uuidString && $0.window == nil && $0.source == nil })
        #expect(overview.closed.map(\.kind) == ["tab"] && overview.closed[0].url == "https://gone.example/")

        let matches = try #require(try Self.ask(mirror, .search) { $0.query = "zebra" }.matches)
        #expect(matches.count == 1 && matches[0].tabId == zebra && matches[0].window == window, "\(matches)")
        let closed = try #require(try Self.ask(mirror, .search) { $0.query = "gone" }.matches)
        #expect(closed.count == 1 && closed[0].closedEntry == overview.closed[0].entry && closed[0].tabId == nil)
    }

    @Test func aClosedTab_isReopenedAsTheSameStoredTab_whereItWas() throws {
        let store = try TemporaryStore.onDisk()
        let mirror = BrowserMirror(database: store.database, source: .chromium)
        let browser = SimulatedBrowser()
        let window = browser.openWindow(url: "https://a.example/")
        for page in ["b", "c", "d"] { browser.openTab(in: window, url: "https://\(page).example/") }
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let stored = try #require(mirror.browser(forWindow: window))
        let closing = browser.windows[0].tabs[2].id
        let identity = try #require(mirror.webState(forTab: closing))
        browser.closeTab(closing)
        try MirrorFidelityTests.deliver(browser, to: mirror)
        let entry = try #require(try SQLiteRecentlyClosedRepository(database: store.database).entries().first)

        let plan = try #require(try Self.ask(mirror, .reopenClosed) { $0.entry = entry.id.uuidString }.reopen)
        #expect(plan.window == window && plan.browser == stored.uuidString)
        #expect(plan.tabs.map(\.sid) == [identity.uuidString] && plan.tabs[0].index == 2, "\(plan)")
        #expect(plan.tabs[0].url == "https://c.example/")

        // The extension makes the tab, gives it the identifier, and tells the host in a snapshot.
        let made = browser.openTab(in: window, url: plan.tabs[0].url, at: plan.tabs[0].index)
        _ = browser.takeEvents()
        var snapshot = MirrorMessage(id: 901, type: .snapshot)
        snapshot.windows = browser.snapshot().map { window in
            var window = window
            window.tabs = window.tabs?.map { tab in
                var tab = tab
                tab.sid = tab.id == made ? plan.tabs[0].sid : mirror.webState(forTab: tab.id)?.uuidString
                return tab
            }
            return window
        }
        #expect(try mirror.handle(snapshot).error == nil)
        #expect(mirror.webState(forTab: made) == identity, "the same stored tab, not a copy")
        let list = try store.tabs.webStateList(in: stored)
        #expect(list.webStates.count == 4 && list.index(of: identity) == 2)
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().isEmpty)
        #expect(try MirrorFidelityTests.mismatches(browser, mirror, store).isEmpty)
    }

    @Test func aClosedEntryOfAnotherBrowser_isRefused_andNothingChanges() throws {
        let store = try TemporaryStore.onDisk()
        let firefox = BrowserMirror(database: store.database, source: .firefox)
        let browser = SimulatedBrowser()
        let window = browser.openWindow(url: "https://a.example/")
        browser.openTab(in: window, url: "https://b.example/")
        try MirrorFidelityTests.deliver(browser, to: firefox)
        browser.closeTab(browser.windows[0].tabs[1].id)
        try MirrorFidelityTests.deliver(browser, to: firefox)
        let entry = try #require(try SQLiteRecentlyClosedRepository(database: store.database).entries().first)

        let chromium = BrowserMirror(database: store.database, source: .chromium)
        var message = MirrorMessage(id: 5, type: .reopenClosed)
        message.entry = entry.id.uuidString
        #expect(throws: MirrorRefusal.self) { try chromium.handle(message) }
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().map(\.id) == [entry.id])
    }
}
