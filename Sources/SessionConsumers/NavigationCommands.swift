/// What back/forward buttons and history menus can ask of one tab's history.
///
/// Each command is one transaction; its effect reaches the consumer through
/// the tab's mediator.
///
/// Every command has an `async` form, which an app awaits from the main actor,
/// and a synchronous form of the same name, which blocks the caller's thread
/// (see ``WebStateListCommands``).
public protocol NavigationCommands: Sendable {
    /// Goes back one entry.
    ///
    /// - Throws: When there is no entry to go back to.
    func goBack() throws

    /// Goes back one entry, handed to the store off the caller's thread.
    ///
    /// - Throws: When there is no entry to go back to.
    func goBack() async throws

    /// Goes forward one entry.
    ///
    /// - Throws: When there is no entry to go forward to.
    func goForward() throws

    /// Goes forward one entry, handed to the store off the caller's thread.
    ///
    /// - Throws: When there is no entry to go forward to.
    func goForward() async throws

    /// Makes the entry at `index` (``NavigationEntryItem/index``) the current one.
    ///
    /// - Throws: When the history has no entry at `index`.
    func goToEntry(at index: Int) throws

    /// Makes the entry at `index` (``NavigationEntryItem/index``) the current one, handed to the store off the caller's thread.
    ///
    /// - Throws: When the history has no entry at `index`.
    func goToEntry(at index: Int) async throws
}
