import Dispatch
import Foundation
import SessionModel
import SessionStorage

/// What a snapshot costs the writer: tab activations timed while snapshots are
/// taken on another thread, against the same activations with none.
enum SnapshotBesideWriter {
    struct Result {
        var quiet: Samples
        var duringSnapshots: Samples
        var snapshots: Int
        var snapshotSeconds: Double
    }

    static func run(path: String, configuration: SessionDatabase.Configuration, writes: Int = 400) throws -> Result {
        var configuration = configuration
        configuration.snapshots = SnapshotPolicy()
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        defer { try? database.close() }
        let tabs = SQLiteWebStateListRepository(database: database)
        guard let browser = try SQLiteBrowserRepository(database: database).browsers().first?.id else {
            throw BenchError("no browser to write to")
        }
        let count = try tabs.webStateList(in: browser).count
        var quiet = Samples()
        for step in 0..<writes {
            try quiet.measure { try tabs.activate(in: browser, at: (step * 7) % count) }
        }
        let taking = Protected(true)
        let taken = Protected(0)
        let done = DispatchSemaphore(value: 0)
        let start = monotonicNanoseconds()
        Thread.detachNewThread {
            for _ in 0..<3 {
                if (try? database.takeSnapshot()) != nil { taken.withLock { $0 += 1 } }
            }
            taking.withLock { $0 = false }
            done.signal()
        }
        var during = Samples()
        var step = 0
        while taking.withLock({ $0 }) {
            try during.measure { try tabs.activate(in: browser, at: (step * 7) % count) }
            step += 1
        }
        done.wait()
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        return Result(quiet: quiet, duringSnapshots: during, snapshots: taken.withLock { $0 }, snapshotSeconds: seconds)
    }
}
