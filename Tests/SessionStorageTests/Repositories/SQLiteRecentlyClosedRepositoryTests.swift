import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

@Suite struct SQLiteRecentlyClosedRepositoryTests {
    private func closed(_ store: TemporaryStore) -> SQLiteRecentlyClosedRepository {
        SQLiteRecentlyClosedRepository(database: store.database)
    }

    @Test(arguments: TemporaryStore.Kind.allCases)
    func closedTab_withHistory_returnsToItsIndexInItsBrowser(kind: TemporaryStore.Kind) throws {
        let store = try kind.make()
        let (browser, names) = try store.seed("| a b* c")
        let tab = names.webStateID("b")
        try store.histories.commit(NavigationItem(url: "https://one.example/", title: "One"), in: tab)
        try store.histories.commit(NavigationItem(url: "https://two.example/", title: "Two"), in: tab)
        _ = try store.histories.setEngineState(Data([1, 2, 3]), for: tab)
        try store.tabs.close(in: browser, at: 1)
        #expect(try store.format(browser, names) == "| a c*")
        try store.reopen()
        let entries = try closed(store).entries()
        #expect(entries.map(\.kind) == [.tab])
        #expect(entries.first?.tabIndex == 1)
        #expect(entries.first?.tabs.map(\.page?.title) == ["Two"])
        try store.tabs.activate(in: browser, at: 0)
        #expect(try closed(store).restore(try #require(entries.first).id) == browser)
        #expect(try store.format(browser, names) == "| a b* c")
        #expect(try store.histories.history(of: tab).items.map(\.title) == ["One", "Two"])
        #expect(try store.histories.engineState(of: tab) == Data([1, 2, 3]))
        #expect(try closed(store).entries().isEmpty)
        if let path = store.path { #expect(try SessionStoreFile.check(atPath: path) == []) }
    }

    @Test func closedPinnedAndGroupedTabs_returnPinnedAndIntoTheirGroup() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("a | [ 0 b c* ] d")
        try store.tabs.close(in: browser, indexes: [0, 1])  // one entry per tab
        #expect(try store.format(browser, names) == "| [ 0 c* ] d")
        let entries = try closed(store).entries()
        #expect(entries.count == 2)
        for entry in entries.reversed() { try closed(store).restore(entry.id) }
        #expect(try store.format(browser, names) == "a | [ 0 b* c ] d")
    }

    @Test func closedGroup_isOneEntry_andReturnsAsAGroup() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed(
            "| a [ 0 b c ] d*", groups: ["0": TabGroupVisualData(title: "Trip", color: .pink)])
        try store.tabs.closeGroup(names.groupID("0"), in: browser)
        #expect(try store.format(browser, names) == "| a d*")
        let entry = try #require(try closed(store).entries().first)
        #expect(entry.kind == .group)
        #expect(entry.tabs.map(\.id) == [names.webStateID("b"), names.webStateID("c")])
        #expect(entry.group?.visualData == TabGroupVisualData(title: "Trip", color: .pink))
        try closed(store).restore(entry.id)
        #expect(try store.format(browser, names) == "| a [ 0 b* c ] d")
        #expect(try store.tabs.webStateList(in: browser).orderedGroups.first?.visualData.title == "Trip")
    }

    @Test func closedWindow_returnsWithAllItsTabsAndActiveTab() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("a | [ 0 b ] c* d")
        try store.browsers.closeBrowser(browser)
        #expect(try store.browsers.browsers().isEmpty)
        #expect(try SessionStoreFile.status(atPath: store.path!).counts?.tabs == 0)
        try store.reopen()
        let entry = try #require(try closed(store).entries().first)
        #expect(entry.kind == .window)
        #expect(entry.tabs.count == 4)
        #expect(try closed(store).restore(entry.id) == browser)
        #expect(try store.format(browser, names) == "a | [ 0 b ] c* d")
        #expect(try store.browsers.browsers().map(\.id) == [browser])
    }

    @Test func tabOfAClosedBrowser_returnsInANewBrowser() throws {
        let store = try TemporaryStore.inMemory()
        let (browser, names) = try store.seed("| a b*")
        try store.tabs.close(in: browser, at: 0)
        let entry = try #require(try closed(store).entries().first)
        try store.browsers.closeBrowser(browser)
        try closed(store).forget(try #require(try closed(store).entries().first { $0.kind == .window }).id)
        let target = try closed(store).restore(entry.id)
        #expect(target != browser)
        #expect(try store.format(target, names) == "| a*")
    }

    @Test func cap_keepsTheNewestEntries_andLifetimeExpiresOldOnes() throws {
        var configuration = SessionDatabase.Configuration()
        configuration.maximumClosedEntries = 3
        let store = try TemporaryStore.onDisk(configuration: configuration)
        let (browser, names) = try store.seed("| a b c d e*")
        for _ in 0..<4 { try store.tabs.close(in: browser, at: 0) }
        let entries = try closed(store).entries()
        #expect(entries.map { $0.tabs.first?.id } == ["d", "c", "b"].map { names.webStateID($0) })
        // The oldest entry's tab went with it, history and all.
        #expect(try PlainSQLite.strings("SELECT count(*) FROM tabs", atPath: store.path!) == ["4"])
        try PlainSQLite.execute("UPDATE closed_entries SET closed_at = '2000-01-01 00:00:00.000'", atPath: store.path!)
        try store.reopen()
        try store.tabs.close(in: browser, at: 0)
        #expect(try closed(store).entries().count == 1)
        try closed(store).forgetAll()
        #expect(try closed(store).entries().isEmpty)
        #expect(throws: StorageError.unknownClosedEntry(entries[0].id.uuidString)) {
            try closed(store).restore(entries[0].id)
        }
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
    }

    @Test func observe_seesClosingAndRestoring() throws {
        let store = try TemporaryStore.inMemory()
        let (browser, _) = try store.seed("| a* b")
        let recorder = ValueRecorder<Int>()
        let observation = closed(store).observe { recorder.record((try? $0.get())?.count ?? -1) }
        defer { observation.cancel() }
        #expect(recorder.wait { $0 == [0] })
        try store.tabs.close(in: browser, at: 0)
        #expect(recorder.wait { $0.last == 1 })
        try closed(store).restore(try #require(try closed(store).entries().first).id)
        #expect(recorder.wait { $0 == [0, 1, 0] })
    }
}
