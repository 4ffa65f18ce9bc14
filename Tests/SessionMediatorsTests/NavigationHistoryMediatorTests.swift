import Foundation
import SessionConsumers
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing
@testable import SessionMediators

@Suite @MainActor struct NavigationHistoryMediatorTests {
    private func page(_ name: String) -> NavigationItem {
        NavigationItem(url: "https://\(name).example/", title: name.capitalized)
    }

    /// The state's pages as `"a b* c"`: back entries, the current one starred, forward entries.
    private func text(_ state: NavigationHistoryState) -> String {
        let names = state.back.reversed().map(\.title) + (state.current.map { [$0.title + "*"] } ?? []) + state.forward.map(\.title)
        return names.map { $0.lowercased() }.joined(separator: " ")
    }

    @Test func configure_emptyHistory_cannotGoAnywhere() async throws {
        let store = try TemporaryStore.inMemory()
        let (_, names) = try store.seed("| a*")
        let consumer = RecordingNavigationHistoryConsumer()
        let mediator = NavigationHistoryMediator(tab: names.webStateID("a"), histories: store.histories, consumer: consumer)
        try await consumer.log.wait(for: "the configuration") { !$0.isEmpty }
        #expect(consumer.events == [.configured(NavigationHistoryState(tab: names.webStateID("a")))])
        #expect(consumer.latest?.canGoBack == false && consumer.latest?.canGoForward == false)
        mediator.disconnect()
    }

    @Test(arguments: TemporaryStore.Kind.allCases)
    func update_commitsAndNavigation_areOneUpdateEach(kind: TemporaryStore.Kind) async throws {
        let store = try kind.make()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        for name in ["a", "b", "c"] { try await store.histories.commit(page(name), in: tab) }
        let consumer = RecordingNavigationHistoryConsumer()
        let mediator = NavigationHistoryMediator(tab: tab, histories: store.histories, consumer: consumer)
        try await consumer.waitForState { self.text($0) == "a b c*" }
        let initial = try #require(consumer.latest)
        #expect(initial.canGoBack && !initial.canGoForward)
        #expect(initial.back.map(\.index) == [1, 0])  // nearest first
        await #expect(initial.current == NavigationEntryItem(
            index: 2, title: "C", url: "https://c.example/", timestamp: try store.histories.history(of: tab).items[2].timestamp))

        let commands = NavigationCommandHandler(tab: tab, histories: store.histories)
        try await commands.goBack()
        try await consumer.waitForState { self.text($0) == "a b* c" }
        try await commands.goToEntry(at: 0)
        try await consumer.waitForState { self.text($0) == "a* b c" }
        try await commands.goForward()
        try await consumer.waitForState { self.text($0) == "a b* c" }
        try await store.histories.commit(page("d"), in: tab)
        try await consumer.waitForState { self.text($0) == "a b d*" }
        #expect(consumer.events.count == 5)
        #expect(consumer.events.first == .configured(initial))
        #expect(throws: (any Error).self) { try NavigationCommandHandler(tab: tab, histories: store.histories).goForward() }
        mediator.disconnect()
    }

    /// A change that leaves the state as shown (going to the current entry) is not pushed.
    @Test func update_unchangedState_isNotPushed() async throws {
        let store = try TemporaryStore.inMemory()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        try await store.histories.commit(page("a"), in: tab)
        try await store.histories.commit(page("b"), in: tab)
        let consumer = RecordingNavigationHistoryConsumer()
        let mediator = NavigationHistoryMediator(tab: tab, histories: store.histories, consumer: consumer)
        try await consumer.waitForState { self.text($0) == "a b*" }
        try await store.histories.go(to: 1, in: tab)
        try await store.histories.goBack(in: tab)
        try await consumer.waitForState { self.text($0) == "a* b" }
        #expect(consumer.events.count == 2)
        mediator.disconnect()
    }

    @Test func update_titleChange_isPushed() async throws {
        let store = try TemporaryStore.inMemory()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        try await store.histories.commit(page("a"), in: tab)
        let consumer = RecordingNavigationHistoryConsumer()
        let mediator = NavigationHistoryMediator(tab: tab, histories: store.histories, consumer: consumer)
        try await consumer.waitForState { $0.current?.title == "A" }
        try await store.histories.updateItem(at: 0, in: tab, title: "Renamed", faviconURL: "https://a.example/icon.png")
        try await consumer.waitForState { $0.current?.title == "Renamed" }
        #expect(consumer.latest?.current?.faviconURL == "https://a.example/icon.png")
        mediator.disconnect()
    }

    @Test func update_writeByAnotherConnection_isNoticed() async throws {
        let store = try TemporaryStore.onDisk()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        let consumer = RecordingNavigationHistoryConsumer()
        let mediator = NavigationHistoryMediator(tab: tab, histories: store.histories, consumer: consumer)
        try await consumer.log.wait { !$0.isEmpty }
        let other = try await SessionDatabase.open(atPath: try #require(store.path))
        try await SQLiteNavigationHistoryRepository(database: other).commit(page("x"), in: tab)
        try await other.close()
        try await consumer.waitForState("the other connection's commit") { self.text($0) == "x*" }
        mediator.disconnect()
    }

    @Test func unknownTab_isUnavailable() async throws {
        let store = try TemporaryStore.inMemory()
        let consumer = RecordingNavigationHistoryConsumer()
        let mediator = NavigationHistoryMediator(tab: WebStateID(), histories: store.histories, consumer: consumer)
        try await consumer.log.wait { !$0.isEmpty }
        #expect(consumer.events == [.unavailable(.closed)])
        #expect(!mediator.isConnected)
    }

    @Test func disconnect_stopsDelivery() async throws {
        let store = try TemporaryStore.inMemory()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        let consumer = RecordingNavigationHistoryConsumer()
        let mediator = NavigationHistoryMediator(tab: tab, histories: store.histories, consumer: consumer)
        try await consumer.log.wait { !$0.isEmpty }
        try synchronously { try store.histories.commit(page("a"), in: tab) }
        mediator.disconnect()
        let witness = RecordingNavigationHistoryConsumer()
        let other = NavigationHistoryMediator(tab: tab, histories: store.histories, consumer: witness)
        try await witness.waitForState { self.text($0) == "a*" }
        try await store.histories.commit(page("b"), in: tab)
        try await witness.waitForState { self.text($0) == "a b*" }
        #expect(consumer.events.count == 1)
        other.disconnect()
    }

    @Test func release_mediatorAndConsumer_leaveNothingBehind() async throws {
        let store = try TemporaryStore.inMemory()
        let (_, names) = try store.seed("| a*")
        weak var weakMediator: NavigationHistoryMediator?
        weak var weakConsumer: RecordingNavigationHistoryConsumer?
        do {
            let consumer = RecordingNavigationHistoryConsumer()
            let mediator = NavigationHistoryMediator(tab: names.webStateID("a"), histories: store.histories, consumer: consumer)
            try await consumer.log.wait { !$0.isEmpty }
            try await store.histories.commit(page("a"), in: names.webStateID("a"))
            weakMediator = mediator
            weakConsumer = consumer
        }
        #expect(weakMediator == nil)
        #expect(weakConsumer == nil)
    }
}
