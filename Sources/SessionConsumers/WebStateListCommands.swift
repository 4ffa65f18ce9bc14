import SessionModel

/// What a tab strip can ask of its browser's tab list.
///
/// Tabs and groups are named by identifier, never by index, so a command
/// issued against a strip that is one update behind still reaches the tab the
/// user meant. Each command is one transaction (``openURL(_:activate:)``
/// inserts the tab and commits its first page together); what it changes
/// reaches the strip through its mediator, like any other change.
///
/// Every command has an `async` form, which an app awaits from the main actor:
/// the main thread only hands the command over. The synchronous form of the
/// same name blocks the caller's thread, for as long as another process holds
/// the write lock: for tools and tests. A command whose task is cancelled
/// before its write starts is not carried out (it throws `CancellationError`);
/// once started, it completes and is kept.
///
/// Every command throws, as the implementation documents, when its tab or group
/// is unknown, when the rules refuse the change, or when the store fails.
public protocol WebStateListCommands: Sendable {
    /// Opens `url` in a new tab placed by the insertion rules, optionally activating it.
    ///
    /// - Returns: The new tab's identifier.
    @discardableResult
    func openURL(_ url: String, activate: Bool) throws -> WebStateID

    /// Opens `url` in a new tab, handed to the store off the caller's thread.
    ///
    /// - Returns: The new tab's identifier.
    @discardableResult
    func openURL(_ url: String, activate: Bool) async throws -> WebStateID

    /// Makes the tab the active one.
    func activateTab(_ tab: WebStateID) throws

    /// Makes the tab the active one, handed to the store off the caller's thread.
    func activateTab(_ tab: WebStateID) async throws

    /// Closes the tab.
    func closeTab(_ tab: WebStateID) throws

    /// Closes the tab, handed to the store off the caller's thread.
    func closeTab(_ tab: WebStateID) async throws

    /// Moves the tab to `index`, within its segment and group rules.
    func moveTab(_ tab: WebStateID, to index: Int) throws

    /// Moves the tab to `index`, within its segment and group rules, handed to the store off the caller's thread.
    func moveTab(_ tab: WebStateID, to index: Int) async throws

    /// Pins or unpins the tab.
    func setPinned(_ pinned: Bool, tab: WebStateID) throws

    /// Pins or unpins the tab, handed to the store off the caller's thread.
    func setPinned(_ pinned: Bool, tab: WebStateID) async throws

    /// Groups the tabs, which must all be unpinned.
    ///
    /// - Returns: The new group's identifier.
    @discardableResult
    func createGroup(with tabs: [WebStateID], title: String, color: TabGroupColor) throws -> TabGroupID

    /// Groups the tabs, which must all be unpinned, handed to the store off the caller's thread.
    ///
    /// - Returns: The new group's identifier.
    @discardableResult
    func createGroup(with tabs: [WebStateID], title: String, color: TabGroupColor) async throws -> TabGroupID

    /// Moves the tabs into an existing group.
    func addTabs(_ tabs: [WebStateID], to group: TabGroupID) throws

    /// Moves the tabs into an existing group, handed to the store off the caller's thread.
    func addTabs(_ tabs: [WebStateID], to group: TabGroupID) async throws

    /// Takes the tabs out of their groups.
    func ungroupTabs(_ tabs: [WebStateID]) throws

    /// Takes the tabs out of their groups, handed to the store off the caller's thread.
    func ungroupTabs(_ tabs: [WebStateID]) async throws

    /// Changes a group's title, colour and collapsed state.
    func updateGroup(_ group: TabGroupID, title: String, color: TabGroupColor, isCollapsed: Bool) throws

    /// Changes a group's title, colour and collapsed state, handed to the store off the caller's thread.
    func updateGroup(_ group: TabGroupID, title: String, color: TabGroupColor, isCollapsed: Bool) async throws
}
