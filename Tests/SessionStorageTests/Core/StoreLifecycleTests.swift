import Dispatch
import Foundation
import GRDB
import SessionModel
@testable import SessionStorage
import SessionTestSupport
import Testing

/// Closing, errors an app can show, and the opener recorded at its current index.
@Suite struct StoreLifecycleTests {
    @Test(arguments: TemporaryStore.Kind.allCases)
    func close_twiceIsHarmless_andEveryLaterCallThrowsClosed(kind: TemporaryStore.Kind) async throws {
        let store = try kind.make()
        let (browser, _) = try store.seed("| a*")
        try await store.database.close()
        try await store.database.close()
        #expect(store.database.isClosed)
        let closed = StorageError.closed(path: store.path ?? ":memory:")
        #expect(throws: closed) { try synchronously { try store.tabs.webStateList(in: browser) } }
        #expect(throws: closed) { try synchronously { try store.tabs.activate(in: browser, at: 0) } }
        await #expect(throws: closed) { try await store.tabs.activate(in: browser, at: 0) }
        await #expect(throws: closed) { try await store.browsers.createBrowser() }
        #expect(throws: closed) { try store.database.compact() }
        #expect(closed.localizedDescription.contains("was closed"))
    }

    @Test func close_afterAsyncWritesWereHandedOver_keepsThem() async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a*")
        let tabs = store.tabs
        let writes = (0..<20).map { _ in Task { try await tabs.insert(in: browser, params: .automatic()) } }
        for write in writes { _ = try await write.value }
        try await store.database.close()
        let reopened = try await SessionDatabase.open(atPath: try #require(store.path))
        await #expect(try SQLiteWebStateListRepository(database: reopened).webStateList(in: browser).count == 21)
        try await reopened.close()
    }

    /// A clean close leaves a one-frame WAL, so the next open writes nothing: not the
    /// file, not the WAL (GRDB writes a schema change when it opens a pool on an empty WAL).
    @Test func open_afterAClose_writesNothing() throws {
        let store = try TemporaryStore.onDisk()
        let path = try #require(store.path)
        let (browser, _) = try store.seed("| a* b")
        try store.database.close()
        let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        #expect(wal == 32 + 24 + 4096)  // the WAL header and one frame
        let before = (fileBytes(path), fileBytes(path + "-wal"))
        let reopened = try SessionDatabase.open(atPath: path, configuration: store.database.configuration)
        #expect(fileBytes(path) == before.0 && fileBytes(path + "-wal") == before.1)
        #expect(try SQLiteWebStateListRepository(database: reopened).webStateList(in: browser).count == 2)
        try reopened.close()
    }

    /// `synchronous = .full` is what the writer runs with: GRDB sets NORMAL when it
    /// opens a pool, after the store's own settings.
    @Test(arguments: [SessionDatabase.Configuration.Synchronous.normal, .full])
    func open_writerRunsWithTheConfiguredSynchronous(synchronous: SessionDatabase.Configuration.Synchronous) throws {
        try TemporaryDirectory.with { dir in
            var configuration = SessionDatabase.Configuration()
            configuration.synchronous = synchronous
            for _ in 0..<2 {  // creating the file, then opening it again
                let database = try SessionDatabase.open(atPath: dir.file("s.sqlite"), configuration: configuration)
                let value = try database.writer.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
                #expect(value == (synchronous == .full ? 2 : 1))
                try database.close()
            }
        }
    }

    @Test func open_inAMissingDirectory_saysSo_andCreatesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("missing/store.sqlite")
        #expect(throws: StorageError.directoryNotFound(path: path)) { try SessionDatabase.open(atPath: path) }
        #expect(!FileManager.default.fileExists(atPath: directory.file("missing")))
        let message = StorageError.directoryNotFound(path: path).localizedDescription
        #expect(message.contains("does not exist"))
        #expect(!message.contains("permission"))
    }

    /// Every error an app can meet reads as its one-line message, not "The operation could not be completed".
    @Test func errors_areLocalized_withTheirOneLineMessage() {
        let errors: [any Error] = [
            StorageError.busy(path: "/x.sqlite"),
            WebStateListError.indexOutOfRange(index: 1, count: 1),
            NavigationHistoryError.cannotGoBack,
        ]
        for error in errors {
            #expect(error.localizedDescription == String(describing: error))
            #expect(!error.localizedDescription.contains("could not be completed"))
        }
    }

    /// `withOpener(tabID)` records the opener's current history index, as Chromium's
    /// `WebStateOpener(opener)` does: children count for placement until the opener navigates.
    @Test func insert_withOpenerTab_recordsItsCurrentIndex_soChildrenCountUntilItNavigates() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, names) = try store.seed("| a* b")
        let a = names.webStateID("a")
        for page in ["one", "two", "three"] {
            try await store.histories.commit(NavigationItem(url: "https://a.example/\(page)"), in: a)
        }
        let x = WebState()
        let y = WebState()
        let z = WebState()
        try await store.tabs.insert(x, in: browser, params: .automatic().withOpener(a))
        #expect(try await store.tabs.webStateList(in: browser).webStates[1].opener
            == WebStateOpener(openerID: a, navigationIndex: 2))
        try await store.tabs.insert(y, in: browser, params: .automatic().withOpener(a))
        #expect(try await store.tabs.webStateList(in: browser).webStates.map(\.id) == [a, x.id, y.id, names.webStateID("b")])
        // The opener navigates away: its earlier children no longer count.
        try await store.histories.commit(NavigationItem(url: "https://a.example/four"), in: a)
        try await store.tabs.insert(z, in: browser, params: .automatic().withOpener(a))
        #expect(try await store.tabs.webStateList(in: browser).webStates.map(\.id)
            == [a, z.id, x.id, y.id, names.webStateID("b")])
    }

    @Test func insert_withUnknownOpenerTab_throws_andWritesNothing() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, _) = try store.seed("| a*")
        let stranger = WebStateID()
        await #expect(throws: WebStateListError.unknownWebState(stranger)) {
            try await store.tabs.insert(in: browser, params: .automatic().withOpener(stranger))
        }
        #expect(try await store.tabs.webStateList(in: browser).count == 1)
    }
}

/// `readingConsistently`: every read inside sees one state of the store.
@Suite struct ConsistentReadTests {
    @Test func readsInside_seeOneState_whileAnotherConnectionCommits() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a* b")
        let path = try #require(store.path)
        let reader = try SessionDatabase.openReadOnly(atPath: path)
        defer { try? reader.close() }
        let browsers = SQLiteBrowserRepository(database: reader)
        let tabs = SQLiteWebStateListRepository(database: reader)
        let count = try reader.readingConsistently {
            let listed = try browsers.browsers().map(\.id)
            // Another connection, on another thread, closes the window between two reads.
            let writer = store.browsers
            let done = DispatchSemaphore(value: 0)
            let closed = Protected(false)
            Thread.detachNewThread {
                closed.withLock { $0 = (try? writer.closeBrowser(browser)) != nil }
                done.signal()
            }
            done.wait()
            #expect(closed.withLock { $0 })
            return try listed.map { try tabs.webStateList(in: $0).count }.reduce(0, +)
        }
        #expect(count == 2)
        #expect(try browsers.browsers().isEmpty)
        #expect(throws: WebStateListError.reentrantMutation) {
            try store.database.readingConsistently { try store.tabs.activate(in: browser, at: 0) }
        }
    }
}
