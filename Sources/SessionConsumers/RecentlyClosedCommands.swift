import SessionModel

/// What a "reopen closed tab" menu item or shortcut can ask of the store.
///
/// Every command has an `async` form, which an app awaits from the main actor,
/// and a synchronous form of the same name, which blocks the caller's thread
/// (see ``WebStateListCommands``).
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
