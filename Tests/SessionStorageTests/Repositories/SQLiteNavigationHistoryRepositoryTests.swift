import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

@Suite struct SQLiteNavigationHistoryRepositoryTests {
    static func item(_ name: String, _ seconds: Double = 0) -> NavigationItem {
        NavigationItem(
            url: "https://\(name).example/", title: name.uppercased(),
            timestamp: Date(timeIntervalSince1970: 1_800_000_000 + seconds))
    }

    /// The history as "a b* c": entries by host name, the current one starred.
    static func describe(_ history: NavigationHistory) -> String {
        history.items.enumerated().map { index, item in
            let name = URLComponents(string: item.url)?.host?.components(separatedBy: ".").first ?? "?"
            return index == history.currentIndex ? name + "*" : name
        }.joined(separator: " ")
    }

    private func rowsWritten(_ store: TemporaryStore, _ body: () throws -> Void) throws -> Int {
        let before = store.database.writer.writeWithoutTransaction { $0.totalChangesCount }
        try body()
        return store.database.writer.writeWithoutTransaction { $0.totalChangesCount } - before
    }

    @Test(arguments: TemporaryStore.Kind.allCases)
    func navigate_commitBackForwardReplace_persistAcrossReopening(kind: TemporaryStore.Kind) throws {
        let store = try kind.make()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        try store.histories.commit(Self.item("a"), in: tab)
        try store.histories.commit(Self.item("b"), in: tab)
        try store.histories.commit(Self.item("c"), in: tab)
        try store.histories.goBack(in: tab)
        try store.histories.goBack(in: tab)
        #expect(Self.describe(try store.histories.history(of: tab)) == "a* b c")
        try store.histories.goForward(in: tab)
        try store.histories.commit(Self.item("d"), in: tab)  // drops c
        #expect(Self.describe(try store.histories.history(of: tab)) == "a b d*")
        try store.histories.replaceCurrent(with: Self.item("e"), in: tab)
        try store.histories.updateItem(at: 0, in: tab, title: "First", faviconURL: "https://a.example/icon.png")
        try store.reopen()
        let history = try store.histories.history(of: tab)
        #expect(Self.describe(history) == "a b e*")
        #expect(history.items[0].title == "First")
        #expect(history.items[0].faviconURL == "https://a.example/icon.png")
        #expect(throws: NavigationHistoryError.cannotGoForward) { try store.histories.goForward(in: tab) }
        #expect(try store.tabs.webStateList(in: try #require(store.browsers.browsers().first?.id)).webStates[0].navigationIndex == 2)
        if let path = store.path { #expect(try SessionStoreFile.check(atPath: path) == []) }
    }

    @Test func everyField_roundTrips_includingPageState() throws {
        let store = try TemporaryStore.onDisk()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        let item = NavigationItem(
            url: "https://example.org/form?q=1", virtualURL: "example.org/form", title: "Form",
            referrerURL: "https://ref.example/", referrerPolicy: .strictOriginWhenCrossOrigin, transition: .formSubmit,
            timestamp: Date(timeIntervalSince1970: 1_800_000_000.123), httpStatus: 201, isPost: true,
            faviconURL: "https://example.org/favicon.ico", userAgentType: .desktop, pageState: Data([0, 1, 2, 255]))
        try store.histories.commit(item, in: tab)
        try store.reopen()
        var expected = item
        expected.timestamp = item.timestamp.storedPrecision  // milliseconds, as the file keeps them
        #expect(try store.histories.history(of: tab).items == [expected])
        #expect(abs(expected.timestamp.timeIntervalSince(item.timestamp)) < 0.001)
    }

    @Test func cap_trimsTheFarthestEntries_writingAFewRowsPerNavigation() throws {
        var configuration = SessionDatabase.Configuration()
        configuration.maximumNavigationEntries = 5
        let store = try TemporaryStore.onDisk(configuration: configuration)
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        for (offset, name) in ["a", "b", "c", "d", "e"].enumerated() {
            try store.histories.commit(Self.item(name, Double(offset)), in: tab)
        }
        let written = try rowsWritten(store) { try store.histories.commit(Self.item("f", 9), in: tab) }
        #expect(Self.describe(try store.histories.history(of: tab)) == "b c d e f*")
        // Delete a, insert f, tab, browser; then the search index follows the new page (its
        // content row, and an FTS5 delete and insert with the shadow-table rows SQLite counts),
        // and so does `tab_pages`: its row, and the browser's revision once more.
        #expect(written <= 14, "rows written for one navigation at the cap: \(written)")
        try store.histories.go(to: 0, in: tab)
        try store.histories.update(tab) { history in
            try history.commit(Self.item("g", 10))
            try history.goBack()
        }
        #expect(Self.describe(try store.histories.history(of: tab)) == "b* g")
        try store.reopen()
        #expect(Self.describe(try store.histories.history(of: tab)) == "b* g")
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
    }

    @Test func longTitle_isTruncated_andOverlongURL_isRejectedWithoutWriting() throws {
        let store = try TemporaryStore.inMemory()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        try store.histories.commit(NavigationItem(url: "https://a.example/", title: String(repeating: "t", count: 600)), in: tab)
        #expect(try store.histories.history(of: tab).items[0].title.count == NavigationLimits.maximumTitleLength)
        let long = "https://a.example/" + String(repeating: "x", count: NavigationLimits.maximumURLLength)
        #expect(throws: NavigationHistoryError.self) { try store.histories.commit(NavigationItem(url: long), in: tab) }
        #expect(try store.histories.history(of: tab).count == 1)
    }

    @Test func engineState_isStored_andAnOversizedBlobIsDroppedNotTruncated() throws {
        var configuration = SessionDatabase.Configuration()
        configuration.maximumEngineStateBytes = 1_000
        let store = try TemporaryStore.onDisk(configuration: configuration)
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        #expect(try store.histories.setEngineState(Data(repeating: 7, count: 1_000), for: tab) == .stored)
        try store.reopen()
        #expect(try store.histories.engineState(of: tab) == Data(repeating: 7, count: 1_000))
        #expect(try store.histories.setEngineState(Data(repeating: 8, count: 1_001), for: tab)
            == .droppedTooLarge(bytes: 1_001, limit: 1_000))
        #expect(try store.histories.engineState(of: tab) == nil)
        #expect(throws: StorageError.unknownTab(WebStateID(rawValue: UUID(uuid: (0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1))).uuidString)) {
            try store.histories.setEngineState(Data(), for: WebStateID(rawValue: UUID(uuid: (0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1))))
        }
    }

    /// <doc:TabListRules>, Insertion, step 4: once the opener commits a new
    /// navigation, its earlier children no longer count for placement.
    @Test func openerNavigatingAway_earlierChildrenNoLongerCountForPlacement() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* b")
        let opener = names.webStateID("a")
        try store.histories.commit(Self.item("one"), in: opener)
        let navigation = { try store.tabs.webStateList(in: browser).webStates[0].navigationIndex }
        try store.tabs.insert(names.webState("c"), in: browser, params: .automatic().withOpener(
            WebStateOpener(openerID: opener, navigationIndex: try navigation())))
        try store.tabs.insert(names.webState("d"), in: browser, params: .automatic().withOpener(
            WebStateOpener(openerID: opener, navigationIndex: try navigation())))
        #expect(try store.format(browser, names) == "| a* c d b")
        try store.histories.commit(Self.item("two"), in: opener)
        try store.tabs.insert(names.webState("e"), in: browser, params: .automatic().inheritingOpener())
        #expect(try store.format(browser, names) == "| a* e c d b")
    }

    @Test func clearBrowsingData_byURLHostAndTime_keepsEveryHistoryValid() throws {
        let store = try TemporaryStore.onDisk()
        let (_, names) = try store.seed("| a* b")
        let a = names.webStateID("a")
        let b = names.webStateID("b")
        for (offset, name) in ["x", "y", "x", "z"].enumerated() {
            try store.histories.commit(Self.item(name, Double(offset)), in: a)
        }
        try store.histories.goBack(in: a)  // current: the second x
        try store.histories.commit(Self.item("y", 10), in: b)
        #expect(try store.histories.clearBrowsingData(.url("https://x.example/")) == 2)
        #expect(Self.describe(try store.histories.history(of: a)) == "y* z")
        #expect(try store.histories.clearBrowsingData(.host("Y.example")) == 2)
        #expect(Self.describe(try store.histories.history(of: a)) == "z*")
        #expect(try store.histories.history(of: b).isEmpty)
        let range = Date(timeIntervalSince1970: 1_800_000_000)...Date(timeIntervalSince1970: 1_800_000_005)
        #expect(try store.histories.clearBrowsingData(.timeRange(range)) == 1)
        #expect(try store.histories.history(of: a).currentIndex == nil)
        try store.reopen()
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
        #expect(try PlainSQLite.strings("SELECT count(*) FROM navigation_entries", atPath: store.path!) == ["0"])
    }

    @Test func observe_deliversTheHistoryOnEachChange() throws {
        let store = try TemporaryStore.inMemory()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        let recorder = ValueRecorder<String>()
        let observation = store.histories.observe(tab) { recorder.record((try? $0.get()).map(Self.describe) ?? "error") }
        defer { observation.cancel() }
        #expect(recorder.wait { $0 == [""] })
        try store.histories.commit(Self.item("a"), in: tab)
        try store.histories.commit(Self.item("b"), in: tab)
        try store.histories.goBack(in: tab)
        #expect(recorder.wait { $0.last == "a* b" })
        #expect(Set(recorder.recorded).count == recorder.recorded.count)
    }

    /// A navigation commit starts from the cached history only while it is what the
    /// file holds: another connection's edit, an import and cleared data all count.
    @Test func commit_afterAnEditElsewhere_startsFromTheFile() throws {
        let store = try TemporaryStore.onDisk()
        let path = try #require(store.path)
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        try store.histories.commit(Self.item("one"), in: tab)
        try store.histories.commit(Self.item("two"), in: tab)
        // Another connection renames the first entry: same index, same start, same count.
        try PlainSQLite.execute("UPDATE navigation_entries SET title = 'EDITED' WHERE sequence = 0", atPath: path)
        let seen = try store.histories.update(tab) { history -> String in
            try history.commit(Self.item("three"))
            return history.items[0].title
        }
        #expect(seen == "EDITED")
        #expect(try store.histories.history(of: tab).items.map(\.title) == ["EDITED", "TWO", "THREE"])

        // An import that replaces the content with the same tab, at another history.
        let archive = try store.database.exportArchive()
        try store.histories.commit(Self.item("four"), in: tab)
        try store.database.importArchive(archive, replacing: true)
        try store.histories.commit(Self.item("five"), in: tab)
        #expect(try store.histories.history(of: tab).items.map(\.title) == ["EDITED", "TWO", "THREE", "FIVE"])
        #expect(try SessionStoreFile.check(atPath: path) == [])
    }
}
