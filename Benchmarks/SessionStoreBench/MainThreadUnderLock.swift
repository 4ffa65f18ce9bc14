import Dispatch
import Foundation
import SessionConsumers
import SessionMediators
import SessionModel
import SessionStorage

/// The main thread's time per tab-strip command while another process
/// (`sqlite3`, in a transaction begun with `BEGIN IMMEDIATE`) holds the write
/// lock: the synchronous command against the `async` one, issued from the main
/// actor as an app would.
///
/// A command's main-thread time runs from its start, on the main queue, to the
/// moment the main queue can run its next block (a probe enqueued just before
/// the command): with the synchronous form that is after the write, so the
/// whole wait for the lock; with the `async` form, after the hand-off to the
/// store's writer. Commands run one after another, each started by the previous
/// probe, so no command's time includes another's.
enum MainThreadUnderLock {
    struct Result {
        var syncSamples: Samples
        var asyncSamples: Samples
        /// How long the lock was held for each synchronous command, and for all the async ones.
        var syncHoldSeconds: Double
        var asyncHoldSeconds: Double
        /// How many async commands completed once the lock was released (all must).
        var asyncCompleted: Int
    }

    static func run(
        path: String, configuration: SessionDatabase.Configuration, asyncCommands: Int = 1_000,
        syncCommands: Int = 3, holdSeconds: Double = 1
    ) throws -> Result {
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        defer { try? database.close() }
        let tabs = SQLiteWebStateListRepository(database: database)
        guard let browser = try SQLiteBrowserRepository(database: database).browsers().first?.id else {
            throw BenchError("no browser to command")
        }
        let ids = try tabs.webStateList(in: browser).webStates.map(\.id)
        let commands = WebStateListCommandHandler(browser: browser, tabs: tabs)

        return try MainActor.assumeIsolated {
            // The synchronous form: each command waits out the lock.
            var syncSamples = Samples()
            for step in 0..<syncCommands {
                let lock = try LockHolder(path: path)
                lock.release(after: holdSeconds)
                let probe = Probe()
                probe.start()
                try commands.activateTab(ids[(step * 7) % ids.count])
                try drain(until: Date().addingTimeInterval(10)) { probe.elapsed != nil }
                syncSamples.record(nanoseconds: probe.elapsed!)
                try lock.waitUntilReleased()
            }

            // The async form: every command is handed over while the lock is held.
            let lock = try LockHolder(path: path)
            let lockedAt = monotonicNanoseconds()
            var asyncSamples = Samples()
            let completed = Protected(0)
            let failures = Protected<[String]>([])
            for step in 0..<asyncCommands {
                let tab = ids[(step * 7) % ids.count]
                let probe = Probe()
                probe.start()
                Task { @MainActor in
                    do {
                        try await commands.activateTab(tab)
                        completed.withLock { $0 += 1 }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
                try drain(until: Date().addingTimeInterval(10)) { probe.elapsed != nil }
                asyncSamples.record(nanoseconds: probe.elapsed!)
            }
            let handedOver = Double(monotonicNanoseconds() - lockedAt) / 1e9
            lock.release(after: max(0, holdSeconds - handedOver))
            try lock.waitUntilReleased()
            let asyncHold = Double(monotonicNanoseconds() - lockedAt) / 1e9
            try drain(until: Date().addingTimeInterval(60)) {
                completed.withLock { $0 } + failures.withLock { $0.count } == asyncCommands
            }
            if let failure = failures.withLock({ $0.first }) { throw BenchError("an async command failed: \(failure)") }
            return Result(
                syncSamples: syncSamples, asyncSamples: asyncSamples, syncHoldSeconds: holdSeconds,
                asyncHoldSeconds: asyncHold, asyncCompleted: completed.withLock { $0 })
        }
    }

    /// Times from ``start()`` to the moment the main queue runs its next block.
    final class Probe: Sendable {
        private let started = Protected<UInt64>(0)
        private let ended = Protected<UInt64?>(nil)

        /// Starts the clock and enqueues the block that stops it.
        func start() {
            started.withLock { $0 = monotonicNanoseconds() }
            DispatchQueue.main.async { self.ended.withLock { $0 = monotonicNanoseconds() } }
        }

        /// Nanoseconds from start to the block running, once it has.
        var elapsed: UInt64? {
            ended.withLock { $0 }.map { $0 - started.withLock { $0 } }
        }
    }

    /// Runs the main run loop (which drains the main queue) until `done` or the deadline.
    @MainActor
    static func drain(until deadline: Date, _ done: () -> Bool) throws {
        while !done() {
            guard Date() < deadline else { throw BenchError("timed out waiting for the commands") }
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
        }
    }
}

/// Another process holding the store's write lock: `sqlite3` inside `BEGIN IMMEDIATE`.
final class LockHolder: Sendable {
    private let process: Process
    private let input: FileHandle

    /// Starts `sqlite3` on `path` and returns once it holds the write lock.
    init(path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        input = stdin.fileHandleForWriting
        input.write(Data("PRAGMA busy_timeout = 10000;\nBEGIN IMMEDIATE;\nSELECT 'locked';\n".utf8))
        var seen = Data()
        while !(String(decoding: seen, as: UTF8.self).contains("locked")) {
            let chunk = stdout.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchError("sqlite3 ended before taking the lock") }
            seen.append(chunk)
        }
    }

    /// Commits and quits `seconds` from now.
    func release(after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [input] in
            input.write(Data("COMMIT;\n.quit\n".utf8))
            try? input.close()
        }
    }

    /// Waits for `sqlite3` to exit, the lock released.
    func waitUntilReleased() throws {
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("sqlite3 exited \(process.terminationStatus)") }
    }
}
