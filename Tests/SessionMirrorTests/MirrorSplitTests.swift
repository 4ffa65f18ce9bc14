import Foundation
@testable import SessionMirror
@testable import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Split views mirrored: the browser's `splitViewId` on tabs as the store's splits.
///
/// The messages are hand-built, shaped as the extension sends them (`tabs.Tab` with
/// `splitViewId`, `-1` for none); the real browsers' messages are checked by
/// `Scripts/browser-mirror-suite --splits`.
@Suite struct MirrorSplitTests {
    /// A window (id 1) of tabs 10, 11, … with the given split view ids (`nil`: the key absent).
    private static func window(_ splits: [Int?], pinned: Int = 0, groups: [Int?]? = nil) -> BrowserWindow {
        let tabs = splits.enumerated().map { index, split in
            BrowserTab(
                id: 10 + index, windowId: 1, index: index, url: "https://split.example/\(index)", title: "T\(index)",
                pinned: index < pinned, groupId: groups?[index] ?? -1, active: index == 0, splitViewId: split)
        }
        let used = Set((groups ?? []).compactMap { $0 })
        let groups = used.sorted().map { BrowserGroup(id: $0, windowId: 1, title: "G\($0)") }
        return BrowserWindow(id: 1, tabs: tabs, groups: groups)
    }

    private static func snapshot(_ window: BrowserWindow, id: Int = 1) -> MirrorMessage {
        var message = MirrorMessage(id: id, type: .snapshot)
        message.windows = [window]
        return message
    }

    private static func updated(_ tab: Int, index: Int, split: Int, id: Int) -> MirrorMessage {
        var message = MirrorMessage(id: id, type: .tabUpdated)
        message.tab = BrowserTab(id: tab, windowId: 1, index: index, splitViewId: split)
        return message
    }

    /// The stored list of window 1, and its splits as index ranges.
    private static func list(_ store: TemporaryStore, _ mirror: BrowserMirror) throws -> WebStateList {
        try store.tabs.snapshot(of: #require(mirror.browser(forWindow: 1))).list
    }

    private static func ranges(_ list: WebStateList) -> [Range<Int>] {
        list.splits.keys.compactMap { list.range(ofSplit: $0) }.sorted { $0.lowerBound < $1.lowerBound }
    }

    @Test func aSnapshotsSplitViews_becomeStoreSplits_ratioHalfSideBySide() throws {
        let store = try TemporaryStore.inMemory()
        let mirror = BrowserMirror(database: store.database)
        _ = try mirror.handle(Self.snapshot(Self.window([-1, 4, 4, 9, 9, -1])))
        let list = try Self.list(store, mirror)
        #expect(Self.ranges(list) == [1..<3, 3..<5])
        #expect(list.splits.values.allSatisfy { $0.visualData == TabSplitVisualData(ratio: 0.5, layout: .vertical) })
        #expect(mirror.ignoredSplitCount == 0)
        #expect(mirror.takeNotes().isEmpty)
    }

    @Test func aSplitViewThatEnds_removesTheStoreSplit_andKeepsItsTabs() throws {
        let store = try TemporaryStore.inMemory()
        let mirror = BrowserMirror(database: store.database)
        _ = try mirror.handle(Self.snapshot(Self.window([-1, 4, 4, -1])))
        let before = try Self.list(store, mirror)
        let split = try #require(before.splits.keys.first)
        // Another event of the window writes it again: the split keeps its identifier.
        _ = try mirror.handle(Self.updated(13, index: 3, split: -1, id: 2))
        #expect(try Self.list(store, mirror).splits.keys.first == split)
        // Chromium's `tabs.unsplit`: each tab hears `splitViewId: -1`, one event at a time.
        _ = try mirror.handle(Self.updated(11, index: 1, split: -1, id: 3))
        let after = try Self.list(store, mirror)
        #expect(after.splits.isEmpty)
        #expect(after.webStates.map(\.id) == before.webStates.map(\.id))
        _ = try mirror.handle(Self.updated(12, index: 2, split: -1, id: 4))
        #expect(try Self.list(store, mirror).splits.isEmpty)
        // A split view with one tab so far is being made or ended: no note.
        #expect(mirror.ignoredSplitCount == 0)
    }

    @Test func aSplitViewMadeByEvents_becomesOneStoreSplit_underOneIdentifier() throws {
        let store = try TemporaryStore.inMemory()
        let mirror = BrowserMirror(database: store.database)
        _ = try mirror.handle(Self.snapshot(Self.window([-1, -1, -1])))
        _ = try mirror.handle(Self.updated(10, index: 0, split: 7, id: 2))
        #expect(try Self.list(store, mirror).splits.isEmpty)
        _ = try mirror.handle(Self.updated(11, index: 1, split: 7, id: 3))
        let list = try Self.list(store, mirror)
        #expect(Self.ranges(list) == [0..<2])
        let id = try #require(list.splits.keys.first)
        // The split moved as a unit (Chromium reports each tab's move): still the same split.
        var moved = MirrorMessage(id: 4, type: .tabMoved)
        (moved.tabId, moved.windowId, moved.fromIndex, moved.toIndex) = (12, 1, 2, 0)
        _ = try mirror.handle(moved)
        let after = try Self.list(store, mirror)
        #expect(Self.ranges(after) == [1..<3])
        #expect(after.splits.keys.first == id)
    }

    @Test func splitViewsTheStoreCannotHold_areLeftOut_andNotedOnce() throws {
        let store = try TemporaryStore.inMemory()
        let mirror = BrowserMirror(database: store.database)
        // 3 and 3: not neighbours; 5: one tab pinned, one not; 6: three tabs; 8: two groups; 9: good.
        let window = Self.window(
            [5, 5, 3, -1, 3, 6, 6, 6, 8, 8, 9, 9], pinned: 1,
            groups: [nil, nil, nil, nil, nil, nil, nil, nil, 1, 2, nil, nil])
        _ = try mirror.handle(Self.snapshot(window))
        let list = try Self.list(store, mirror)
        #expect(Self.ranges(list) == [10..<12])
        #expect(mirror.ignoredSplitCount == 4)
        let notes = mirror.takeNotes()
        #expect(notes.count == 4)
        #expect(notes.contains { $0.contains("split view 3 ") && $0.contains("not neighbours") })
        #expect(notes.contains { $0.contains("split view 5 ") && $0.contains("pinned") })
        #expect(notes.contains { $0.contains("split view 6 ") && $0.contains("3 tabs") })
        #expect(notes.contains { $0.contains("split view 8 ") && $0.contains("groups") })
        // Written again, the same split views are not noted again.
        _ = try mirror.handle(Self.updated(21, index: 11, split: 9, id: 2))
        #expect(mirror.ignoredSplitCount == 4)
        #expect(mirror.takeNotes().isEmpty)
    }

    @Test func aNewHost_keepsTheStoreSplit_itsIdentifierAndRatio() throws {
        let store = try TemporaryStore.onDisk()
        let mirror = BrowserMirror(database: store.database)
        let reply = try mirror.handle(Self.snapshot(Self.window([-1, 4, 4])))
        let before = try Self.list(store, mirror)
        let id = try #require(before.splits.keys.first)
        // A ratio from elsewhere (a session file): the browser tells none, so the store's stays.
        try store.tabs.update(#require(mirror.browser(forWindow: 1))) { list in
            try list.updateSplit(id, visualData: TabSplitVisualData(ratio: 0.3, layout: .horizontal))
        }
        // The browser restarted: new split view id, tabs carrying their identifiers.
        var window = Self.window([-1, 12, 12])
        for index in window.tabs!.indices { window.tabs![index].sid = reply.ids?[String(10 + index)] }
        let restarted = BrowserMirror(database: store.database)
        _ = try restarted.handle(Self.snapshot(window))
        let after = try Self.list(store, restarted)
        #expect(after.splits.keys.first == id)
        #expect(after.splits[id]?.visualData == TabSplitVisualData(ratio: 0.3, layout: .horizontal))
    }

    @Test func aBrowserWithoutSplitViews_leavesTheStoresSplitsAlone() throws {
        let store = try TemporaryStore.inMemory()
        let mirror = BrowserMirror(database: store.database)
        _ = try mirror.handle(Self.snapshot(Self.window([nil, nil, nil])))
        let browser = try #require(mirror.browser(forWindow: 1))
        try store.tabs.update(browser) { list in _ = try list.createSplit(at: [1, 2]) }
        // Any event of the window writes it again; the browser says nothing of splits.
        var activated = MirrorMessage(id: 2, type: .tabActivated)
        (activated.tabId, activated.windowId) = (12, 1)
        _ = try mirror.handle(activated)
        #expect(Self.ranges(try Self.list(store, mirror)) == [1..<3])
    }

    @Test func aRestorePlan_namesEachTabsSplit() throws {
        let store = try TemporaryStore.inMemory()
        let mirror = BrowserMirror(database: store.database)
        _ = try mirror.handle(Self.snapshot(Self.window([-1, 4, 4])))
        let browser = try #require(mirror.browser(forWindow: 1))
        let id = try #require(try Self.list(store, mirror).splits.keys.first)
        var removed = MirrorMessage(id: 2, type: .windowRemoved)
        removed.windowId = 1
        _ = try mirror.handle(removed)
        try mirror.closeRemovedWindows(dueBy: .distantFuture)
        var asked = MirrorMessage(id: 3, type: .restorePlan)
        asked.browser = browser.uuidString
        let plan = try #require(try mirror.handle(asked).plan)
        #expect(plan.tabs.map(\.split) == [nil, id.uuidString, id.uuidString])
        // A browser that cannot make a split (Firefox) says so; the window shows none, so the split ends.
        var restored = MirrorMessage(id: 4, type: .windowRestored)
        restored.browser = browser.uuidString
        var window = Self.window([-1, -1, -1])
        window.id = 2
        for index in window.tabs!.indices {
            window.tabs![index].windowId = 2
            window.tabs![index].sid = plan.tabs[index].sid
        }
        restored.window = window
        restored.splitsNotMade = 1
        #expect(try mirror.handle(restored).error == nil)
        #expect(mirror.takeNotes().contains { $0.contains("without 1 of its split view(s)") })
        let list = try store.tabs.snapshot(of: browser).list
        #expect(list.webStates.map(\.id.uuidString) == plan.tabs.map(\.sid))
        #expect(list.splits.isEmpty)
    }
}
