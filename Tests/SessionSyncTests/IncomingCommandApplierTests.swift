import Foundation
import SessionConsumers
import SessionMediators
import SessionModel
@_spi(SyncInternals) import SessionStorage
import SessionTestSupport
import Testing
@testable import SessionSync

/// Commands from other devices applied to a real store, through its
/// repositories: a sent tab opens (once) in the window used last, a close
/// closes just the tab it names and only while it shows the page the sender saw.
@Suite struct IncomingCommandApplierTests {
    static let account = String(repeating: "0", count: 32)
    static let device = "11111111-1111-4111-8111-111111111111"
    static let keys = AccountKeys(seed: try! SyncSeed(bytes: Data((0..<32).map { UInt8($0) })))

    static func commandID(_ n: Int) -> String { String(format: "aaaaaaaa-aaaa-4aaa-8aaa-%012d", n) }
    static func tabID(ofCommand n: Int) -> WebStateID { WebStateID(uuidString: commandID(n))! }

    /// A store on disk with sync on, and an applier over it.
    struct Fixture {
        let store: TemporaryStore
        let sync: SyncStorage
        let applier: IncomingCommandApplier

        init() throws {
            store = try TemporaryStore.onDisk()
            sync = SyncStorage(database: store.database)
            try sync.enable(
                accountID: IncomingCommandApplierTests.account, deviceID: IncomingCommandApplierTests.device,
                deviceName: "Here", formFactor: "desktop")
            applier = IncomingCommandApplier(
                sync: sync, browsers: store.browsers, tabs: store.tabs, histories: store.histories)
        }

        /// Applies with the check the client makes: the record id is this device's for that tab.
        @discardableResult
        func apply(_ command: SyncCommand, _ n: Int) async throws -> IncomingCommandApplier.Outcome {
            try await applier.apply(command, id: IncomingCommandApplierTests.commandID(n)) { close in
                IncomingCommandApplierTests.keys.recordID(
                    kind: .tab, deviceID: IncomingCommandApplierTests.device, localID: close.tabID) == close.recordID
            }
        }

        func ids(_ browser: BrowserID) async throws -> [WebStateID] {
            try await store.tabs.webStateList(in: browser).webStates.map(\.id)
        }
    }

    /// A close of `tab` as the sender saw it, on `url`, with the record id this device gives it.
    static func close(_ tab: WebStateID, url: String) -> SyncCommand {
        let tabID = tab.uuidString
        return .closeTab(SyncCloseTab(
            recordID: keys.recordID(kind: .tab, deviceID: device, localID: tabID), tabID: tabID, url: url))
    }

    static func send(_ url: String, title: String = "") -> SyncCommand {
        .sendTab(SyncSendTab(url: url, title: title))
    }

    // MARK: - send_tab

    @Test func aSentTab_opensInTheWindowUsedLast_underTheCommandsID() async throws {
        let f = try Fixture()
        let (used, names) = try f.store.seed("| a*")
        let (other, _) = try f.store.seed("| b* c")
        try await f.store.browsers.markActive(used)

        let outcome = try await f.apply(Self.send("https://sent.example/page", title: "Sent to you"), 1)
        let tab = Self.tabID(ofCommand: 1)
        #expect(outcome == .opened(tab, in: used))
        #expect(try await f.ids(used) == [names.webStateID("a"), tab])
        #expect(try await f.store.tabs.webStateList(in: other).count == 2)
        let history = try await f.store.histories.history(of: tab)
        #expect(history.count == 1)
        #expect(history.currentItem?.url == "https://sent.example/page" && history.currentItem?.title == "Sent to you")
        #expect(try f.sync.isCommandApplied(Self.commandID(1)))
        // The tab's id is the command's, in the store's lower case.
        #expect(try f.sync.openTab(Self.commandID(1))?.url == "https://sent.example/page")
        #expect(try SessionStoreFile.check(atPath: f.store.path!) == [])
    }

    @Test func aSentTabWithItsHistory_opensOnItsCurrentPage() async throws {
        let f = try Fixture()
        let (browser, _) = try f.store.seed("| a*")
        let navigations = (0..<3).map { index in
            SyncedNavigation(
                url: "https://h.example/\(index)", title: "Page \(index)",
                faviconURL: index == 1 ? "https://h.example/icon.png" : nil, time: 1_790_000_000_000 + Int64(index) * 1000)
        }
        try await f.apply(.sendTab(SyncSendTab(
            url: "https://h.example/1", title: "Page 1", navigations: navigations, current: 1)), 1)
        let history = try await f.store.histories.history(of: Self.tabID(ofCommand: 1))
        #expect(history.items.map(\.url) == navigations.map(\.url))
        #expect(history.items.map(\.title) == navigations.map(\.title))
        #expect(history.currentIndex == 1 && history.canGoBack && history.canGoForward)
        #expect(history.items[1].faviconURL == "https://h.example/icon.png")
        #expect(history.items[2].timestamp == Date(timeIntervalSince1970: 1_790_000_002))
        #expect(try f.sync.openTab(Self.commandID(1))?.url == "https://h.example/1")

        // A current index out of range: the page alone.
        try await f.apply(.sendTab(SyncSendTab(
            url: "https://h.example/only", title: "Only", navigations: navigations, current: 7)), 2)
        let alone = try await f.store.histories.history(of: Self.tabID(ofCommand: 2))
        #expect(alone.items.map(\.url) == ["https://h.example/only"] && alone.currentIndex == 0)
        #expect(try await f.ids(browser).count == 3)
        #expect(try SessionStoreFile.check(atPath: f.store.path!) == [])
    }

    @Test func withNoOpenWindow_aSentTabOpensInANewOne() async throws {
        let f = try Fixture()
        let outcome = try await f.apply(Self.send("https://first.example/"), 1)
        let browsers = try await f.store.browsers.browsers()
        #expect(browsers.count == 1)
        let window = try #require(browsers.first).id
        #expect(outcome == .opened(Self.tabID(ofCommand: 1), in: window))
        #expect(try await f.ids(window) == [Self.tabID(ofCommand: 1)])

        // The only window closed: a new one again; the closed one stays closed, untouched.
        try await f.store.browsers.closeBrowser(window)
        let second = try await f.apply(Self.send("https://second.example/"), 2)
        let open = try await f.store.browsers.browsers().map(\.id)
        #expect(open.count == 1 && open != [window])
        #expect(second == .opened(Self.tabID(ofCommand: 2), in: open[0]))
        #expect(try f.sync.openTab(Self.commandID(1)) == nil && f.sync.tabExists(Self.commandID(1)))
    }

    @Test func aCommandAppliedTwice_opensOneTab() async throws {
        let f = try Fixture()
        let (browser, _) = try f.store.seed("| a*")
        #expect(try await f.apply(Self.send("https://once.example/"), 1) == .opened(Self.tabID(ofCommand: 1), in: browser))
        #expect(try await f.apply(Self.send("https://once.example/"), 1) == .alreadyApplied)
        // Even as another kind of command: the id is what counts.
        #expect(try await f.apply(Self.close(Self.tabID(ofCommand: 1), url: "https://once.example/"), 1) == .alreadyApplied)
        #expect(try await f.ids(browser).count == 2)
        #expect(try f.sync.openTab(Self.commandID(1)) != nil)
    }

    @Test func aCrashBeforeTheIDWasNoted_doesNotOpenTheTabTwice() async throws {
        let f = try Fixture()
        let (browser, _) = try f.store.seed("| a*")
        try await f.apply(Self.send("https://crash.example/"), 1)
        // The crash: the tab is in, the id is not (deleted from outside, as a plain SQL write).
        try PlainSQLite.execute("DELETE FROM sync_applied_commands", atPath: f.store.path!)
        #expect(try !f.sync.isCommandApplied(Self.commandID(1)))
        #expect(try await f.apply(Self.send("https://crash.example/"), 1) == .alreadyApplied)
        #expect(try await f.ids(browser).count == 2)
        #expect(try f.sync.isCommandApplied(Self.commandID(1)))

        // The same, with the tab inserted by hand under the command's id.
        try await f.store.tabs.insert(
            WebState(id: Self.tabID(ofCommand: 2)), in: browser, params: .automatic(),
            navigatingTo: NavigationItem(url: "https://by-hand.example/", title: "By hand"))
        #expect(try await f.apply(Self.send("https://crash.example/2"), 2) == .alreadyApplied)
        #expect(try await f.ids(browser).count == 3)
        #expect(try await f.store.histories.history(of: Self.tabID(ofCommand: 2)).currentItem?.url == "https://by-hand.example/")

        // Opened, then closed by the user before the id was noted: not opened again.
        try await f.apply(Self.send("https://closed.example/"), 3)
        try await f.store.tabs.close(in: browser, at: 3)
        try PlainSQLite.execute("DELETE FROM sync_applied_commands", atPath: f.store.path!)
        #expect(try await f.apply(Self.send("https://closed.example/"), 3) == .alreadyApplied)
        #expect(try f.sync.openTab(Self.commandID(3)) == nil)
        #expect(try await f.ids(browser).count == 3)
    }

    @Test func aSentTabWhoseIDIsNoUUID_isRefused() async throws {
        let f = try Fixture()
        let (browser, _) = try f.store.seed("| a*")
        let outcome = try await f.applier.apply(Self.send("https://x.example/"), id: "not-a-uuid") { _ in true }
        #expect(outcome == .refused("the command id is not a UUID"))
        #expect(try await f.ids(browser).count == 1)
        #expect(try f.sync.isCommandApplied("not-a-uuid"))
    }

    /// A sent tab the store refuses (an empty URL: another device's bug, or a
    /// newer one's) must be done with like any other, or the client never
    /// acknowledges it and every later command waits behind it.
    @Test func aSentTabTheStoreRefuses_isDoneWith_notRetriedForever() async throws {
        let f = try Fixture()
        let (browser, _) = try f.store.seed("| a*")
        let outcome = try await f.apply(Self.send(""), 1)
        guard case .refused = outcome else {
            Issue.record("expected a refusal, got \(outcome)")
            return
        }
        #expect(try f.sync.isCommandApplied(Self.commandID(1)))
        #expect(try await f.ids(browser).count == 1)
        // With no window open, a refused page leaves no empty window behind either.
        try await f.store.browsers.closeBrowser(browser)
        #expect(try await f.apply(Self.send(""), 2) != .alreadyApplied)
        #expect(try f.sync.lastActiveOpenBrowser() == nil)
    }

    // MARK: - close_tab

    @Test func aClose_closesExactlyTheNamedTab_amongTabsOnTheSamePage() async throws {
        let f = try Fixture()
        let (browser, names) = try f.store.seed("| a b* c")
        let (a, b, c) = (names.webStateID("a"), names.webStateID("b"), names.webStateID("c"))
        for tab in [a, b] {
            try await f.store.histories.commit(NavigationItem(url: "https://same.example/", title: "Same"), in: tab)
        }
        #expect(try await f.apply(Self.close(b, url: "https://same.example/"), 1) == .closed(b))
        #expect(try await f.ids(browser) == [a, c])
        // Through the repository: it sits in recently closed, as if the user had closed it.
        let entries = try await SQLiteRecentlyClosedRepository(database: f.store.database).entries()
        #expect(entries.map { $0.tabs.map(\.id) } == [[b]])
        #expect(try f.sync.isCommandApplied(Self.commandID(1)))
        #expect(try SessionStoreFile.check(atPath: f.store.path!) == [])
    }

    @Test func aCloseOfATabThatMovedOn_leavesItAlone() async throws {
        let f = try Fixture()
        let (browser, names) = try f.store.seed("| a*")
        let a = names.webStateID("a")
        try await f.store.histories.commit(NavigationItem(url: "https://seen.example/", title: "Seen"), in: a)
        try await f.store.histories.commit(NavigationItem(url: "https://now.example/", title: "Now"), in: a)
        #expect(try await f.apply(Self.close(a, url: "https://seen.example/"), 1) == .leftAlone)
        #expect(try await f.ids(browser) == [a])
        // Done with all the same: not tried again.
        #expect(try f.sync.isCommandApplied(Self.commandID(1)))
        #expect(try await f.apply(Self.close(a, url: "https://now.example/"), 1) == .alreadyApplied)
        #expect(try await f.ids(browser) == [a])
        // A new command for the page it shows does close it.
        #expect(try await f.apply(Self.close(a, url: "https://now.example/"), 2) == .closed(a))
    }

    @Test func aCloseThatIsNotForOneOfThisDevicesTabs_leavesItAlone() async throws {
        let f = try Fixture()
        let (browser, names) = try f.store.seed("| a*")
        let a = names.webStateID("a")
        try await f.store.histories.commit(NavigationItem(url: "https://a.example/", title: "A"), in: a)
        // A record id of another device (the tab id is this device's, the record is not).
        let foreign = SyncCloseTab(
            recordID: Self.keys.recordID(kind: .tab, deviceID: "22222222-2222-4222-8222-222222222222", localID: a.uuidString),
            tabID: a.uuidString, url: "https://a.example/")
        #expect(try await f.apply(.closeTab(foreign), 1) == .leftAlone)
        // The check is asked about the command as sent, and its "no" is final.
        let close = SyncCloseTab(recordID: String(repeating: "e", count: 32), tabID: a.uuidString, url: "https://a.example/")
        let outcome = try await f.applier.apply(.closeTab(close), id: Self.commandID(2)) { asked in
            #expect(asked == close)
            return false
        }
        #expect(outcome == .leftAlone)
        #expect(try await f.ids(browser) == [a])
        #expect(try f.sync.isCommandApplied(Self.commandID(1)) && f.sync.isCommandApplied(Self.commandID(2)))
    }

    @Test func aCloseOfATabAlreadyClosed_orUnknown_leavesEverythingAlone() async throws {
        let f = try Fixture()
        let (browser, names) = try f.store.seed("| a* b")
        let (a, b) = (names.webStateID("a"), names.webStateID("b"))
        for tab in [a, b] {
            try await f.store.histories.commit(NavigationItem(url: "https://x.example/", title: "X"), in: tab)
        }
        try await f.store.tabs.close(in: browser, at: 1)
        let recentlyClosed = SQLiteRecentlyClosedRepository(database: f.store.database)
        let before = try await recentlyClosed.entries()
        #expect(try await f.apply(Self.close(b, url: "https://x.example/"), 1) == .leftAlone)
        #expect(try await f.apply(Self.close(WebStateID(), url: "https://x.example/"), 2) == .leftAlone)
        #expect(try await f.ids(browser) == [a])
        #expect(try await recentlyClosed.entries() == before)

        // A tab of a closed window is not closed again, and the window stays closed.
        let (window, others) = try f.store.seed("| c*")
        let c = others.webStateID("c")
        try await f.store.histories.commit(NavigationItem(url: "https://x.example/", title: "X"), in: c)
        try await f.store.browsers.closeBrowser(window)
        #expect(try await f.apply(Self.close(c, url: "https://x.example/"), 3) == .leftAlone)
        #expect(try await f.store.browsers.browsers().map(\.id) == [browser])
        #expect(try f.sync.tabExists(c.uuidString))
    }

    // MARK: - Seen by the app

    @MainActor
    @Test func theWindowsMediator_showsTheSentTab_andTheClose() async throws {
        let f = try Fixture()
        let (browser, names) = try f.store.seed("| a*")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: f.store.tabs, consumer: consumer)
        defer { mediator.disconnect() }
        try await consumer.waitForStrip { $0.items.count == 1 }

        try await f.apply(Self.send("https://shown.example/", title: "Shown"), 1)
        let tab = Self.tabID(ofCommand: 1)
        try await consumer.waitForStrip("the sent tab") { $0.items.map(\.id) == [names.webStateID("a"), tab] }
        let item = try #require(consumer.latest?.items.last)
        #expect(item.title == "Shown" && item.url == "https://shown.example/")

        try await f.apply(Self.close(tab, url: "https://shown.example/"), 2)
        try await consumer.waitForStrip("the close") { $0.items.map(\.id) == [names.webStateID("a")] }
        #expect(!consumer.events.contains { if case .unavailable = $0 { true } else { false } })
    }
}
