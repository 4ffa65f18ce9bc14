import SessionModel

/// The browsers (windows) of a store.
///
/// Implementations are thread-safe; every call is one transaction.
///
/// ## Topics
/// - ``createBrowser()``
/// - ``browsers()``
/// - ``browser(_:)``
/// - ``markActive(_:)``
/// - ``closeBrowser(_:)``
public protocol BrowserRepository: Sendable {
    /// Creates an empty browser and returns it.
    func createBrowser() throws -> Browser

    /// Every open browser, the most recently active first.
    func browsers() throws -> [Browser]

    /// The open browser with this identifier, or `nil`.
    func browser(_ id: BrowserID) throws -> Browser?

    /// Records that the browser became the active window now.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func markActive(_ id: BrowserID) throws

    /// Closes the browser and every tab in it.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func closeBrowser(_ id: BrowserID) throws
}
