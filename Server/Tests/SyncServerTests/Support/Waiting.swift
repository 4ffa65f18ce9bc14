import Foundation

/// A wait that ran out: the test fails instead of hanging.
struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Polls `condition` every 50 ms until it holds; throws ``TimedOut`` after
/// `timeout`. For waiting on something to happen, never for measuring it.
func eventually(
    _ what: String, timeout: Duration = .seconds(30), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return }
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        try await Task.sleep(for: .milliseconds(50))
    }
}

/// Runs `body`, throwing ``TimedOut`` if it has not finished after `timeout`:
/// a bound on a whole test, so that a wake-up that never comes fails it.
func withTimeout<T: Sendable>(
    _ what: String, _ timeout: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw TimedOut(what: what)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimedOut(what: what) }
        return first
    }
}

extension Task where Failure == any Error {
    /// The task's value; cancelling the caller cancels the task, so that a
    /// ``withTimeout(_:_:_:)`` running out does not wait for a poll's own end.
    var valueCancellingWithCaller: Success {
        get async throws {
            try await withTaskCancellationHandler { try await value } onCancel: { cancel() }
        }
    }
}
