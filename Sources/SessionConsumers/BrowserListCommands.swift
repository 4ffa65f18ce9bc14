import SessionModel

/// What a window list can ask of the store's browsers.
///
/// Every command has an `async` form, which an app awaits from the main actor,
/// and a synchronous form of the same name, which blocks the caller's thread
/// (see ``WebStateListCommands``).
public protocol BrowserListCommands: Sendable {
    /// Opens a new, empty browser (window).
    ///
    /// - Returns: Its identifier.
    @discardableResult
    func openBrowser() throws -> BrowserID

    /// Opens a new, empty browser (window), handed to the store off the caller's thread.
    ///
    /// - Returns: Its identifier.
    @discardableResult
    func openBrowser() async throws -> BrowserID

    /// Makes the browser the most recently active one.
    func activateBrowser(_ browser: BrowserID) throws

    /// Makes the browser the most recently active one, handed to the store off the caller's thread.
    func activateBrowser(_ browser: BrowserID) async throws

    /// Closes the browser and every tab in it.
    func closeBrowser(_ browser: BrowserID) throws

    /// Closes the browser and every tab in it, handed to the store off the caller's thread.
    func closeBrowser(_ browser: BrowserID) async throws
}
