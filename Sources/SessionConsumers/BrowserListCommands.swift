import SessionModel

/// What a window list can ask of the store's browsers.
public protocol BrowserListCommands {
    /// Opens a new, empty browser (window).
    ///
    /// - Returns: Its identifier.
    @discardableResult
    func openBrowser() throws -> BrowserID

    /// Makes the browser the most recently active one.
    func activateBrowser(_ browser: BrowserID) throws

    /// Closes the browser and every tab in it.
    func closeBrowser(_ browser: BrowserID) throws
}
