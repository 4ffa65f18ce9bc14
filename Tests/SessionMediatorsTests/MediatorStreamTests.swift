import Observation
import SessionConsumers
import SessionMediators
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// The mediators' sequences yield what their consumers are pushed, and end with their subject.
@Suite @MainActor struct MediatorStreamTests {
    @Test func tabStripUpdates_chainDiffs_andFinishWhenTheBrowserCloses() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, _) = try store.seed("| a* b c")
        let tabs = store.tabs
        let browsers = store.browsers
        let updates = try await withTimeout(10, "the strip's updates") {
            var updates: [TabStripUpdate] = []
            for try await update in WebStateListMediator.updates(of: browser, tabs: tabs) {
                updates.append(update)
                switch updates.count {
                case 1: try await tabs.close(in: browser, at: 1)
                case 2: try await browsers.closeBrowser(browser)
                default: break
                }
            }
            return updates
        }
        #expect(updates.count == 2)
        #expect(updates.first?.diff == nil)
        #expect(updates.first?.snapshot.items.count == 3)
        let second = try #require(updates.last)
        let diff = try #require(second.diff)
        #expect(try diff.apply(to: updates[0].snapshot.items) == second.snapshot.items)
        #expect(second.snapshot.items.count == 2)
    }

    @Test func browserListUpdates_yieldTheListThenEachChange() async throws {
        let store = try TemporaryStore.inMemory()
        let browsers = store.browsers
        let counts = try await withTimeout(10, "the window list's updates") {
            var counts: [Int] = []
            for try await update in BrowserListMediator.updates(browsers: browsers) {
                counts.append(update.snapshot.items.count)
                if counts.count == 1 { _ = try await browsers.createBrowser() }
                if counts.count == 2 { break }
            }
            return counts
        }
        #expect(counts == [0, 1])
    }

    @Test func historyStates_followCommits() async throws {
        let store = try TemporaryStore.inMemory()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        let histories = store.histories
        let currents = try await withTimeout(10, "the history's states") {
            var currents: [Int?] = []
            for try await state in NavigationHistoryMediator.states(of: tab, histories: histories) {
                currents.append(state.current?.index)
                if currents.count == 1 { try await histories.commit(NavigationItem(url: "https://a.example/"), in: tab) }
                if currents.count == 2 { break }
            }
            return currents
        }
        #expect(currents == [nil, 0])
    }

    /// The Observation-based consumer: a view watching `snapshot` is told when the mediator pushes.
    @Test func tabStripModel_isObservable_andFollowsTheMediator() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, _) = try store.seed("| a* b")
        let model = TabStripModel()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: model)
        defer { mediator.disconnect() }
        try await waitUntil { model.snapshot?.items.count == 2 }
        let changed = ValueRecorder<Bool>()
        withObservationTracking { _ = model.snapshot } onChange: { changed.record(true) }
        try await store.tabs.close(in: browser, at: 0)
        try await waitUntil { model.snapshot?.items.count == 1 }
        #expect(changed.recorded == [true])
        #expect(model.lastDiff?.removed.count == 1)
        try await store.browsers.closeBrowser(browser)
        try await waitUntil { model.unavailability == .closed }
    }

    /// Yields the main actor until `condition` holds, for at most ``Patience`` times 5 seconds.
    private func waitUntil(_ condition: @MainActor () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(Patience.seconds(5))
        while !condition() {
            if ContinuousClock.now > deadline { throw TimeoutError(what: "a pushed value") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
