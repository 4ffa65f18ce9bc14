import SessionConsumers
import SessionModel
import SessionStorage

/// Carries out a window list's ``BrowserListCommands`` against the browser repository.
///
/// Every command has a synchronous form and an `async` form of the same name
/// that runs on the store's writer queue.
///
/// - Throws (from every command): ``StorageError``, such as
///   ``StorageError/unknownBrowser(_:)`` for a browser the store does not have, and,
///   from the `async` forms, `CancellationError` when the task was cancelled before the write started.
public struct BrowserListCommandHandler: BrowserListCommands, Sendable {
    private let browsers: any BrowserRepository

    /// Creates a handler over `browsers`.
    public init(browsers: any BrowserRepository) {
        self.browsers = browsers
    }

    @discardableResult
    public func openBrowser() throws -> BrowserID {
        try browsers.createBrowser().id
    }

    @discardableResult
    public func openBrowser() async throws -> BrowserID {
        try await browsers.createBrowser().id
    }

    public func activateBrowser(_ browser: BrowserID) throws {
        try browsers.markActive(browser)
    }

    public func activateBrowser(_ browser: BrowserID) async throws {
        try await browsers.markActive(browser)
    }

    public func closeBrowser(_ browser: BrowserID) throws {
        try browsers.closeBrowser(browser)
    }

    public func closeBrowser(_ browser: BrowserID) async throws {
        try await browsers.closeBrowser(browser)
    }
}
