import Foundation
import SessionConsumers
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing
@testable import SessionMediators

@Suite @MainActor struct WebStateListMediatorTests {
    // MARK: - Configuration

    @Test(arguments: TemporaryStore.Kind.allCases)
    func configure_isTheFirstCall_withTheFullStrip(kind: TemporaryStore.Kind) async throws {
        let store = try kind.make()
        let (browser, names) = try store.seed("a | [ 0 b* c ] d", groups: ["0": TabGroupVisualData(title: "Work", color: .blue)])
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        let strip = try await consumer.configuration()
        #expect(names.format(strip) == "a | [ 0 b* c ] d")
        #expect(strip == (try store.strip(browser)))
        #expect(strip.browser == browser)
        #expect(strip.pinnedCount == 1)
        #expect(strip.activeIndex == 1)
        #expect(strip.groups.map(\.title) == ["Work"])
        #expect(strip.items[2].group == TabGroupItem(id: names.groupID("0"), title: "Work", color: .blue))
        #expect(strip.items[0].isPinned && !strip.items[1].isPinned)
        mediator.disconnect()
    }

    @Test func configure_tabWithoutPage_hasEmptyTitleAndNoURL() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, _) = try store.seed("| a*")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        let strip = try await consumer.configuration()
        #expect(strip.items.map(\.title) == [""])
        #expect(strip.items.map(\.url) == [nil])
        mediator.disconnect()
    }

    /// The initial value (which GRDB delivers twice for a pool on Linux) reaches the consumer once.
    @Test(arguments: TemporaryStore.Kind.allCases)
    func configure_initialValue_isNotRepeated(kind: TemporaryStore.Kind) async throws {
        let store = try kind.make()
        let (browser, names) = try store.seed("| a* b")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        // A barrier: once its update arrives, anything queued before it has arrived too.
        try await store.tabs.activate(in: browser, at: 1)
        try await consumer.waitForStrip { names.format($0) == "| a b*" }
        #expect(consumer.events.count == 2)
        #expect(consumer.updateCount == 1)
        mediator.disconnect()
    }

    // MARK: - Updates

    @Test(arguments: TemporaryStore.Kind.allCases)
    func update_singleMutation_isOneUpdateWithTheRightDiff(kind: TemporaryStore.Kind) async throws {
        let store = try kind.make()
        let (browser, names) = try store.seed("| a* b c")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        let initial = try await consumer.configuration()

        try await store.tabs.close(in: browser, at: 1)
        try await consumer.waitForStrip { names.format($0) == "| a* c" }
        try await store.tabs.move(in: browser, from: 0, to: 1)
        try await consumer.waitForStrip { names.format($0) == "| c a*" }

        #expect(consumer.events.count == 3)
        guard case .updated(let afterClose, let closeDiff) = consumer.events[1],
              case .updated(let afterMove, let moveDiff) = consumer.events[2]
        else { Issue.record("expected two updates: \(consumer.events)"); return }
        #expect(closeDiff == TabStripDiff(removed: [.init(index: 1, id: names.webStateID("b"))]))
        #expect(moveDiff == TabStripDiff(moved: [.init(id: names.webStateID("a"), from: 0, to: 1)]))
        #expect(try initial.applying(closeDiff) == afterClose)
        #expect(try afterClose.applying(moveDiff) == afterMove)
        mediator.disconnect()
    }

    @Test func update_insertActivating_insertsAndUpdatesThePreviouslyActiveTab() async throws {
        let store = try TemporaryStore.inMemory()
        var (browser, names) = try store.seed("| a* b")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        let x = WebState()
        names.assign("x", to: x.id)
        try await store.tabs.insert(x, in: browser, params: .automatic().activate())
        try await consumer.waitForStrip { [names] in names.format($0) == "| a b x*" }
        guard case .updated(_, let diff) = consumer.events.last else { Issue.record("no update"); return }
        #expect(diff.inserted.map(\.index) == [2])
        #expect(diff.inserted.map(\.item.id) == [x.id])
        #expect(diff.updated.map(\.item.id) == [names.webStateID("a")])
        #expect(diff.removed.isEmpty && diff.moved.isEmpty)
        mediator.disconnect()
    }

    @Test func update_groupChange_updatesItsTabs() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, names) = try store.seed("| a* [ 0 b c ] d")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        try await store.tabs.updateGroup(
            names.groupID("0"), in: browser, visualData: TabGroupVisualData(title: "News", color: .red, isCollapsed: true))
        try await consumer.waitForStrip { $0.groups.first?.isCollapsed == true }
        guard case .updated(let strip, let diff) = consumer.events.last else { Issue.record("no update"); return }
        #expect(diff.updated.map(\.index) == [1, 2])
        #expect(strip.groups == [TabGroupItem(id: names.groupID("0"), title: "News", color: .red, isCollapsed: true)])
        mediator.disconnect()
    }

    /// One `update` with several mutations is one transaction, hence one consumer update.
    @Test(arguments: TemporaryStore.Kind.allCases)
    func update_batch_isExactlyOneUpdate(kind: TemporaryStore.Kind) async throws {
        let store = try kind.make()
        let (browser, names) = try store.seed("| a* b c d")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        try await store.tabs.update(browser) { list in
            _ = try list.setPinned(true, at: 3)
            _ = try list.remove(at: 2)
            _ = try list.activate(at: 2)
            _ = try list.createGroup(at: [2], visualData: TabGroupVisualData(title: "g"), id: names.groupID("0"))
        }
        #expect(try store.format(browser, names) == "d | a [ 0 c* ]")
        try await consumer.waitForStrip { names.format($0) == "d | a [ 0 c* ]" }
        // Barrier, then the exact sequence.
        try await store.tabs.activate(in: browser, at: 0)
        try await consumer.waitForStrip { $0.activeIndex == 0 }
        #expect(consumer.events.count == 3, "\(consumer.events.count) events")
        #expect(consumer.updateCount == 2)
        #expect(consumer.chainProblems() == [])
        mediator.disconnect()
    }

    /// Split views reach the strip: created, resized and ended, each as one update.
    @Test func update_splits_areShownAndDiffed() async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* b c")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        try await store.tabs.update(browser) { _ = try $0.createSplit(at: [0, 2], id: names.splitID("0")) }
        try await consumer.waitForStrip { names.format($0) == "| { 0 a* c } b" }
        try await store.tabs.update(browser) {
            _ = try $0.updateSplit(names.splitID("0"), visualData: TabSplitVisualData(ratio: 0.25, layout: .horizontal))
        }
        try await consumer.waitForStrip { $0.splits.first?.ratio == 0.25 }
        let strip = try store.strip(browser)
        #expect(strip.activeSplit == TabSplitItem(id: names.splitID("0"), ratio: 0.25, layout: .horizontal))
        #expect(strip.items.map(\.split?.layout) == [.horizontal, .horizontal, nil])
        try await store.tabs.update(browser) { _ = try $0.remove(at: 1) }
        try await consumer.waitForStrip { names.format($0) == "| a* b" && $0.splits.isEmpty }
        #expect(consumer.updateCount == 3)
        #expect(consumer.chainProblems() == [])
        mediator.disconnect()
    }

    /// A change the strip does not show (an opener's recorded navigation index) is not pushed.
    @Test func update_invisibleChange_isNotPushed() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, names) = try store.seed("| a* b", openers: ["b": "a"])
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        try await store.tabs.update(browser) { _ = try $0.setNavigationIndex(3, forTabAt: 1) }
        try await store.tabs.activate(in: browser, at: 1)
        try await consumer.waitForStrip { names.format($0) == "| a b*" }
        #expect(consumer.events.count == 2)
        mediator.disconnect()
    }

    // MARK: - Random sequences

    /// Every diff, applied to the previous strip, gives the new one; one update per visible change.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func update_randomMutations_eachDiffTurnsThePreviousStripIntoTheNext(seed: UInt64) async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("a | [ 0 b* c ] d e")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        var expected = try await consumer.configuration()
        var rng = SplitMix64(seed: seed)
        var changes = 0
        for _ in 0..<200 {
            let list = try await store.tabs.webStateList(in: browser)
            let operation = RandomWebStateListOperation.random(for: list, using: &rng)
            do {
                try await store.tabs.update(browser) { try operation(&$0) }
            } catch is WebStateListError {
                continue
            }
            let strip = try store.strip(browser)
            guard strip != expected else { continue }
            changes += 1
            expected = strip
            try await consumer.waitForStrip("after \(operation)") { $0 == strip }
        }
        #expect(consumer.updateCount == changes)
        #expect(consumer.chainProblems() == [])
        #expect(changes > 50)
        mediator.disconnect()
    }

    /// Mutations made several at a time, without waiting, give coalesced diffs that still chain.
    @Test(arguments: [21, 22, 23] as [UInt64])
    func update_randomBursts_coalescedDiffsStillChain(seed: UInt64) async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("a b | c* [ 0 d e ]")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        var rng = SplitMix64(seed: seed)
        for _ in 0..<40 {
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                let list = try await store.tabs.webStateList(in: browser)
                let operation = RandomWebStateListOperation.random(for: list, using: &rng)
                _ = try? await store.tabs.update(browser) { try operation(&$0) }
            }
            let strip = try store.strip(browser)
            try await consumer.waitForStrip { $0 == strip }
        }
        #expect(consumer.chainProblems() == [])
        mediator.disconnect()
    }

    // MARK: - Consolidation

    /// 1,000 separately committed mutations made in one main-queue turn reach the consumer as a handful of updates.
    @Test(arguments: TemporaryStore.Kind.allCases)
    func update_burstOnMainQueue_isCoalesced_andEndsOnTheFinalState(kind: TemporaryStore.Kind) async throws {
        let store = try kind.make()
        let (browser, _) = try store.seed("| a* b c")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        try synchronously {
            for step in 0..<1_000 {
                try store.tabs.activate(in: browser, at: step % 3)
                if step % 100 == 0 { try store.tabs.insert(in: browser, params: .automatic()) }
            }
        }
        let final = try store.strip(browser)
        try await consumer.waitForStrip("the final strip") { $0 == final }
        #expect(consumer.updateCount <= 5, "\(consumer.updateCount) updates")
        #expect(consumer.chainProblems() == [])
        mediator.disconnect()
    }

    /// 1,000 mutations committed by another thread, as fast as it can, are coalesced
    /// into far fewer updates, and end on the final state. (How few, on the clock, is
    /// `DeliveryPacingTests`' to say: here a loaded machine may pause the writer for
    /// longer than the user's pace, and each pause lets one update through at once.)
    @Test(arguments: TemporaryStore.Kind.allCases)
    func update_burstFromAnotherThread_isCoalesced_andEndsOnTheFinalState(kind: TemporaryStore.Kind) async throws {
        let store = try kind.make()
        let (browser, _) = try store.seed("| a* b c")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        let tabs = store.tabs
        try await Task.detached {
            for step in 0..<1_000 {
                try tabs.activate(in: browser, at: step % 3)
            }
            try tabs.insert(in: browser, params: .automatic().activate())
        }.value
        let final = try store.strip(browser)
        try await consumer.waitForStrip("the final strip") { $0 == final }
        #expect(consumer.updateCount < 1_001 / 4, "\(consumer.updateCount) updates")
        #expect(consumer.chainProblems() == [])
        mediator.disconnect()
    }

    // MARK: - Other processes

    /// A write through a second connection to the file (as another process makes) is noticed.
    @Test func update_writeByAnotherConnection_isNoticed() async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* b")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        let other = try await SessionDatabase.open(atPath: try #require(store.path))
        try await SQLiteWebStateListRepository(database: other).close(in: browser, at: 0)
        try await other.close()
        try await consumer.waitForStrip("the other connection's write") { names.format($0) == "| b*" }
        #expect(consumer.chainProblems() == [])
        mediator.disconnect()
    }

    // MARK: - Lifetime

    @Test func disconnect_stopsDelivery_evenOfAPendingUpdate() async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* b")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        #expect(mediator.isConnected)
        // Commit, then disconnect in the same main-queue turn: the update may be pending already.
        try synchronously { try store.tabs.activate(in: browser, at: 1) }
        mediator.disconnect()
        #expect(!mediator.isConnected)
        try await store.tabs.close(in: browser, at: 0)
        // A second mediator is the barrier: once it shows the last write, the first one's deliveries are past.
        let witness = RecordingWebStateListConsumer()
        let other = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: witness)
        try await witness.waitForStrip { names.format($0) == "| b*" }
        try await store.tabs.insert(in: browser, params: .automatic())
        try await witness.waitForStrip { $0.items.count == 2 }
        #expect(consumer.events.count == 1)
        other.disconnect()
    }

    @Test func browserClosed_tellsTheConsumerOnce_andDisconnects() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, _) = try store.seed("| a* b")
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
        try await consumer.configuration()
        try await store.browsers.closeBrowser(browser)
        try await consumer.log.wait(for: "unavailability") { $0.count == 2 }
        #expect(consumer.events.last == .unavailable(.closed))
        #expect(!mediator.isConnected)
    }

    @Test func unknownBrowser_isUnavailableFromTheStart() async throws {
        let store = try TemporaryStore.inMemory()
        let consumer = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: BrowserID(), tabs: store.tabs, consumer: consumer)
        try await consumer.log.wait(for: "unavailability") { !$0.isEmpty }
        #expect(consumer.events == [.unavailable(.closed)])
        #expect(!mediator.isConnected)
    }

    @Test func release_mediatorAndConsumer_leaveNothingBehind() async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a* b")
        weak var weakMediator: WebStateListMediator?
        weak var weakConsumer: RecordingWebStateListConsumer?
        do {
            let consumer = RecordingWebStateListConsumer()
            let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer)
            try await consumer.configuration()
            // An update in flight when they go.
            try await store.tabs.activate(in: browser, at: 1)
            weakMediator = mediator
            weakConsumer = consumer
        }
        #expect(weakMediator == nil)
        #expect(weakConsumer == nil)
    }

    @Test func release_consumer_isNotKeptByTheMediator_whichThenStops() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, names) = try store.seed("| a* b")
        weak var weakConsumer: RecordingWebStateListConsumer?
        var consumer: RecordingWebStateListConsumer? = RecordingWebStateListConsumer()
        let mediator = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: consumer!)
        try await consumer!.configuration()
        weakConsumer = consumer
        consumer = nil
        #expect(weakConsumer == nil)
        try await store.tabs.activate(in: browser, at: 1)
        let witness = RecordingWebStateListConsumer()
        let other = WebStateListMediator(browser: browser, tabs: store.tabs, consumer: witness)
        try await witness.waitForStrip { names.format($0) == "| a b*" }
        try await store.tabs.activate(in: browser, at: 0)
        try await witness.waitForStrip { names.format($0) == "| a* b" }
        #expect(!mediator.isConnected)
        other.disconnect()
    }
}
