import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Every rule of <doc:TabListRules>, driven through the repository against real
/// SQLite, read back as notation, and read again after reopening the file.
@Suite struct SQLiteWebStateListRepositoryTests {
    /// One row: a list, a mutation through the repository, the expected list.
    struct Row: Sendable, CustomStringConvertible {
        var description: String
        var initial: String
        var openers: [String: String] = [:]
        var act: @Sendable (SQLiteWebStateListRepository, BrowserID, WebStateListNotation) throws -> Void
        var expected: String
    }

    static func insert(_ name: String, _ params: @escaping @Sendable (WebStateListNotation) -> InsertionParams)
        -> @Sendable (SQLiteWebStateListRepository, BrowserID, WebStateListNotation) throws -> Void
    {
        { tabs, browser, names in try tabs.insert(names.webState(name), in: browser, params: params(names)) }
    }

    static let rows: [Row] = [
        // TabListRules.md, Insertion
        Row(description: "automatic insert appends", initial: "| a* b",
            act: insert("x") { _ in .automatic() }, expected: "| a* b x"),
        Row(description: "opener without children: right after the opener", initial: "| a* b c",
            act: insert("x") { .automatic().withOpener($0.opener("a")) }, expected: "| a* x b c"),
        Row(description: "opener with a child: after its last child", initial: "| a* b c", openers: ["b": "a"],
            act: insert("x") { .automatic().withOpener($0.opener("a")) }, expected: "| a* b x c"),
        Row(description: "inherit opener: the active tab opens it", initial: "| a b* c",
            act: insert("x") { _ in .automatic().inheritingOpener() }, expected: "| a b* x c"),
        Row(description: "a desired index wins over the opener", initial: "| a* b c",
            act: insert("x") { .atIndex(3).withOpener($0.opener("a")) }, expected: "| a* b c x"),
        Row(description: "pinned insert goes to the end of the pinned prefix", initial: "a | b*",
            act: insert("x") { _ in .automatic().pinned() }, expected: "a x | b*"),
        Row(description: "out-of-range index becomes the segment's end", initial: "a | b*",
            act: insert("x") { _ in .atIndex(7).pinned() }, expected: "a x | b*"),
        Row(description: "insert strictly inside a group joins it", initial: "| a [ 0 b c ] d",
            act: insert("x") { _ in .atIndex(2) }, expected: "| a [ 0 b x c ] d"),
        Row(description: "insert at a group's first index does not join", initial: "| a [ 0 b c ] d",
            act: insert("x") { _ in .atIndex(1) }, expected: "| a x [ 0 b c ] d"),
        Row(description: "a child joins its opener's group", initial: "| a [ 0 b* c ] d",
            act: insert("x") { .automatic().withOpener($0.opener("b")) }, expected: "| a [ 0 b* x c ] d"),
        Row(description: "activate on insert", initial: "| a* b",
            act: insert("x") { _ in .automatic().activate() }, expected: "| a b x*"),
        // TabListRules.md, Move and pin
        Row(description: "move keeps the active tab with it", initial: "| a* b c d",
            act: { tabs, b, _ in try tabs.move(in: b, from: 0, to: 2) }, expected: "| b c a* d"),
        Row(description: "move is clamped to the pinned segment", initial: "a b | c* d",
            act: { tabs, b, _ in try tabs.move(in: b, from: 0, to: 3) }, expected: "b a | c* d"),
        Row(description: "move into a group joins it", initial: "| a* [ 0 b c ] d",
            act: { tabs, b, _ in try tabs.move(in: b, from: 0, to: 1) }, expected: "| [ 0 b a* c ] d"),
        Row(description: "pin moves to the end of the pinned prefix", initial: "| a b c*",
            act: { tabs, b, _ in try tabs.setPinned(true, in: b, at: 2) }, expected: "c* | a b"),
        Row(description: "unpin moves to the end of the list", initial: "a* b | c",
            act: { tabs, b, _ in try tabs.setPinned(false, in: b, at: 0) }, expected: "b | c a*"),
        Row(description: "pinning a grouped tab takes it out of the group", initial: "| [ 0 a b* ] c",
            act: { tabs, b, _ in try tabs.setPinned(true, in: b, at: 1) }, expected: "b* | [ 0 a ] c"),
        // TabListRules.md, Replace and activate
        Row(description: "replace keeps place and group", initial: "| [ 0 a b* ] c",
            act: { tabs, b, names in try tabs.replace(in: b, at: 1, with: names.webState("x")) },
            expected: "| [ 0 a x* ] c"),
        Row(description: "activate none is allowed", initial: "| a b*",
            act: { tabs, b, _ in try tabs.activate(in: b, at: nil) }, expected: "| a b"),
        // TabListRules.md, Removal
        Row(description: "closing the active tab activates its child", initial: "| a* b c", openers: ["c": "a"],
            act: { tabs, b, _ in try tabs.close(in: b, at: 0) }, expected: "| b c*"),
        Row(description: "closing a child activates a sibling", initial: "| a b* c", openers: ["b": "a", "c": "a"],
            act: { tabs, b, _ in try tabs.close(in: b, at: 1) }, expected: "| a c*"),
        Row(description: "closing a child without siblings activates its opener", initial: "| a b c*", openers: ["c": "a"],
            act: { tabs, b, _ in try tabs.close(in: b, at: 2) }, expected: "| a* b"),
        Row(description: "nearest survivor after the active tab first", initial: "| a b* c",
            act: { tabs, b, _ in try tabs.close(in: b, at: 1) }, expected: "| a c*"),
        Row(description: "then the one before it", initial: "| a b c*",
            act: { tabs, b, _ in try tabs.close(in: b, at: 2) }, expected: "| a b*"),
        Row(description: "close a set", initial: "| a b* c d",
            act: { tabs, b, _ in try tabs.close(in: b, indexes: [1, 2]) }, expected: "| a d*"),
        Row(description: "close all", initial: "a | b* c",
            act: { tabs, b, _ in try tabs.closeAll(in: b) }, expected: "|"),
        Row(description: "close all regular tabs keeps pinned ones", initial: "a | b c*",
            act: { tabs, b, _ in try tabs.closeAllRegular(in: b) }, expected: "a* |"),
        Row(description: "close others keeps pinned tabs", initial: "a | b c* d",
            act: { tabs, b, _ in try tabs.closeOthers(in: b, keeping: 1) }, expected: "a | b*"),
        Row(description: "close a group", initial: "| [ 0 a b ] c*",
            act: { tabs, b, names in try tabs.closeGroup(names.groupID("0"), in: b) }, expected: "| c*"),
        // TabListRules.md, Groups
        Row(description: "create a group reorders members together", initial: "| a b c*",
            act: { tabs, b, _ in _ = try tabs.createGroup(in: b, at: [0, 2], visualData: .init(title: "W")) },
            expected: "| [ _ a c* ] b"),
        Row(description: "create a group unpins members", initial: "a | b c*",
            act: { tabs, b, _ in _ = try tabs.createGroup(in: b, at: [0, 1], visualData: .init()) },
            expected: "| [ _ a b ] c*"),
        Row(description: "move tabs into a group", initial: "| [ 0 a ] b c*",
            act: { tabs, b, names in try tabs.moveToGroup([2], group: names.groupID("0"), in: b) },
            expected: "| [ 0 a c* ] b"),
        Row(description: "remove tabs from groups lands them after the group", initial: "| [ 0 a b ] c*",
            act: { tabs, b, _ in try tabs.removeFromGroups([0], in: b) }, expected: "| [ 0 b ] a c*"),
        Row(description: "move a group to the end", initial: "| [ 0 a b ] c d*",
            act: { tabs, b, names in try tabs.moveGroup(names.groupID("0"), in: b, before: 4) },
            expected: "| c d* [ 0 a b ]"),
        Row(description: "delete a group keeps its tabs", initial: "| [ 0 a b* ] c",
            act: { tabs, b, names in try tabs.deleteGroup(names.groupID("0"), in: b) }, expected: "| a b* c"),
    ]

    @Test(arguments: TemporaryStore.Kind.allCases, rows)
    func mutation_followsTheRule_andSurvivesReopening(kind: TemporaryStore.Kind, row: Row) throws {
        let store = try kind.make()
        let (browser, names) = try store.seed(row.initial, openers: row.openers)
        #expect(try store.format(browser, names) == row.initial)
        try row.act(store.tabs, browser, names)
        #expect(try store.format(browser, names) == row.expected, "\(row)")
        try store.reopen()
        #expect(try store.format(browser, names) == row.expected, "after reopening: \(row)")
        if let path = store.path {
            #expect(try SessionStoreFile.check(atPath: path) == [])
        }
    }

    @Test func reopen_restoresOpenersGroupsMetadataExactly() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed(
            "a | [ 0 b c* ] d", openers: ["d": "b", "c": "a"], navigationIndexes: ["b": 3],
            openerNavigationIndexes: ["d": 2],
            groups: ["0": TabGroupVisualData(title: "Trip", color: .cyan, isCollapsed: true)])
        let before = try store.tabs.webStateList(in: browser)
        try store.reopen()
        let after = try store.tabs.webStateList(in: browser)
        #expect(after == before)
        #expect(names.openers(in: after) == ["d": "b", "c": "a"])
        #expect(after.webStates[3].opener?.navigationIndex == 2)
        #expect(after.orderedGroups.first?.visualData == TabGroupVisualData(title: "Trip", color: .cyan, isCollapsed: true))
    }

    @Test func activate_stampsLastActiveTime() throws {
        let store = try TemporaryStore.inMemory()
        let (browser, _) = try store.seed("| a* b")
        let start = Date()
        try store.tabs.activate(in: browser, at: 1)
        let list = try store.tabs.webStateList(in: browser)
        #expect(list.webStates[1].lastActiveAt >= start.addingTimeInterval(-0.01))
        #expect(list.webStates[0].lastActiveAt < start.addingTimeInterval(0.001))  // stored to the millisecond
    }

    @Test func batch_isOneTransaction_andAFailingBatchWritesNothing() throws {
        let store = try TemporaryStore.inMemory()
        let (browser, names) = try store.seed("| a* b")
        let revision = { try store.database.writer.read { try Int64.fetchOne($0, sql: "SELECT revision FROM browsers") } }
        let start = try revision()
        try store.tabs.update(browser) { list in
            try list.insert(names.webState("x"), params: .automatic())
            try list.setPinned(true, at: 2)
            try list.activate(at: 0)
        }
        #expect(try store.format(browser, names) == "x* | a b")
        #expect(try revision() == start.map { $0 + 1 })
        #expect(throws: WebStateListError.indexOutOfRange(index: 9, count: 4)) {
            try store.tabs.update(browser) { list in
                try list.insert(names.webState("y"), params: .automatic())
                try list.move(from: 9, to: 0)
            }
        }
        #expect(try store.format(browser, names) == "x* | a b")
        #expect(try revision() == start.map { $0 + 1 })
    }

    @Test func reentrantCall_fromInsideAMutation_throwsAndLeavesTheListIntact() throws {
        let store = try TemporaryStore.inMemory()
        let (browser, names) = try store.seed("| a* b")
        var inner: (any Error)?
        try store.tabs.update(browser) { list in
            do {
                try store.tabs.insert(names.webState("y"), in: browser, params: .automatic())
            } catch {
                inner = error
            }
            try list.insert(names.webState("x"), params: .automatic())
        }
        #expect(inner as? WebStateListError == .reentrantMutation)
        #expect(try store.format(browser, names) == "| a* b x")
    }

    @Test func unknownBrowser_isATypedError() throws {
        let store = try TemporaryStore.inMemory()
        let stranger = BrowserID()
        #expect(throws: StorageError.unknownBrowser(stranger.uuidString)) {
            try store.tabs.webStateList(in: stranger)
        }
        #expect(throws: StorageError.unknownBrowser(stranger.uuidString)) {
            try store.tabs.insert(in: stranger, params: .automatic())
        }
    }

    /// Another process (here: a second connection with its own cache) writes;
    /// the first repository's next mutation builds on that write.
    @Test func writeByAnotherConnection_isNeverOverwrittenByACachedList() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* b")
        let other = try SessionDatabase.open(atPath: try #require(store.path))
        let otherTabs = SQLiteWebStateListRepository(database: other)
        try otherTabs.insert(names.webState("x"), in: browser, params: .automatic())
        try store.tabs.insert(names.webState("y"), in: browser, params: .automatic())
        #expect(try store.format(browser, names) == "| a* b x y")
        #expect(names.format(try otherTabs.webStateList(in: browser)) == "| a* b x y")
        try other.close()
    }

    @Test func moveWebState_toAnotherBrowser_keepsItsHistory() throws {
        let store = try TemporaryStore.onDisk()
        let (first, names) = try store.seed("| a b* c", openers: ["c": "b"])
        let (second, otherNames) = try store.seed("| x*", scope: 1)
        let moving = names.webStateID("b")
        try PlainSQLite.execute(
            "INSERT INTO navigation_entries (tab_id, sequence, url, timestamp) VALUES (?, 0, 'https://example.org/', '2026-01-01 00:00:00.000'); UPDATE tabs SET current_entry_index = 0 WHERE id = ?",
            arguments: [moving.uuidString, moving.uuidString], atPath: try #require(store.path))
        try store.reopen()
        let index = try store.tabs.moveWebState(moving, to: second, params: .automatic().activate())
        #expect(index == 1)
        #expect(try store.format(first, names) == "| a c*")
        var combined = otherNames
        combined.assign("b", to: moving)
        #expect(try store.format(second, combined) == "| x b*")
        #expect(try store.tabs.webStateList(in: first).webStates[1].opener == nil)
        try store.reopen()
        #expect(try store.tabs.webStateList(in: second).webStates[1].navigationIndex == 0)
        #expect(try PlainSQLite.strings(
            "SELECT url FROM navigation_entries WHERE tab_id = '\(moving.uuidString)'", atPath: store.path!)
            == ["https://example.org/"])
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
    }

    /// One mutation writes the rows it changes, whatever the window's size.
    @Test(arguments: [10, 1_000])
    func singleMutations_writeAFewRows_independentOfListSize(count: Int) throws {
        let store = try TemporaryStore.inMemory()
        let browser = try store.browsers.createBrowser().id
        try store.tabs.update(browser) { list in
            for _ in 0..<count { try list.insert(WebState(), params: .automatic()) }
            try list.activate(at: 0)
        }
        func changes(_ body: () throws -> Void) throws -> Int {
            let before = store.database.writer.writeWithoutTransaction { $0.totalChangesCount }
            try body()
            return store.database.writer.writeWithoutTransaction { $0.totalChangesCount } - before
        }
        let middle = count / 2
        let inserted = try changes { try store.tabs.insert(in: browser, params: .atIndex(middle)) }
        // Tab and browser: a new tab shows no page yet, so the search index has nothing to add.
        #expect(inserted == 2, "insert wrote \(inserted)")
        #expect(try changes { try store.tabs.move(in: browser, from: 1, to: count - 1) } == 2)
        // A tab made long ago: its last-active time changes (a tab made in the same
        // millisecond would keep it, and its row would not be written).
        usleep(5_000)
        #expect(try changes { try store.tabs.activate(in: browser, at: count - 2) } == 2)
        #expect(try changes { try store.tabs.close(in: browser, at: 3) } == 3)  // + its closed entry
        #expect(try changes { try store.tabs.setPinned(true, in: browser, at: 5) } == 2)
    }

    /// A tab opened on its page keeps its history index through later list writes:
    /// pinning it, then opening a child from it, records the opener at index 0.
    @Test func insertNavigatingTo_thenPin_keepsTheHistoryIndexForChildren() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a*")
        let tab = WebState()
        try store.tabs.insert(tab, in: browser, params: .automatic(), navigatingTo: NavigationItem(url: "https://a.example/"))
        let index = try #require(try store.tabs.webStateList(in: browser).index(of: tab.id))
        try store.tabs.setPinned(true, in: browser, at: index)
        let pinned = try #require(try store.tabs.webStateList(in: browser).index(of: tab.id))
        #expect(try store.tabs.webStateList(in: browser).webStates[pinned].navigationIndex == 0)
        let child = WebState()
        try store.tabs.insert(child, in: browser, params: .automatic().withOpener(tab.id))
        #expect(try PlainSQLite.strings(
            "SELECT opener_navigation_index FROM tab_openers WHERE tab_id = '\(child.id.uuidString)'", atPath: store.path!)
            == ["0"])
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
    }

    @Test func insertNavigatingTo_opensTheTabOnItsPage_inOneTransaction() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a*")
        let recorder = ValueRecorder<WebStateListSnapshot>()
        let observation = store.tabs.observe(browser) { if let value = try? $0.get() { recorder.record(value) } }
        defer { observation.cancel() }
        #expect(recorder.wait { $0.count == 1 })
        let index = try store.tabs.insert(
            names.webState("x"), in: browser, params: .automatic().activate(),
            navigatingTo: NavigationItem(url: "https://x.example/", title: "X"))
        #expect(index == 1)
        #expect(recorder.wait { $0.count == 2 })
        let last = try #require(recorder.recorded.last)
        #expect(names.format(last.list) == "| a x*")
        #expect(last.pages[names.webStateID("x")]?.title == "X")
        #expect(try store.tabs.webStateList(in: browser).webStates[1].navigationIndex == 0)
        try store.reopen()
        #expect(try store.histories.history(of: names.webStateID("x")).currentItem?.url == "https://x.example/")
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
    }
}
