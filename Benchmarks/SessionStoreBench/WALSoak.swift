import Dispatch
import Foundation
import SessionModel
import SessionStorage

/// The write-ahead log's size over a long run of mutations while readers keep
/// the file busy, as `watch` and an app's own reads do (SQLite's "checkpoint
/// starvation": a checkpoint cannot reset the WAL while a reader still uses it,
/// so without a size limit the WAL keeps its largest size for good).
///
/// One thread commits `mutations` tab activations and navigations; an
/// observation of the browser (what a mediator or `watch` runs) fetches after
/// every commit, and a reader thread reads the whole tab list in a loop. The WAL
/// file's size is sampled after every 1,000 mutations.
enum WALSoak {
    struct Result {
        var mutations: Int
        var largestBytes: Int64
        var finalBytes: Int64
        var seconds: Double
    }

    static func run(path: String, configuration: SessionDatabase.Configuration, mutations: Int) throws -> Result {
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        defer { try? database.close() }
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        guard let browser = try SQLiteBrowserRepository(database: database).browsers().first?.id else {
            throw BenchError("no browser to write to")
        }
        let ids = try tabs.webStateList(in: browser).webStates.map(\.id)
        let observation = tabs.observe(browser) { _ in }
        defer { observation.cancel() }
        let stop = Protected(false)
        let readerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while !stop.withLock({ $0 }) { _ = try? tabs.snapshot(of: browser) }
            readerDone.signal()
        }
        func walBytes() -> Int64 {
            ((try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size]) as? NSNumber)?.int64Value ?? 0
        }
        var largest: Int64 = 0
        let start = monotonicNanoseconds()
        for step in 0..<mutations {
            if step % 2 == 0 {
                try tabs.activate(in: browser, at: (step * 7) % ids.count)
            } else {
                try histories.commit(NavigationItem(url: "https://soak.example/\(step)"), in: ids[(step * 13) % ids.count])
            }
            if step % 1_000 == 999 { largest = max(largest, walBytes()) }
        }
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        stop.withLock { $0 = true }
        readerDone.wait()
        let final = walBytes()
        return Result(mutations: mutations, largestBytes: max(largest, final), finalBytes: final, seconds: seconds)
    }
}
