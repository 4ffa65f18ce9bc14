import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

@Suite struct SQLiteBrowserRepositoryTests {
    @Test(arguments: TemporaryStore.Kind.allCases)
    func browsers_areListedMostRecentlyActiveFirst_andSurviveReopening(kind: TemporaryStore.Kind) throws {
        let store = try kind.make()
        let first = try store.browsers.createBrowser()
        let second = try store.browsers.createBrowser()
        #expect(first.isOffTheRecord == (kind == .inMemory))
        try store.browsers.markActive(first.id)
        #expect(try store.browsers.browsers().map(\.id) == [first.id, second.id])
        try store.browsers.markActive(second.id)
        try store.reopen()
        #expect(try store.browsers.browsers().map(\.id) == [second.id, first.id])
        #expect(try store.browsers.browser(first.id)?.createdAt == first.createdAt.storedPrecision)
    }

    @Test func closeBrowser_removesItAndItsTabs() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("a | [ 0 b* ] c")
        let (other, names) = try store.seed("| x*", scope: 1)
        try store.browsers.closeBrowser(browser)
        #expect(try store.browsers.browsers().map(\.id) == [other])
        #expect(throws: StorageError.unknownBrowser(browser.uuidString)) { try store.tabs.webStateList(in: browser) }
        #expect(try store.format(other, names) == "| x*")
        let status = try SessionStoreFile.status(atPath: store.path!)
        #expect(status.counts?.tabs == 1)
        #expect(status.counts?.groups == 0)
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
    }

    @Test func closingABrowserWithNoTabs_removesIt_andRecordsNoClosedWindow() throws {
        let store = try TemporaryStore.onDisk()
        let empty = try store.browsers.createBrowser().id
        let (kept, _) = try store.seed("| x*", scope: 1)
        try store.browsers.closeBrowser(empty)
        #expect(try store.browsers.browsers().map(\.id) == [kept])
        #expect(try store.browsers.browser(empty) == nil)
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().isEmpty)
        #expect(throws: StorageError.unknownBrowser(empty.uuidString)) { try store.browsers.closeBrowser(empty) }
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
    }

    @Test func unknownBrowser_isATypedError() throws {
        let store = try TemporaryStore.inMemory()
        let stranger = BrowserID()
        #expect(try store.browsers.browser(stranger) == nil)
        #expect(throws: StorageError.unknownBrowser(stranger.uuidString)) { try store.browsers.markActive(stranger) }
        #expect(throws: StorageError.unknownBrowser(stranger.uuidString)) { try store.browsers.closeBrowser(stranger) }
    }

    /// A browser's native host tags the windows it keeps; the app's own have no source. A
    /// window closed into recently closed keeps its source; one deleted takes it along.
    @Test(arguments: TemporaryStore.Kind.allCases)
    func sources_tagTheWindowsABrowserKeeps_andGoWithThem(kind: TemporaryStore.Kind) throws {
        let store = try kind.make()
        let own = try store.browsers.createBrowser()
        let chromium = try store.browsers.createBrowser(source: .chromium)
        let (firefox, _) = try store.seed("| a*")
        try store.browsers.setSource(.firefox, of: firefox)
        let empty = try store.browsers.createBrowser(source: .chromium)
        #expect(try store.browsers.sources() == [chromium.id: .chromium, firefox: .firefox, empty.id: .chromium])
        #expect(try store.browsers.browsers().map(\.id).contains(own.id))
        try store.browsers.closeBrowser(firefox)
        try store.browsers.closeBrowser(empty.id)
        try store.reopen()
        #expect(try store.browsers.sources() == [chromium.id: .chromium, firefox: .firefox])
        try store.browsers.setSource(nil, of: chromium.id)
        #expect(try store.browsers.sources() == [firefox: .firefox])
        let stranger = BrowserID()
        #expect(throws: StorageError.unknownBrowser(stranger.uuidString)) { try store.browsers.setSource(.chromium, of: stranger) }
        #expect(BrowserSource(rawValue: "") == nil && BrowserSource(rawValue: String(repeating: "x", count: 65)) == nil)
        #expect(BrowserSource(rawValue: "bad\u{0}name") == nil && BrowserSource(rawValue: "chrome-beta")?.rawValue == "chrome-beta")
        if let path = store.path {
            try store.database.close()
            #expect(try SessionStoreFile.check(atPath: path) == [])
        }
    }
}
