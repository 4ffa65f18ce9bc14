import Foundation
import SessionConsumers
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing
@testable import SessionMediators

@Suite @MainActor struct BrowserListMediatorTests {
    /// Checks that each update's diff turns the previous list into the new one.
    private func chainHolds(_ consumer: RecordingBrowserListConsumer) -> Bool {
        var previous: BrowserListSnapshot?
        for event in consumer.events {
            switch event {
            case .configured(let snapshot): previous = snapshot
            case .updated(let snapshot, let diff):
                guard let before = previous, (try? before.applying(diff)) == snapshot, before != snapshot else { return false }
                previous = snapshot
            case .unavailable: return false
            }
        }
        return true
    }

    @Test(arguments: TemporaryStore.Kind.allCases)
    func browserList_configureThenOneUpdatePerChange(kind: TemporaryStore.Kind) async throws {
        let store = try kind.make()
        let (first, names) = try store.seed("| a b*", scope: 1)
        try await store.histories.commit(NavigationItem(url: "https://b.example/", title: "B"), in: names.webStateID("b"))
        let consumer = RecordingBrowserListConsumer()
        let mediator = BrowserListMediator(browsers: store.browsers, consumer: consumer)
        try await consumer.log.wait(for: "the configuration") { !$0.isEmpty }
        guard case .configured(let initial) = consumer.events.first else { Issue.record("\(consumer.events)"); return }
        #expect(initial.items.map(\.id) == [first])
        #expect(initial.items.first?.tabCount == 2)
        #expect(initial.items.first?.activeTab == names.webStateID("b"))
        #expect(initial.items.first?.activeTitle == "B")
        #expect(initial.items.first?.activeURL == "https://b.example/")

        let commands = BrowserListCommandHandler(browsers: store.browsers)
        let second = try await commands.openBrowser()
        try await consumer.waitForList { $0.items.count == 2 }
        try await store.tabs.insert(in: first, params: .automatic())
        try await consumer.waitForList { $0.items.first(where: { $0.id == first })?.tabCount == 3 }
        try await commands.activateBrowser(first)
        try await consumer.waitForList { $0.items.first?.id == first }
        try await commands.closeBrowser(second)
        try await consumer.waitForList { $0.items.map(\.id) == [first] }
        #expect(consumer.events.count == 5)
        #expect(chainHolds(consumer))
        guard case .updated(_, let closeDiff) = consumer.events.last else { Issue.record("no update"); return }
        #expect(closeDiff.removed.map(\.id) == [second])
        mediator.disconnect()
    }

    @Test func disconnect_andRelease_stopEverything() async throws {
        let store = try TemporaryStore.inMemory()
        weak var weakMediator: BrowserListMediator?
        weak var weakConsumer: RecordingBrowserListConsumer?
        let witness = RecordingBrowserListConsumer()
        let other = BrowserListMediator(browsers: store.browsers, consumer: witness)
        do {
            let consumer = RecordingBrowserListConsumer()
            let mediator = BrowserListMediator(browsers: store.browsers, consumer: consumer)
            try await consumer.log.wait { !$0.isEmpty }
            // Commit, then disconnect in the same main-queue turn.
            _ = try synchronously { try store.browsers.createBrowser() }
            mediator.disconnect()
            try await witness.waitForList { $0.items.count == 1 }
            #expect(consumer.events.count == 1)
            weakMediator = mediator
            weakConsumer = consumer
        }
        #expect(weakMediator == nil)
        #expect(weakConsumer == nil)
        other.disconnect()
    }
}
