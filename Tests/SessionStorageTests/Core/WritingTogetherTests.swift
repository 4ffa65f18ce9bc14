import Foundation
import SessionModel
@testable import SessionStorage
import SessionTestSupport
import Testing

/// `writingTogether`: several repository calls in one transaction, as the browser
/// mirror writes one browser event (a tab moved to another window, both lists arranged).
@Suite struct WritingTogetherTests {
    @Test func theCallsCommitTogether_andTheReadsInsideSeeTheWritesBeforeThem() throws {
        let store = try TemporaryStore.onDisk()
        let (first, notation) = try store.seed("| a* b")
        let second = try store.browsers.createBrowser().id
        let b = notation.webStateID("b")
        try store.database.writingTogether {
            try store.tabs.moveWebState(b, to: second, params: .atIndex(0))
            // The move is seen inside, before the commit.
            #expect(try store.tabs.webStateList(in: second).webStates.map(\.id) == [b])
            try store.tabs.activate(in: second, at: 0)
            try store.histories.commit(NavigationItem(url: "https://example.org/"), in: b)
        }
        #expect(try store.format(first, notation) == "| a*")
        #expect(try store.tabs.webStateList(in: second).activeIndex == 0)
        // Another connection (another process, as far as SQLite knows) sees all of it.
        let other = try SessionDatabase.openReadOnly(atPath: try #require(store.path))
        defer { try? other.close() }
        #expect(try SQLiteWebStateListRepository(database: other).webStateList(in: second).webStates.map(\.id) == [b])
        #expect(try SQLiteNavigationHistoryRepository(database: other).history(of: b).items.map(\.url) == ["https://example.org/"])
    }

    @Test func aThrowRollsBackEveryCall_andTheCachesForgetThem() throws {
        struct Refused: Error {}
        let store = try TemporaryStore.onDisk()
        let (first, notation) = try store.seed("| a* b c")
        #expect(throws: Refused.self) {
            try store.database.writingTogether {
                try store.tabs.close(in: first, at: 2)
                try store.tabs.move(in: first, from: 0, to: 1)
                throw Refused()
            }
        }
        #expect(try store.format(first, notation) == "| a* b c")
        try store.reopen()
        #expect(try store.format(first, notation) == "| a* b c")
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().isEmpty)
    }

    @Test func aMutationInsideAListClosure_isStillRefused() throws {
        let store = try TemporaryStore.onDisk()
        let (first, notation) = try store.seed("| a* b")
        #expect(throws: WebStateListError.reentrantMutation) {
            try store.database.writingTogether {
                try store.tabs.update(first) { _ in try store.tabs.activate(in: first, at: 1) }
            }
        }
        #expect(try store.format(first, notation) == "| a* b")
    }
}
