/// What back/forward buttons and history menus can ask of one tab's history.
///
/// Each command is one transaction; its effect reaches the consumer through
/// the tab's mediator.
public protocol NavigationCommands {
    /// Goes back one entry.
    ///
    /// - Throws: When there is no entry to go back to.
    func goBack() throws

    /// Goes forward one entry.
    ///
    /// - Throws: When there is no entry to go forward to.
    func goForward() throws

    /// Makes the entry at `index` (``NavigationEntryItem/index``) the current one.
    ///
    /// - Throws: When the history has no entry at `index`.
    func goToEntry(at index: Int) throws
}
