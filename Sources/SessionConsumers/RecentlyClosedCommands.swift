import SessionModel

/// What a "reopen closed tab" menu item or shortcut can ask of the store.
///
/// Every command has a synchronous form and an `async` form of the same name;
/// an app calls the `async` one from the main actor (see ``WebStateListCommands``).
public protocol RecentlyClosedCommands: Sendable {
    /// Brings back the most recently closed tab, group or window, and makes it active.
    ///
    /// - Returns: The browser it returned to (a new one when its own was closed),
    ///   or `nil` when nothing was recently closed.
    @discardableResult
    func restoreMostRecentlyClosed() throws -> BrowserID?

    /// Brings back the most recently closed entry, handed to the store off the caller's thread.
    ///
    /// - Returns: The browser it returned to (a new one when its own was closed),
    ///   or `nil` when nothing was recently closed.
    @discardableResult
    func restoreMostRecentlyClosed() async throws -> BrowserID?
}
