import Foundation
import SessionConsumers
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing
@testable import SessionMediators

/// Commands reach the store, and through the mediator, the consumer.
@Suite @MainActor struct CommandHandlerTests {
    @Test func openURL_addsAnActiveTabWithItsPage_andTheStripShowsIt() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, _) = try store.seed("| a* b")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        let commands = WebStateListCommandHandler(browser: browser, tabs: store.tabs)
        let tab = try await commands.openURL("https://example.org/", activate: true)
        await #expect(try store.tabs.webStateList(in: browser).activeWebState?.id == tab)
        await #expect(try store.histories.history(of: tab).currentItem?.url == "https://example.org/")
        try await consumer.waitForStrip { $0.items.last?.url == "https://example.org/" }
        #expect(consumer.latest?.items.last?.isActive == true)
        #expect(consumer.chainProblems() == [])
        mediator.disconnect()
    }

    @Test func tabCommands_actByIdentifier() throws {
        let store = try TemporaryStore.inMemory()
        let (browser, names) = try store.seed("| a* b c d")
        let commands = WebStateListCommandHandler(browser: browser, tabs: store.tabs)
        try commands.activateTab(names.webStateID("c"))
        #expect(try store.format(browser, names) == "| a b c* d")
        try commands.moveTab(names.webStateID("a"), to: 3)
        #expect(try store.format(browser, names) == "| b c* d a")
        try commands.setPinned(true, tab: names.webStateID("d"))
        #expect(try store.format(browser, names) == "d | b c* a")
        try commands.closeTab(names.webStateID("b"))
        #expect(try store.format(browser, names) == "d | c* a")
        var named = names
        let group = try commands.createGroup(with: [names.webStateID("c")], title: "Work", color: .green)
        named.assign("0", to: group)
        #expect(try store.format(browser, named) == "d | [ 0 c* ] a")
        try commands.addTabs([names.webStateID("a")], to: group)
        #expect(try store.format(browser, named) == "d | [ 0 c* a ]")
        try commands.updateGroup(group, title: "Play", color: .red, isCollapsed: true)
        #expect(try store.tabs.webStateList(in: browser).groups[group]?.visualData
            == TabGroupVisualData(title: "Play", color: .red, isCollapsed: true))
        try commands.ungroupTabs([names.webStateID("c")])
        let list = try store.tabs.webStateList(in: browser)
        #expect(list.groupID(at: try #require(list.index(of: names.webStateID("c")))) == nil)
        #expect(list.groupID(at: try #require(list.index(of: names.webStateID("a")))) == group)
        #expect(throws: WebStateListError.unknownWebState(names.webStateID("b"))) {
            try commands.closeTab(names.webStateID("b"))
        }
    }

    @Test func restoreMostRecentlyClosed_bringsBackTheLastClosedTab() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, names) = try store.seed("| a* b c")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        let commands = WebStateListCommandHandler(browser: browser, tabs: store.tabs)
        let reopen = RecentlyClosedCommandHandler(recentlyClosed: SQLiteRecentlyClosedRepository(database: store.database))
        try await commands.closeTab(names.webStateID("b"))
        try await consumer.waitForStrip { names.format($0) == "| a* c" }
        await #expect(try reopen.restoreMostRecentlyClosed() == browser)
        try await consumer.waitForStrip { names.format($0) == "| a b* c" }
        await #expect(try reopen.restoreMostRecentlyClosed() == nil)
        #expect(consumer.chainProblems() == [])
        mediator.disconnect()
    }
}
