import SessionConsumers
import SessionModel
import SessionStorage

/// Carries out one tab's ``NavigationCommands`` against the history repository.
///
/// Every command has a synchronous form and an `async` form of the same name
/// that runs on the store's writer queue.
///
/// - Throws (from every command): `NavigationHistoryError` when the history
///   cannot move that way, ``StorageError/unknownTab(_:)`` for a tab the store does not have,
///   another ``StorageError`` when the store fails, and, from the `async` forms,
///   `CancellationError` when the task was cancelled before the write started.
public struct NavigationCommandHandler: NavigationCommands, Sendable {
    /// The tab the commands act on.
    public let tab: WebStateID
    private let histories: any NavigationHistoryRepository

    /// Creates a handler for `tab`'s history.
    public init(tab: WebStateID, histories: any NavigationHistoryRepository) {
        self.tab = tab
        self.histories = histories
    }

    public func goBack() throws {
        try histories.goBack(in: tab)
    }

    public func goBack() async throws {
        try await histories.goBack(in: tab)
    }

    public func goForward() throws {
        try histories.goForward(in: tab)
    }

    public func goForward() async throws {
        try await histories.goForward(in: tab)
    }

    public func goToEntry(at index: Int) throws {
        try histories.go(to: index, in: tab)
    }

    public func goToEntry(at index: Int) async throws {
        try await histories.go(to: index, in: tab)
    }
}
