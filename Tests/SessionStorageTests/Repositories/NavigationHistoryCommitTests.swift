import Foundation
import GRDB
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// `commit(_:in:)` writes without reading the history back: it must leave the
/// same history, derived rows and list as the same commit made through `update`.
@Suite struct NavigationHistoryCommitTests {
    private static func item(_ name: String, _ seconds: Double) -> NavigationItem {
        NavigationItem(
            url: "https://\(name).example/", title: name.uppercased(),
            timestamp: Date(timeIntervalSince1970: 1_800_000_000.0004 + seconds),
            pageState: name == "c" ? Data([1, 2]) : nil)
    }

    /// The steps, each a commit or a move back: run through `commit`, then through `update`.
    private static let steps = ["a", "b", "c", "<", "<", "d", "e", "f", "g", "<", "h", "i"]

    @Test func commit_leavesWhatTheSameEditThroughUpdateLeaves() throws {
        var configuration = SessionDatabase.Configuration()
        configuration.maximumNavigationEntries = 4
        let direct = try TemporaryStore.onDisk(configuration: configuration)
        let edited = try TemporaryStore.onDisk(configuration: configuration)
        var results: [[String]] = []
        for (store, throughUpdate) in [(direct, false), (edited, true)] {
            let (browser, names) = try store.seed("| a* b")
            let tab = names.webStateID("b")
            var model = NavigationHistory()
            var changes: [String] = []
            for (offset, step) in Self.steps.enumerated() {
                if step == "<" {
                    try store.histories.goBack(in: tab)
                    _ = try model.goBack()
                    continue
                }
                let item = Self.item(step, Double(offset))
                let change = throughUpdate
                    ? try store.histories.update(tab) { history in
                        NavigationHistoryChange.committing(
                            count: history.count, currentIndex: history.currentIndex, maximum: 4)
                    }
                    : try store.histories.commit(item, in: tab)
                if throughUpdate { try store.histories.update(tab) { _ = try $0.commit(item) } }
                let expected = NavigationHistoryChange.committing(
                    count: model.count, currentIndex: model.currentIndex, maximum: 4)
                #expect(change == expected)
                _ = try model.commit(item)
                if model.count > 4 { _ = try model.trim(toAtMost: 4) }
                changes.append("\(change.removedIndexes) \(change.insertedIndexes) \(change.currentIndex ?? -1)")
                // The cached list follows the tab's index, as a list read anew does.
                let listed = try store.tabs.webStateList(in: browser).webStates.first { $0.id == tab }
                #expect(listed?.navigationIndex == model.currentIndex)
            }
            let history = try store.histories.history(of: tab)
            #expect(history.items.map(\.url) == model.items.map(\.url))
            #expect(history.currentIndex == model.currentIndex)
            #expect(history.items.map(\.pageState) == model.items.map(\.pageState))
            #expect(history.items.map(\.timestamp) == model.items.map(\.timestamp.storedPrecision))
            try store.reopen()
            #expect(try store.histories.history(of: tab) == history)
            #expect(try SessionStoreFile.check(atPath: store.path!) == [])
            results.append(changes)
            results.append(try store.database.writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT t.history_start, t.current_entry_index, p.title, p.url, s.title, s.url,
                        (SELECT count(*) FROM tab_search WHERE tab_search MATCH s.title)
                    FROM tabs AS t JOIN tab_pages AS p ON p.tab_id = t.id JOIN tab_search_pages AS s ON s.tab_id = t.id
                    ORDER BY t.sort_key
                    """).map(\.description)
            })
        }
        #expect(results[0] == results[2])
        #expect(results[1] == results[3])
    }

    @Test func commit_toAHistoryWhoseRowsBreakTheRules_reportsTheDamage() throws {
        let store = try TemporaryStore.onDisk()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        try store.histories.commit(Self.item("a", 0), in: tab)
        try store.database.writer.writeWithoutTransaction {
            try $0.execute(sql: "UPDATE tabs SET current_entry_index = 3 WHERE id = ?", arguments: [tab.uuidString])
        }
        #expect {
            try store.histories.commit(Self.item("b", 1), in: tab)
        } throws: { error in
            if case .corrupt = error as? StorageError { return true }
            return false
        }
    }

    @Test func commit_inAnUnknownTab_throwsUnknownTabBeforeCheckingTheEntry() throws {
        let store = try TemporaryStore.inMemory()
        let tab = WebStateID()
        #expect(throws: StorageError.unknownTab(tab.uuidString)) {
            try store.histories.commit(NavigationItem(url: ""), in: tab)
        }
    }

    @Test func storedPrecision_isWhatTheStoredTextReadsBackAs() {
        for seconds in [0, 1_800_000_000.0004, 1_800_000_000.9996, -1.0005, 253_402_300_799.999, -62_135_596_800.5, 1e15] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(date.storedPrecision == (StoredTime.date(StoredTime.text(date)) ?? date), "\(seconds)")
        }
    }
}
