import Foundation
import SessionModel

/// One-mutation conveniences: each is one ``WebStateListRepository/update(_:_:)`` transaction.
extension WebStateListRepository {
    /// Inserts a tab by the insertion rules and returns its index.
    ///
    ///     "| a* b"  insert(x, params: .automatic().inheritingOpener())  ->  "| a* x b"
    @discardableResult
    public func insert(_ webState: WebState = WebState(), in browser: BrowserID, params: InsertionParams) throws -> Int {
        try update(browser) { try $0.insert(webState, params: params).index }
    }

    /// Moves the tab at `from` to `to` within its segment and group rules.
    public func move(in browser: BrowserID, from: Int, to: Int) throws {
        try update(browser) { _ = try $0.move(from: from, to: to) }
    }

    /// Replaces the tab at `index` (which is closed) with `webState`, keeping its place, pinned state and group.
    public func replace(in browser: BrowserID, at index: Int, with webState: WebState) throws {
        try update(browser) { _ = try $0.replace(at: index, with: webState) }
    }

    /// Closes the tab at `index`.
    public func close(in browser: BrowserID, at index: Int) throws {
        try update(browser) { _ = try $0.remove(at: index) }
    }

    /// Closes the tabs at `indexes` as one set removal.
    public func close(in browser: BrowserID, indexes: [Int]) throws {
        try update(browser) { _ = try $0.remove(RemovingIndexes(indexes)) }
    }

    /// Closes every tab.
    public func closeAll(in browser: BrowserID) throws {
        try update(browser) { _ = try $0.remove($0.indexesForCloseAll()) }
    }

    /// Closes every regular (unpinned) tab.
    public func closeAllRegular(in browser: BrowserID) throws {
        try update(browser) { _ = try $0.remove($0.indexesForCloseAllRegular()) }
    }

    /// Closes every tab of a group.
    public func closeGroup(_ group: TabGroupID, in browser: BrowserID) throws {
        try update(browser) { _ = try $0.remove(try $0.indexesForClosingGroup(group)) }
    }

    /// Closes every regular tab except the one at `index`; pinned tabs stay.
    public func closeOthers(in browser: BrowserID, keeping index: Int) throws {
        try update(browser) { _ = try $0.remove(try $0.indexesForClosingOthers(keeping: index)) }
    }

    /// Activates the tab at `index`, or none.
    public func activate(in browser: BrowserID, at index: Int?) throws {
        try update(browser) { _ = try $0.activate(at: index) }
    }

    /// Pins or unpins the tab at `index` and returns its new index.
    @discardableResult
    public func setPinned(_ pinned: Bool, in browser: BrowserID, at index: Int) throws -> Int {
        try update(browser) { try $0.setPinned(pinned, at: index).index }
    }

    /// Creates a group from the tabs at `indexes` and returns its identifier.
    @discardableResult
    public func createGroup(
        in browser: BrowserID, at indexes: [Int], visualData: TabGroupVisualData
    ) throws -> TabGroupID {
        try update(browser) { try $0.createGroup(at: indexes, visualData: visualData).group }
    }

    /// Changes a group's title, colour or collapsed state.
    public func updateGroup(_ group: TabGroupID, in browser: BrowserID, visualData: TabGroupVisualData) throws {
        try update(browser) { _ = try $0.updateGroup(group, visualData: visualData) }
    }

    /// Moves the tabs at `indexes` into a group.
    public func moveToGroup(_ indexes: [Int], group: TabGroupID, in browser: BrowserID) throws {
        try update(browser) { _ = try $0.moveToGroup(indexes, group: group) }
    }

    /// Takes the tabs at `indexes` out of their groups.
    public func removeFromGroups(_ indexes: [Int], in browser: BrowserID) throws {
        try update(browser) { _ = try $0.removeFromGroups(indexes) }
    }

    /// Moves a whole group before `index`.
    public func moveGroup(_ group: TabGroupID, in browser: BrowserID, before index: Int) throws {
        try update(browser) { _ = try $0.moveGroup(group, before: index) }
    }

    /// Deletes a group, leaving its tabs in place, ungrouped.
    public func deleteGroup(_ group: TabGroupID, in browser: BrowserID) throws {
        try update(browser) { _ = try $0.deleteGroup(group) }
    }
}
