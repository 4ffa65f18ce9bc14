import SessionModel

/// What a "reopen closed tab" menu item or shortcut can ask of the store.
public protocol RecentlyClosedCommands {
    /// Brings back the most recently closed tab, group or window, and makes it active.
    ///
    /// - Returns: The browser it returned to (a new one when its own was closed),
    ///   or `nil` when nothing was recently closed.
    @discardableResult
    func restoreMostRecentlyClosed() throws -> BrowserID?
}
