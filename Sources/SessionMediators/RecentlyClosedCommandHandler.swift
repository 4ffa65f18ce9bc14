import SessionConsumers
import SessionModel
import SessionStorage

/// Carries out ``RecentlyClosedCommands`` against the recently-closed repository.
///
/// The restored tabs reach tab strips and window lists through their mediators.
///
/// Both forms throw ``StorageError``; the `async` one also throws
/// `CancellationError` when its task was cancelled before the restore started.
public struct RecentlyClosedCommandHandler: RecentlyClosedCommands, Sendable {
    private let recentlyClosed: any RecentlyClosedRepository

    /// Creates a handler over `recentlyClosed`.
    public init(recentlyClosed: any RecentlyClosedRepository) {
        self.recentlyClosed = recentlyClosed
    }

    @discardableResult
    public func restoreMostRecentlyClosed() throws -> BrowserID? {
        guard let entry = try recentlyClosed.entries().first else { return nil }
        return try recentlyClosed.restore(entry.id)
    }

    @discardableResult
    public func restoreMostRecentlyClosed() async throws -> BrowserID? {
        guard let entry = try await recentlyClosed.entries().first else { return nil }
        return try await recentlyClosed.restore(entry.id)
    }
}
