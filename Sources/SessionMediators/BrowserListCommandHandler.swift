import SessionConsumers
import SessionModel
import SessionStorage

/// Carries out a window list's ``BrowserListCommands`` against the browser repository.
///
/// - Throws (from every command): ``StorageError``, such as
///   ``StorageError/unknownBrowser(_:)`` for a browser the store does not have.
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

    public func activateBrowser(_ browser: BrowserID) throws {
        try browsers.markActive(browser)
    }

    public func closeBrowser(_ browser: BrowserID) throws {
        try browsers.closeBrowser(browser)
    }
}
