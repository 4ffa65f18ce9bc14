import Foundation
import GRDB
import SessionModel
@testable import SessionStorage
import SessionTestSupport
import Testing

/// `close()` while writes wait for another connection's lock: the calls made
/// before it finish as they would have (`busy` included, never `closed`); the
/// calls made after it began are `closed`; and it returns once the earlier ones are done.
@Suite struct CloseTests {
    /// Another connection inside `BEGIN IMMEDIATE`: it holds the store's write lock until released.
    private final class WriteLock {
        private let queue: DatabaseQueue

        init(path: String) throws {
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
        }

        func release() throws {
            try queue.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
            try queue.close()
        }
    }

    /// A store with one browser, whose writes give up after `busyTimeout` seconds.
    private static func store(busyTimeout: TimeInterval) throws -> (TemporaryStore, BrowserID) {
        var configuration = SessionDatabase.Configuration()
        configuration.busyTimeout = busyTimeout
        configuration.snapshots = nil
        let store = try TemporaryStore.onDisk(configuration: configuration)
        let (browser, _) = try store.seed("| a*")
        return (store, browser)
    }

    /// Waits (without a wall-clock limit a loaded machine could exceed) until `condition` holds.
    private static func eventually(_ condition: () -> Bool) async throws {
        while !condition() { try await Task.sleep(for: .milliseconds(1)) }
    }

    @Test func close_whileQueuedWritesWaitOutTheBusyTimeout_reportsThemBusy_notClosed() async throws {
        let (store, browser) = try Self.store(busyTimeout: 0.3)
        let path = try #require(store.path)
        let lock = try WriteLock(path: path)
        let tabs = store.tabs
        let writes = (0..<3).map { _ in
            Task { () -> (any Error)? in
                do {
                    try await tabs.insert(in: browser, params: .automatic())
                    return nil
                } catch {
                    return error
                }
            }
        }
        try await Self.eventually { store.database.callsInFlight == 3 }
        let database = store.database
        let closing = Task { try await database.close() }
        try await Self.eventually { store.database.isClosed }
        // A call made after close() began: closed.
        await #expect(throws: StorageError.closed(path: path)) { try await tabs.insert(in: browser, params: .automatic()) }
        try await closing.value
        #expect(store.database.callsInFlight == 0)
        for write in writes {
            let error = await write.value
            #expect(error as? StorageError == .busy(path: path), "\(String(describing: error))")
        }
        try lock.release()
        let reopened = try await SessionDatabase.open(atPath: path, configuration: store.database.configuration)
        await #expect(try SQLiteWebStateListRepository(database: reopened).webStateList(in: browser).count == 1)
        try await reopened.close()
    }

    @Test func close_whileQueuedWritesWaitForALockReleasedInTime_keepsEveryOne() async throws {
        let (store, browser) = try Self.store(busyTimeout: 60)
        let path = try #require(store.path)
        let lock = try WriteLock(path: path)
        let tabs = store.tabs
        let writes = (0..<5).map { _ in Task { try await tabs.insert(in: browser, params: .automatic()) } }
        try await Self.eventually { store.database.callsInFlight == 5 }
        let database = store.database
        let closing = Task { try await database.close() }
        try await Self.eventually { store.database.isClosed }
        #expect(store.database.callsInFlight == 5)  // close() waits for them
        try lock.release()
        try await closing.value
        #expect(store.database.callsInFlight == 0)
        for write in writes { _ = try await write.value }
        let reopened = try await SessionDatabase.open(atPath: path, configuration: store.database.configuration)
        await #expect(try SQLiteWebStateListRepository(database: reopened).webStateList(in: browser).count == 6)
        try await reopened.close()
    }

    @Test(arguments: TemporaryStore.Kind.allCases)
    func observing_afterClose_failsWithClosed(kind: TemporaryStore.Kind) async throws {
        let store = try kind.make()
        let (browser, _) = try store.seed("| a*")
        try await store.database.close()
        let closed = StorageError.closed(path: store.path ?? ":memory:")
        await #expect(throws: closed) {
            for try await _ in store.tabs.snapshots(of: browser) {}
        }
        let result = Protected<Result<WebStateListSnapshot, any Error>?>(nil)
        let observation = store.tabs.observe(browser) { delivered in result.withLock { $0 = delivered } }
        defer { observation.cancel() }
        try await Self.eventually { result.withLock { $0 } != nil }
        #expect(throws: closed) { try result.withLock { $0 }?.get() }
        await #expect(throws: closed) {
            for try await _ in store.browsers.browserSummarySequence() {}
        }
    }

    /// The `async` forms of the calls that had only a synchronous one, then each refused once closed.
    @Test func asyncForms_ofCompactExportAndSnapshots_work_thenAreClosed() async throws {
        let store = try TemporaryStore.onDisk()
        let path = try #require(store.path)
        let (browser, _) = try store.seed("| a* b")
        let database = store.database
        let archive = try await database.exportArchive()
        await #expect(archive == (try database.exportArchive()))
        let snapshot = try #require(try await database.takeSnapshot())
        try await store.tabs.close(in: browser, at: 0)
        try await database.restoreSnapshot(named: snapshot.name)
        #expect(try await store.tabs.webStateList(in: browser).count == 2)
        let sizes = try #require(try await database.compact())
        #expect(sizes.after > 0)
        try await database.close()
        let closed = StorageError.closed(path: path)
        await #expect(throws: closed) { try await database.exportArchive() }
        await #expect(throws: closed) { try await database.takeSnapshot() }
        await #expect(throws: closed) { try await database.restoreSnapshot(named: snapshot.name) }
        await #expect(throws: closed) { try await database.compact() }
    }
}
