import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// A tab's identifier names one row: inserting a tab the store already has,
/// open in another browser or held by a recently closed entry, is refused and
/// changes nothing (moving and restoring take rows on purpose, by their own calls).
@Suite struct TabIdentityTests {
    @Test(arguments: TemporaryStore.Kind.allCases)
    func insert_tabOpenInAnotherBrowser_isRefused_andChangesNothing(kind: TemporaryStore.Kind) throws {
        let store = try kind.make()
        let (first, names) = try store.seed("| a* b", openers: ["b": "a"])
        let (second, others) = try store.seed("| c*", scope: 1)
        let a = try store.tabs.webStateList(in: first).webStates[0]
        #expect(throws: WebStateListError.duplicateWebState(a.id)) {
            try store.tabs.insert(a, in: second, params: .automatic())
        }
        #expect(throws: WebStateListError.duplicateWebState(a.id)) {
            try store.tabs.insert(a, in: second, params: .automatic().withOpener(others.webStateID("c")))
        }
        try store.reopen()
        #expect(try store.format(first, names) == "| a* b")
        #expect(try store.tabs.webStateList(in: second).count == 1)
        if let path = store.path { #expect(try SessionStoreFile.check(atPath: path).isEmpty) }
    }

    @Test func insert_closedTab_isRefused_andItsEntryStaysRestorable() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* b")
        let b = try store.tabs.webStateList(in: browser).webStates[1]
        try store.tabs.close(in: browser, at: 1)
        let recentlyClosed = SQLiteRecentlyClosedRepository(database: store.database)
        let entry = try #require(try recentlyClosed.entries().first)
        #expect(throws: WebStateListError.duplicateWebState(b.id)) {
            try store.tabs.insert(b, in: browser, params: .automatic())
        }
        #expect(try recentlyClosed.entries().first?.tabs.count == 1)
        try recentlyClosed.restore(entry.id)
        #expect(try store.format(browser, names) == "| a b*")
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
    }
}
