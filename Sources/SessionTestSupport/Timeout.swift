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

/// How long the tests wait before calling something hung.
///
/// Every wait in the tests is a guard against a hang, never a measure of speed
/// (the benchmark measures speed): a test states the time its wait takes on an
/// idle machine, and waits ``factor`` times that, so that a loaded machine (two
/// test runs at once, a CPU hog beside them, a slow CI runner) passes the same
/// tests. `SESSIONSTORE_TEST_PATIENCE` sets the factor (default 10).
public enum Patience {
    /// The factor applied to every stated wait.
    public static let factor: Double = {
        let value = ProcessInfo.processInfo.environment["SESSIONSTORE_TEST_PATIENCE"].flatMap(Double.init)
        return value.map { max($0, 1) } ?? 10
    }()

    /// `seconds` stated for an idle machine, as waited for.
    public static func seconds(_ seconds: Double) -> Double { seconds * factor }
}

/// Runs `operation`, failing with ``TimeoutError`` after ``Patience`` times `seconds`:
/// tests await, never sleep.
public func withTimeout<T: Sendable>(
    _ seconds: Double, _ what: String = "a value", _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(Patience.seconds(seconds) * 1_000_000_000))
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

    /// Waits until `predicate` holds for the recorded values, or ``Patience`` times `seconds` pass.
    /// - Returns: Whether it held in time.
    @discardableResult
    public func wait(timeout seconds: Double = 5, until predicate: ([Value]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(Patience.seconds(seconds))
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
