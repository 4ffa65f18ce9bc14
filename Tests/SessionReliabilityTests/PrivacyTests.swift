import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// New files are private; cleared data leaves no trace. (Off-the-record browsing is covered by
/// `OffTheRecordTests.offTheRecordBrowsing_leavesNoTraceOnDisk`; clearing open tabs' history by
/// `OffTheRecordTests.secureDelete_clearedHistoryLeavesNoTraceAfterCheckpoint`.)
@Suite struct PrivacyTests {
    private func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test func newStoreWALAndSHM_areOwnerOnly_evenWithAPermissiveUmask() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let previous = umask(0o000)
        defer { umask(previous) }
        let path = directory.file("store.sqlite")
        let database = try SessionDatabase.open(atPath: path)
        _ = try SQLiteBrowserRepository(database: database).createBrowser()
        for suffix in ["", "-wal", "-shm"] {
            #expect(mode(path + suffix) == 0o600, "\(suffix.isEmpty ? "store" : suffix): \(String(mode(path + suffix) ?? 0, radix: 8))")
        }
        try database.close()
        for arguments in [["demo", "--db", directory.file("demo.sqlite")], ["import", "-", "--db", directory.file("imported.sqlite")]] {
            let result = try runTool(arguments, in: directory.path, stdin: CrashWorkload.setUpDocument)
            #expect(result.status == 0, "\(result)")
            #expect(mode(arguments[arguments.count - 1]) == 0o600, "\(arguments[0])")
        }
    }

    @Test func exportOutputFile_isOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        #expect(try runTool(["demo", "--db", path], in: directory.path).status == 0)
        let output = directory.file("export.json")
        let result = try runTool(["export", "--db", path, "--output", output], in: directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(mode(output) == 0o600, "export: \(String(mode(output) ?? 0, radix: 8))")
    }

    @Test func clearingBrowsingData_reachesClosedTabs_andLeavesNoTraceAfterCheckpoint() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let database = try SessionDatabase.open(atPath: path)
        let marker = "closed-marker-\(UUID().uuidString)"
        // One word for the search index (letters only, so it is one token), in the marked title.
        let word = "zzq" + String(UUID().uuidString.lowercased().filter(\.isLetter).prefix(12))
        let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        let closedTab = WebState(), keptTab = WebState()
        try tabs.insert(closedTab, in: browser, params: .automatic())
        try tabs.insert(keptTab, in: browser, params: .automatic().activate())
        try histories.commit(NavigationItem(url: "https://\(marker).example/a", title: "\(marker) \(word)"), in: closedTab.id)
        let search = SQLiteTabSearchRepository(database: database)
        #expect(try search.searchTabs(word, includingClosed: true, limit: 10).map(\.tab) == [closedTab.id])
        try histories.commit(NavigationItem(url: "https://kept.example/", title: "kept"), in: closedTab.id)
        try histories.commit(NavigationItem(url: "https://kept.example/2", title: "kept"), in: keptTab.id)
        try tabs.close(in: browser, at: 0)  // now a recently closed tab holding the marker
        #expect(try SQLiteRecentlyClosedRepository(database: database).entries().count == 1)
        #expect(try histories.clearBrowsingData(.host("\(marker).example")) == 1)
        #expect(try histories.history(of: closedTab.id).items.map(\.url) == ["https://kept.example/"])
        #expect(try search.searchTabs(word, includingClosed: true, limit: 10).isEmpty)
        try database.close()
        for file in try filesBelow(directory.path) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file(file)))
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(file) holds the cleared marker")
            #expect(bytes.range(of: Data(word.utf8)) == nil, "\(file) holds the cleared marker's word (search index)")
        }
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
    }

    /// Forgetting a recently closed tab removes its page's words from the search
    /// index's segments too (an FTS5 delete alone only marks them), so no byte of
    /// the db, the WAL or free pages holds them once the WAL is checkpointed.
    @Test func forgettingAClosedTab_leavesNoWordOfItsPageInTheSearchIndex() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let database = try SessionDatabase.open(atPath: path)
        let word = "zzq" + String(UUID().uuidString.lowercased().filter(\.isLetter).prefix(12))
        let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        let forgotten = WebState()
        try tabs.insert(forgotten, in: browser, params: .automatic())
        try tabs.insert(WebState(), in: browser, params: .automatic().activate())
        try histories.commit(NavigationItem(url: "https://\(word).example/", title: "About \(word)"), in: forgotten.id)
        try tabs.close(in: browser, at: 0)
        let closed = SQLiteRecentlyClosedRepository(database: database)
        try closed.forget(try #require(closed.entries().first).id)
        #expect(try SQLiteTabSearchRepository(database: database).searchTabs(word, includingClosed: true, limit: 10).isEmpty)
        try database.close()
        for file in try filesBelow(directory.path) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file(file)))
            #expect(bytes.range(of: Data(word.utf8)) == nil, "\(file) holds the forgotten page's word")
        }
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
    }
}
