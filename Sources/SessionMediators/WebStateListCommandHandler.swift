import SessionConsumers
import SessionModel
import SessionStorage

/// Carries out a tab strip's ``WebStateListCommands`` against the repositories.
///
/// Each command finds its tabs by identifier inside the transaction that
/// changes them, so it acts on the list as stored, not as last shown. The
/// changes reach the strip through its ``WebStateListMediator``.
///
/// - Throws (from every command): `WebStateListError.unknownWebState(_:)` or
///   `.unknownGroup(_:)` for a tab or group the browser does not have, another
///   `WebStateListError` for a move the rules refuse, and ``StorageError``.
public struct WebStateListCommandHandler: WebStateListCommands, Sendable {
    /// The browser the commands act on.
    public let browser: BrowserID
    private let tabs: any WebStateListRepository
    private let histories: any NavigationHistoryRepository

    /// Creates a handler for `browser`'s tab strip.
    ///
    /// - Parameters:
    ///   - browser: The browser the commands act on.
    ///   - tabs: Its tab-list repository.
    ///   - histories: The history repository, where a new tab's first page goes.
    public init(browser: BrowserID, tabs: any WebStateListRepository, histories: any NavigationHistoryRepository) {
        self.browser = browser
        self.tabs = tabs
        self.histories = histories
    }

    /// Inserts a tab by the insertion rules with `url` as its first entry, in one transaction.
    @discardableResult
    public func openURL(_ url: String, activate: Bool) throws -> WebStateID {
        let webState = WebState()
        try tabs.insert(
            webState, in: browser, params: .automatic().activate(activate),
            navigatingTo: NavigationItem(url: url, transition: .typed))
        return webState.id
    }

    public func activateTab(_ tab: WebStateID) throws {
        try tabs.update(browser) { list in _ = try list.activate(at: try Self.index(of: tab, in: list)) }
    }

    public func closeTab(_ tab: WebStateID) throws {
        try tabs.update(browser) { list in _ = try list.remove(at: try Self.index(of: tab, in: list)) }
    }

    public func moveTab(_ tab: WebStateID, to index: Int) throws {
        try tabs.update(browser) { list in _ = try list.move(from: try Self.index(of: tab, in: list), to: index) }
    }

    public func setPinned(_ pinned: Bool, tab: WebStateID) throws {
        try tabs.update(browser) { list in _ = try list.setPinned(pinned, at: try Self.index(of: tab, in: list)) }
    }

    @discardableResult
    public func createGroup(with tabs: [WebStateID], title: String, color: TabGroupColor) throws -> TabGroupID {
        try self.tabs.update(browser) { list in
            let indexes = try tabs.map { try Self.index(of: $0, in: list) }
            return try list.createGroup(at: indexes, visualData: TabGroupVisualData(title: title, color: color)).group
        }
    }

    public func addTabs(_ tabs: [WebStateID], to group: TabGroupID) throws {
        try self.tabs.update(browser) { list in
            _ = try list.moveToGroup(try tabs.map { try Self.index(of: $0, in: list) }, group: group)
        }
    }

    public func ungroupTabs(_ tabs: [WebStateID]) throws {
        try self.tabs.update(browser) { list in
            _ = try list.removeFromGroups(try tabs.map { try Self.index(of: $0, in: list) })
        }
    }

    public func updateGroup(_ group: TabGroupID, title: String, color: TabGroupColor, isCollapsed: Bool) throws {
        let visualData = TabGroupVisualData(title: title, color: color, isCollapsed: isCollapsed)
        try tabs.updateGroup(group, in: browser, visualData: visualData)
    }

    /// The tab's index in `list`.
    private static func index(of tab: WebStateID, in list: WebStateList) throws -> Int {
        guard let index = list.index(of: tab) else { throw WebStateListError.unknownWebState(tab) }
        return index
    }
}
