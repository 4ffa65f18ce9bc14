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
        /// Each update's active index and when it arrived.
        var received: [(activeIndex: Int?, at: UInt64)] = []

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
            received.append((snapshot.activeIndex, lastReceived))
        }

        func tabStripBecameUnavailable(_ reason: Unavailability) {}
    }

    /// Runs the burst on the store at `path` (its first browser); the main
    /// thread drains the main queue meanwhile.
    static func run(path: String, configuration: SessionDatabase.Configuration, commits: Int = 1_000) throws -> Result {
        try observingFirstBrowser(path: path, configuration: configuration) { tabs, browser, consumer in
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

    /// The user's own pace: `changes` activations, one every `spacing` seconds, made by
    /// another thread; each one's time from the start of its commit to the consumer
    /// receiving the strip that shows it (none may be coalesced with the next).
    static func steady(
        path: String, configuration: SessionDatabase.Configuration, changes: Int = 50, spacing: Double = 0.1
    ) throws -> Samples {
        try observingFirstBrowser(path: path, configuration: configuration) { tabs, browser, consumer in
            // Each change activates a tab other than the one before it: every one shows.
            let active = try tabs.webStateList(in: browser).activeIndex ?? 0
            let indexes = (0..<changes).map { step in (active + 1 + step % 2) % 3 }
            let started = Protected<[UInt64]>([])
            let failure = Protected<(any Error)?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                // Steady from the start: the first change, too, comes `spacing` after the one before (the configuration).
                let origin = monotonicNanoseconds()
                do {
                    for (step, index) in indexes.enumerated() {
                        let due = origin + UInt64(Double(step + 1) * spacing * 1e9)
                        let now = monotonicNanoseconds()
                        if due > now { usleep(UInt32((due - now) / 1_000)) }
                        started.withLock { $0.append(monotonicNanoseconds()) }
                        try tabs.activate(in: browser, at: index)
                    }
                } catch {
                    failure.withLock { $0 = error }
                }
                done.signal()
            }
            try drain(until: Date().addingTimeInterval(600)) { done.wait(timeout: .now()) == .success }
            if let error = failure.withLock({ $0 }) { throw error }
            // Until the last change shows: a consumer slower than the changes (a large strip on a loaded
            // machine) gets some of them together, in fewer updates than changes.
            let lastStart = started.withLock { $0.last } ?? 0
            try drain(until: Date().addingTimeInterval(60)) {
                consumer.received.contains { $0.at >= lastStart && $0.activeIndex == indexes.last }
            }
            var samples = Samples()
            for (step, start) in started.withLock({ $0 }).enumerated() {
                // Its own update, else the first one after it (which shows it together with later ones).
                guard let arrival = consumer.received.first(where: { $0.at >= start && $0.activeIndex == indexes[step] })
                    ?? consumer.received.first(where: { $0.at >= start })
                else { throw BenchError("change \(step) never reached the consumer") }
                samples.record(nanoseconds: arrival.at - start)
            }
            return samples
        }
    }

    /// Opens the store at `path` and runs `body` on the main actor with its first
    /// browser observed by a `WebStateListMediator` whose consumer is configured.
    private static func observingFirstBrowser<T: Sendable>(
        path: String, configuration: SessionDatabase.Configuration,
        _ body: @MainActor (SQLiteWebStateListRepository, BrowserID, CountingConsumer) throws -> T
    ) throws -> T {
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
            return try body(tabs, browser, consumer)
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
