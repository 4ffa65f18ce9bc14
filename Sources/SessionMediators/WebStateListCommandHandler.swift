import SessionConsumers
import SessionModel
import SessionStorage

/// Carries out a tab strip's ``WebStateListCommands`` against the repositories.
///
/// Each command finds its tabs by identifier inside the transaction that
/// changes them, so it acts on the list as stored, not as last shown. The
/// changes reach the strip through its ``WebStateListMediator``.
///
/// Every command has a synchronous form (the caller's thread waits for the
/// write) and an `async` form of the same name that runs on the store's writer
/// queue, so that a command issued on the main actor costs the main thread
/// only the hand-off:
///
///     Button("Close") { Task { try await commands.closeTab(tab.id) } }
///
/// - Throws (from every command): `WebStateListError.unknownWebState(_:)` or
///   `.unknownGroup(_:)` for a tab or group the browser does not have, another
///   `WebStateListError` for a move the rules refuse, ``StorageError`` (such as
///   ``StorageError/unknownBrowser(_:)`` once the browser is closed, or
///   ``StorageError/busy(path:)``), and, from the `async` forms,
///   `CancellationError` when the task was cancelled before the write started.
public struct WebStateListCommandHandler: WebStateListCommands, Sendable {
    /// The browser the commands act on.
    public let browser: BrowserID
    private let tabs: any WebStateListRepository

    /// Creates a handler for `browser`'s tab strip.
    ///
    /// - Parameters:
    ///   - browser: The browser the commands act on.
    ///   - tabs: Its tab-list repository.
    public init(browser: BrowserID, tabs: any WebStateListRepository) {
        self.browser = browser
        self.tabs = tabs
    }

    /// Inserts a tab by the insertion rules with `url` as its first entry, in one transaction.
    @discardableResult
    public func openURL(_ url: String, activate: Bool) throws -> WebStateID {
        let webState = WebState()
        try tabs.insert(webState, in: browser, params: .automatic().activate(activate), navigatingTo: Self.page(url))
        return webState.id
    }

    /// Inserts a tab with `url` as its first entry, on the store's writer queue.
    @discardableResult
    public func openURL(_ url: String, activate: Bool) async throws -> WebStateID {
        let webState = WebState()
        try await tabs.insert(
            webState, in: browser, params: .automatic().activate(activate), navigatingTo: Self.page(url))
        return webState.id
    }

    public func activateTab(_ tab: WebStateID) throws {
        try tabs.update(browser, Self.activating(tab))
    }

    public func activateTab(_ tab: WebStateID) async throws {
        try await tabs.update(browser, Self.activating(tab))
    }

    public func closeTab(_ tab: WebStateID) throws {
        try tabs.update(browser, Self.closing(tab))
    }

    public func closeTab(_ tab: WebStateID) async throws {
        try await tabs.update(browser, Self.closing(tab))
    }

    public func moveTab(_ tab: WebStateID, to index: Int) throws {
        try tabs.update(browser, Self.moving(tab, to: index))
    }

    public func moveTab(_ tab: WebStateID, to index: Int) async throws {
        try await tabs.update(browser, Self.moving(tab, to: index))
    }

    public func setPinned(_ pinned: Bool, tab: WebStateID) throws {
        try tabs.update(browser, Self.pinning(pinned, tab))
    }

    public func setPinned(_ pinned: Bool, tab: WebStateID) async throws {
        try await tabs.update(browser, Self.pinning(pinned, tab))
    }

    @discardableResult
    public func createGroup(with tabs: [WebStateID], title: String, color: TabGroupColor) throws -> TabGroupID {
        try self.tabs.update(browser, Self.grouping(tabs, TabGroupVisualData(title: title, color: color)))
    }

    @discardableResult
    public func createGroup(with tabs: [WebStateID], title: String, color: TabGroupColor) async throws -> TabGroupID {
        try await self.tabs.update(browser, Self.grouping(tabs, TabGroupVisualData(title: title, color: color)))
    }

    public func addTabs(_ tabs: [WebStateID], to group: TabGroupID) throws {
        try self.tabs.update(browser, Self.adding(tabs, to: group))
    }

    public func addTabs(_ tabs: [WebStateID], to group: TabGroupID) async throws {
        try await self.tabs.update(browser, Self.adding(tabs, to: group))
    }

    public func ungroupTabs(_ tabs: [WebStateID]) throws {
        try self.tabs.update(browser, Self.ungrouping(tabs))
    }

    public func ungroupTabs(_ tabs: [WebStateID]) async throws {
        try await self.tabs.update(browser, Self.ungrouping(tabs))
    }

    public func updateGroup(_ group: TabGroupID, title: String, color: TabGroupColor, isCollapsed: Bool) throws {
        let visualData = TabGroupVisualData(title: title, color: color, isCollapsed: isCollapsed)
        try tabs.updateGroup(group, in: browser, visualData: visualData)
    }

    public func updateGroup(
        _ group: TabGroupID, title: String, color: TabGroupColor, isCollapsed: Bool
    ) async throws {
        let visualData = TabGroupVisualData(title: title, color: color, isCollapsed: isCollapsed)
        try await tabs.updateGroup(group, in: browser, visualData: visualData)
    }

    // MARK: - The edits, shared by both forms

    private typealias Edit<T> = @Sendable (inout WebStateList) throws -> T

    /// A typed navigation to `url`: a new tab's first page.
    private static func page(_ url: String) -> NavigationItem {
        NavigationItem(url: url, transition: .typed)
    }

    private static func activating(_ tab: WebStateID) -> Edit<Void> {
        { list in _ = try list.activate(at: try index(of: tab, in: list)) }
    }

    private static func closing(_ tab: WebStateID) -> Edit<Void> {
        { list in _ = try list.remove(at: try index(of: tab, in: list)) }
    }

    private static func moving(_ tab: WebStateID, to target: Int) -> Edit<Void> {
        { list in _ = try list.move(from: try index(of: tab, in: list), to: target) }
    }

    private static func pinning(_ pinned: Bool, _ tab: WebStateID) -> Edit<Void> {
        { list in _ = try list.setPinned(pinned, at: try index(of: tab, in: list)) }
    }

    private static func grouping(_ tabs: [WebStateID], _ visualData: TabGroupVisualData) -> Edit<TabGroupID> {
        { list in try list.createGroup(at: try tabs.map { try index(of: $0, in: list) }, visualData: visualData).group }
    }

    private static func adding(_ tabs: [WebStateID], to group: TabGroupID) -> Edit<Void> {
        { list in _ = try list.moveToGroup(try tabs.map { try index(of: $0, in: list) }, group: group) }
    }

    private static func ungrouping(_ tabs: [WebStateID]) -> Edit<Void> {
        { list in _ = try list.removeFromGroups(try tabs.map { try index(of: $0, in: list) }) }
    }

    /// The tab's index in `list`.
    private static func index(of tab: WebStateID, in list: WebStateList) throws -> Int {
        guard let index = list.index(of: tab) else { throw WebStateListError.unknownWebState(tab) }
        return index
    }
}
