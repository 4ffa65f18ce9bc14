import Dispatch
import Foundation
import SessionModel
import SessionStorage

/// The main thread's time per call of every kind of `async` API, awaited from
/// the main actor while another process (`sqlite3` in `BEGIN IMMEDIATE`) holds
/// the write lock: the store's own calls (open, export, import, snapshots,
/// compact, close) and the repositories' reads and writes.
///
/// Each call is timed as ``MainThreadUnderLock`` times a command: from its start
/// on the main queue to the moment the main queue runs its next block. All are
/// handed over while the lock is held; once it is released, every one must
/// complete, `close()` last. Reads do not wait for the lock: each kind's are
/// awaited before the next kind is called, so that ten exports of the whole
/// store still running on a 2-core machine do not take the CPU from the main
/// thread while the next kind is timed.
enum AsyncCallsUnderLock {
    struct Result {
        /// Each API's samples, in the order called.
        var calls: [(name: String, samples: Samples)]
        var completed: Int
        var failures: [String]

        var all: Samples {
            var all = Samples()
            for call in calls { for sample in call.samples.nanoseconds { all.record(nanoseconds: sample) } }
            return all
        }
    }

    private typealias Body = @MainActor @Sendable () async throws -> Void

    /// A call, and whether it completes while the lock is held (a read).
    private struct Call {
        var body: Body
        var isRead = false
    }

    private static func read(_ body: @escaping Body) -> Call { Call(body: body, isRead: true) }
    private static func write(_ body: @escaping Body) -> Call { Call(body: body) }

    static func run(
        path: String, configuration: SessionDatabase.Configuration, repeats: Int, holdSeconds: Double
    ) throws -> Result {
        // The snapshot the calls restore must outlive the ones they take, and the writes
        // handed over first wait for the lock as long as the reads after them take.
        var configuration = configuration
        configuration.busyTimeout = 600
        configuration.snapshots = configuration.snapshots ?? SnapshotPolicy()
        configuration.snapshots?.keepLatest = 100
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        let browsers = SQLiteBrowserRepository(database: database)
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        let closed = SQLiteRecentlyClosedRepository(database: database)
        let search = SQLiteTabSearchRepository(database: database)
        guard let browser = try browsers.browsers().first?.id else { throw BenchError("no browser to call") }
        guard let tab = try tabs.webStateList(in: browser).webStates.first?.id else { throw BenchError("no tab to call") }
        // What the calls need to find: browsers to close, a snapshot to restore, a document to import.
        let spareBrowsers = try (0..<repeats).map { _ in try browsers.createBrowser().id }
        let archive = try database.exportArchive()
        guard let snapshot = try database.takeSnapshot() else { throw BenchError("snapshots are off") }
        let heavy = min(repeats, 10)

        let calls: [(String, Int, Call)] = [
            ("browsers()", repeats, read { _ = try await browsers.browsers() }),
            ("browserSummaries()", repeats, read { _ = try await browsers.browserSummaries() }),
            ("webStateList(in:)", repeats, read { _ = try await tabs.webStateList(in: browser) }),
            ("snapshot(of:)", repeats, read { _ = try await tabs.snapshot(of: browser) }),
            ("history(of:)", repeats, read { _ = try await histories.history(of: tab) }),
            ("entries()", repeats, read { _ = try await closed.entries() }),
            ("searchTabs(_:)", repeats, read { _ = try await search.searchTabs("example") }),
            ("createBrowser()", repeats, write { _ = try await browsers.createBrowser() }),
            ("markActive(_:)", repeats, write { try await browsers.markActive(browser) }),
            ("insert(in:params:)", repeats, write { try await tabs.insert(in: browser, params: .automatic()) }),
            ("activate(in:at:)", repeats, write { try await tabs.activate(in: browser, at: 1) }),
            ("move(in:from:to:)", repeats, write { try await tabs.move(in: browser, from: 1, to: 2) }),
            ("close(in:at:)", repeats, write { try await tabs.close(in: browser, at: 3) }),
            ("commit(_:in:)", repeats, write {
                _ = try await histories.commit(NavigationItem(url: "https://locked.example/"), in: tab)
            }),
            ("setEngineState(_:for:)", repeats, write { _ = try await histories.setEngineState(Data([1, 2, 3]), for: tab) }),
            ("pruneExpired()", repeats, write { _ = try await closed.pruneExpired() }),
            ("closeBrowser(_:)", repeats, write { [spare = SpareBrowsers(spareBrowsers)] in
                try await browsers.closeBrowser(spare.next())
            }),
            ("exportArchive()", heavy, read { _ = try await database.exportArchive() }),
            ("takeSnapshot()", heavy, read { _ = try await database.takeSnapshot() }),
            ("restoreSnapshot(named:)", heavy, write { try await database.restoreSnapshot(named: snapshot.name) }),
            ("importArchive(_:replacing:)", heavy, write { try await database.importArchive(archive, replacing: true) }),
            ("compact()", heavy, write { _ = try await database.compact() }),
            ("open(atPath:)", heavy, write {
                let other = try await SessionDatabase.open(atPath: path, configuration: configuration)
                try await other.close()
            }),
            ("close()", 1, write { try await database.close() }),
        ]

        return try MainActor.assumeIsolated {
            let lock = try LockHolder(path: path)
            let completed = Protected(0)
            let failures = Protected<[String]>([])
            let ended = Protected<[String: Int]>([:])  // calls of each kind that ended
            var results: [(name: String, samples: Samples)] = []
            var issued = 0
            for (name, count, call) in calls {
                var samples = Samples()
                for _ in 0..<count {
                    let probe = MainThreadUnderLock.Probe()
                    probe.start()
                    Task { @MainActor in
                        do {
                            try await call.body()
                            completed.withLock { $0 += 1 }
                        } catch {
                            failures.withLock { $0.append("\(name): \(error)") }
                        }
                        ended.withLock { $0[name, default: 0] += 1 }
                    }
                    try MainThreadUnderLock.drain(until: Date().addingTimeInterval(10)) { probe.elapsed != nil }
                    samples.record(nanoseconds: probe.elapsed!)
                    issued += 1
                }
                results.append((name, samples))
                if call.isRead {
                    try MainThreadUnderLock.drain(until: Date().addingTimeInterval(300)) {
                        ended.withLock { $0[name, default: 0] } == count
                    }
                }
            }
            lock.release(after: holdSeconds)
            try lock.waitUntilReleased()
            try MainThreadUnderLock.drain(until: Date().addingTimeInterval(300)) {
                completed.withLock { $0 } + failures.withLock { $0.count } == issued
            }
            return Result(calls: results, completed: completed.withLock { $0 }, failures: failures.withLock { $0 })
        }
    }

    /// Hands out the browsers made for `closeBrowser(_:)`, one per call.
    private final class SpareBrowsers: Sendable {
        private let remaining: Protected<[BrowserID]>

        init(_ browsers: [BrowserID]) { remaining = Protected(browsers) }

        func next() throws -> BrowserID {
            guard let browser = remaining.withLock({ $0.popLast() }) else { throw BenchError("no spare browser left") }
            return browser
        }
    }
}
