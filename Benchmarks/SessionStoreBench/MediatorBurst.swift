import Dispatch
import Foundation

import SessionConsumers
import SessionMediators
import SessionModel
import SessionStorage

/// A burst of 1,000 separately committed mutations, made by another thread,
/// observed by a `WebStateListMediator` whose consumer counts what it receives.
enum MediatorBurst {
    struct Result {
        var commits: Int
        var updates: Int
        /// From the last commit returning to the consumer receiving the final strip.
        var delayNanoseconds: UInt64
        var burstNanoseconds: UInt64
    }

    @MainActor
    private final class CountingConsumer: WebStateListConsumer {
        var configured = false
        var updates = 0
        var last: TabStripSnapshot?
        var lastReceived: UInt64 = 0

        func configure(with snapshot: TabStripSnapshot) {
            dispatchPrecondition(condition: .onQueue(.main))
            configured = true
            last = snapshot
            lastReceived = monotonicNanoseconds()
        }

        func update(to snapshot: TabStripSnapshot, diff: TabStripDiff) {
            dispatchPrecondition(condition: .onQueue(.main))
            updates += 1
            last = snapshot
            lastReceived = monotonicNanoseconds()
        }

        func tabStripBecameUnavailable(_ reason: Unavailability) {}
    }

    /// Runs the burst on the store at `path` (its first browser); the main
    /// thread drains the main queue meanwhile.
    static func run(path: String, configuration: SessionDatabase.Configuration, commits: Int = 1_000) throws -> Result {
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        defer { try? database.close() }
        let tabs = SQLiteWebStateListRepository(database: database)
        guard let browser = try SQLiteBrowserRepository(database: database).browsers().first?.id else {
            throw BenchError("no browser to observe")
        }
        return try MainActor.assumeIsolated {
            let consumer = CountingConsumer()
            let mediator = WebStateListMediator(browser: browser, tabs: tabs, consumer: consumer)
            defer { mediator.disconnect() }
            try drain(until: Date().addingTimeInterval(60)) { consumer.configured }
            let count = try tabs.webStateList(in: browser).count
            let done = DispatchSemaphore(value: 0)
            let lastCommit = Protected<UInt64>(0)
            let failure = Protected<(any Error)?>(nil)
            let start = monotonicNanoseconds()
            Thread.detachNewThread {
                do {
                    for step in 0..<commits {
                        try tabs.activate(in: browser, at: (step * 7) % count)
                    }
                } catch {
                    failure.withLock { $0 = error }
                }
                lastCommit.withLock { $0 = monotonicNanoseconds() }
                done.signal()
            }
            try drain(until: Date().addingTimeInterval(600)) { done.wait(timeout: .now()) == .success }
            if let error = failure.withLock({ $0 }) { throw error }
            let final = try tabs.webStateList(in: browser)
            try drain(until: Date().addingTimeInterval(60)) {
                consumer.last?.activeIndex == final.activeIndex && consumer.last?.items.count == final.count
            }
            let end = lastCommit.withLock { $0 }
            return Result(
                commits: commits, updates: consumer.updates,
                delayNanoseconds: consumer.lastReceived > end ? consumer.lastReceived - end : 0,
                burstNanoseconds: end - start)
        }
    }

    /// Runs the main run loop (which drains the main queue) until `done` or the deadline.
    @MainActor
    private static func drain(until deadline: Date, _ done: () -> Bool) throws {
        while !done() {
            guard Date() < deadline else { throw BenchError("timed out waiting for the mediator") }
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
        }
    }
}
