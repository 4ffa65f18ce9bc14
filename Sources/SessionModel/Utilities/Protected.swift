import Foundation

/// A value guarded by a lock, for state shared across threads.
///
/// The same shape as `Synchronization.Mutex`, which needs iOS 18 and macOS 15;
/// this one back-deploys to every platform the package supports.
package final class Protected<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    /// Guards `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
