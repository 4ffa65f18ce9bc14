import Foundation

/// The operation did not finish in time.
public struct TimeoutError: Error, CustomStringConvertible {
    /// What was awaited.
    public var what: String
    public var description: String { "timed out waiting for \(what)" }

    /// A timeout while waiting for `what`.
    public init(what: String) {
        self.what = what
    }
}

/// Runs `operation`, failing with ``TimeoutError`` after `seconds`: tests await, never sleep.
public func withTimeout<T: Sendable>(
    _ seconds: Double, _ what: String = "a value", _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            throw TimeoutError(what: what)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// Collects what an observation delivers, so a test can wait for a value.
public final class ValueRecorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSCondition()
    private var values: [Value] = []

    /// An empty recorder.
    public init() {}

    /// Records a value (call from any thread).
    public func record(_ value: Value) {
        lock.lock()
        values.append(value)
        lock.broadcast()
        lock.unlock()
    }

    /// Everything recorded so far.
    public var recorded: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }

    /// Waits until `predicate` holds for the recorded values, or `seconds` pass.
    /// - Returns: Whether it held in time.
    @discardableResult
    public func wait(timeout seconds: Double = 5, until predicate: ([Value]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        lock.lock()
        defer { lock.unlock() }
        while !predicate(values) {
            if !lock.wait(until: deadline) { return predicate(values) }
        }
        return true
    }
}

/// Runs `body` as synchronous code, so that a call with both a synchronous and
/// an `async` form takes the synchronous one even inside an `async` test: the
/// write happens on this thread, within this main-queue turn.
@discardableResult
public func synchronously<T>(_ body: () throws -> T) rethrows -> T {
    try body()
}
