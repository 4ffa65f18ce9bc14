import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Off-the-record browsers use the same repositories over an in-memory store:
/// nothing of them reaches the file, its WAL or its shared-memory file.
@Suite struct OffTheRecordTests {
    @Test func offTheRecordBrowsing_leavesNoTraceOnDisk() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let disk = try SessionDatabase.open(atPath: path)
        let memory = try SessionDatabase.inMemory()
        let marker = "offtherecord-marker-\(UUID().uuidString)"

        let normal = try SQLiteBrowserRepository(database: disk).createBrowser()
        try SQLiteWebStateListRepository(database: disk).insert(in: normal.id, params: .automatic())
        let privateBrowser = try SQLiteBrowserRepository(database: memory).createBrowser()
        #expect(privateBrowser.isOffTheRecord)
        let tabs = SQLiteWebStateListRepository(database: memory)
        let histories = SQLiteNavigationHistoryRepository(database: memory)
        let tab = WebState()
        try tabs.insert(tab, in: privateBrowser.id, params: .automatic().activate())
        try histories.commit(NavigationItem(url: "https://\(marker).example/", title: marker), in: tab.id)
        _ = try histories.setEngineState(Data(marker.utf8), for: tab.id)
        try tabs.insert(in: privateBrowser.id, params: .automatic())
        try tabs.close(in: privateBrowser.id, at: 0)  // a closed entry, in memory too
        #expect(try SQLiteRecentlyClosedRepository(database: memory).entries().count == 1)
        try SQLiteBrowserRepository(database: memory).closeBrowser(privateBrowser.id)
        try disk.close()

        for file in try filesBelow(directory.path) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file(file)))
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(file) holds the marker")
        }
        #expect(try SessionStoreFile.status(atPath: path).counts?.browsers == 1)
    }

    @Test func secureDelete_clearedHistoryLeavesNoTraceAfterCheckpoint() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let database = try SessionDatabase.open(atPath: path)
        let marker = "cleared-marker-\(UUID().uuidString)"
        let browser = try SQLiteBrowserRepository(database: database).createBrowser()
        let tab = WebState()
        try SQLiteWebStateListRepository(database: database).insert(tab, in: browser.id, params: .automatic())
        let histories = SQLiteNavigationHistoryRepository(database: database)
        try histories.commit(NavigationItem(url: "https://\(marker).example/", title: marker), in: tab.id)
        try histories.commit(NavigationItem(url: "https://kept.example/", title: "kept"), in: tab.id)
        #expect(try histories.clearBrowsingData(.host("\(marker).example")) == 1)
        try database.close()
        for file in try filesBelow(directory.path) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file(file)))
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(file) holds the cleared marker")
        }
    }
}
