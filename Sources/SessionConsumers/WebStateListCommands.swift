import SessionModel

/// What a tab strip can ask of its browser's tab list.
///
/// Tabs and groups are named by identifier, never by index, so a command
/// issued against a strip that is one update behind still reaches the tab the
/// user meant. Each command is one transaction (``openURL(_:activate:)``
/// inserts the tab and commits its first page together); what it changes
/// reaches the strip through its mediator, like any other change.
public protocol WebStateListCommands {
    /// Opens `url` in a new tab placed by the insertion rules, optionally activating it.
    ///
    /// - Returns: The new tab's identifier.
    @discardableResult
    func openURL(_ url: String, activate: Bool) throws -> WebStateID

    /// Makes the tab the active one.
    func activateTab(_ tab: WebStateID) throws

    /// Closes the tab.
    func closeTab(_ tab: WebStateID) throws

    /// Moves the tab to `index`, within its segment and group rules.
    func moveTab(_ tab: WebStateID, to index: Int) throws

    /// Pins or unpins the tab.
    func setPinned(_ pinned: Bool, tab: WebStateID) throws

    /// Groups the tabs, which must all be unpinned.
    ///
    /// - Returns: The new group's identifier.
    @discardableResult
    func createGroup(with tabs: [WebStateID], title: String, color: TabGroupColor) throws -> TabGroupID

    /// Moves the tabs into an existing group.
    func addTabs(_ tabs: [WebStateID], to group: TabGroupID) throws

    /// Takes the tabs out of their groups.
    func ungroupTabs(_ tabs: [WebStateID]) throws

    /// Changes a group's title, colour and collapsed state.
    func updateGroup(_ group: TabGroupID, title: String, color: TabGroupColor, isCollapsed: Bool) throws
}
