import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage
import GRDB

/// Split views in the store (migration 0008): written from a change's split sets, read back
/// whole, and a split an older binary broke left out on load and reported by `check`.
@Suite struct TabSplitStorageTests {
    @Test(arguments: TemporaryStore.Kind.allCases)
    func split_survivesReopenWithItsVisualData(_ kind: TemporaryStore.Kind) throws {
        let store = try kind.make()
        let browser = try store.browsers.createBrowser().id
        let (initial, names) = try WebStateListNotation.parse("| a b c d*")
        try store.tabs.update(browser) { $0 = initial }
        let visualData = TabSplitVisualData(ratio: 0.3, layout: .horizontal)
        try store.tabs.update(browser) { _ = try $0.createSplit(at: [0, 2], visualData: visualData, id: names.splitID("0")) }
        try store.reopen()
        var list = try store.tabs.webStateList(in: browser)
        #expect(names.format(list) == "| { 0 a c } b d*")
        #expect(list.splits[names.splitID("0")]?.visualData == visualData)

        // Moving the split, updating it and ending it all reach the file.
        try store.tabs.update(browser) { _ = try $0.move(from: 1, to: 3) }
        try store.tabs.update(browser) {
            _ = try $0.updateSplit(names.splitID("0"), visualData: TabSplitVisualData(ratio: 0.6))
        }
        try store.reopen()
        list = try store.tabs.webStateList(in: browser)
        #expect(names.format(list) == "| b d* { 0 a c }")
        #expect(list.splits[names.splitID("0")]?.visualData.ratio == 0.6)
        try store.tabs.update(browser) { _ = try $0.remove(at: 3) }
        try store.reopen()
        list = try store.tabs.webStateList(in: browser)
        #expect(list.splits.isEmpty)
        let rows = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM tab_splits") }
        #expect(rows == 0)
    }

    @Test func replacedTab_keepsItsPlaceInTheSplit() throws {
        let store = try TemporaryStore.onDisk()
        let browser = try store.browsers.createBrowser().id
        let (initial, names) = try WebStateListNotation.parse("| { 0 a b } c")
        try store.tabs.update(browser) { $0 = initial }
        try store.tabs.update(browser) { _ = try $0.replace(at: 1, with: names.webState("X")) }
        try store.reopen()
        #expect(names.format(try store.tabs.webStateList(in: browser)) == "| { 0 a X } c")
    }

    @Test func splitBrokenByAnOlderWriter_loadsAsSingleTabs_andCheckReportsIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let (initial, names) = try WebStateListNotation.parse("| { 0 a b } c")
        let browser: BrowserID
        do {
            let database = try SessionDatabase.open(atPath: path)
            browser = try SQLiteBrowserRepository(database: database).createBrowser().id
            try SQLiteWebStateListRepository(database: database).update(browser) { $0 = initial }
            try database.close()
        }
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
        // An older binary moves c between a and b: it knows nothing of splits.
        let (a, b, c) = (names.webStateID("a"), names.webStateID("b"), names.webStateID("c"))
        try PlainSQLite.execute("""
            UPDATE tabs SET sort_key = (SELECT (max(sort_key) + min(sort_key)) / 2 FROM tabs
                WHERE id IN ('\(a)', '\(b)')) WHERE id = '\(c)'
            """, atPath: path)

        let problems = try SessionStoreFile.check(atPath: path)
        #expect(problems.map(\.message) == [WebStateListViolation.splitNotWhole(names.splitID("0")).description])
        let database = try SessionDatabase.open(atPath: path)
        let list = try SQLiteWebStateListRepository(database: database).webStateList(in: browser)
        #expect(names.format(list) == "| a c b")
        #expect(list.splits.isEmpty)
        try database.close()
    }
}
