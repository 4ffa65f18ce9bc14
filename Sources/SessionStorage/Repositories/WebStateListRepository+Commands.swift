import Foundation
import SessionModel

/// One-mutation conveniences: each is one ``WebStateListRepository/update(_:_:)``
/// transaction, in a synchronous and an `async` form of the same name.
///
/// Each throws ``StorageError/unknownBrowser(_:)`` for a browser the store does
/// not have, `WebStateListError` when the rules refuse the change (an index out
/// of range, an unknown group), and the errors every repository call can throw
/// (see ``WebStateListRepository``); the `async` forms also throw
/// `CancellationError` when their task was cancelled before the write started.
extension WebStateListRepository {
    /// Inserts a tab by the insertion rules and returns its index.
    ///
    ///     "| a* b"  insert(x, params: .automatic().inheritingOpener())  ->  "| a* x b"
    @discardableResult
    public func insert(_ webState: WebState = WebState(), in browser: BrowserID, params: InsertionParams) throws -> Int {
        try update(browser, ListEdit.insert(webState, params))
    }

    /// Inserts a tab by the insertion rules and returns its index, on the store's writer queue.
    @discardableResult
    public func insert(
        _ webState: WebState = WebState(), in browser: BrowserID, params: InsertionParams
    ) async throws -> Int {
        try await update(browser, ListEdit.insert(webState, params))
    }

    /// Moves the tab at `from` to `to` within its segment and group rules.
    public func move(in browser: BrowserID, from: Int, to: Int) throws {
        try update(browser, ListEdit.move(from, to))
    }

    /// Moves the tab at `from` to `to`, on the store's writer queue.
    public func move(in browser: BrowserID, from: Int, to: Int) async throws {
        try await update(browser, ListEdit.move(from, to))
    }

    /// Replaces the tab at `index` (which is closed) with `webState`, keeping its place, pinned state and group.
    public func replace(in browser: BrowserID, at index: Int, with webState: WebState) throws {
        try update(browser, ListEdit.replace(index, webState))
    }

    /// Replaces the tab at `index` with `webState`, on the store's writer queue.
    public func replace(in browser: BrowserID, at index: Int, with webState: WebState) async throws {
        try await update(browser, ListEdit.replace(index, webState))
    }

    /// Closes the tab at `index`.
    public func close(in browser: BrowserID, at index: Int) throws {
        try update(browser, ListEdit.remove(at: index))
    }

    /// Closes the tab at `index`, on the store's writer queue.
    public func close(in browser: BrowserID, at index: Int) async throws {
        try await update(browser, ListEdit.remove(at: index))
    }

    /// Closes the tabs at `indexes` as one set removal.
    public func close(in browser: BrowserID, indexes: [Int]) throws {
        try update(browser, ListEdit.remove { _ in RemovingIndexes(indexes) })
    }

    /// Closes the tabs at `indexes` as one set removal, on the store's writer queue.
    public func close(in browser: BrowserID, indexes: [Int]) async throws {
        try await update(browser, ListEdit.remove { _ in RemovingIndexes(indexes) })
    }

    /// Closes every tab.
    public func closeAll(in browser: BrowserID) throws {
        try update(browser, ListEdit.remove { $0.indexesForCloseAll() })
    }

    /// Closes every tab, on the store's writer queue.
    public func closeAll(in browser: BrowserID) async throws {
        try await update(browser, ListEdit.remove { $0.indexesForCloseAll() })
    }

    /// Closes every regular (unpinned) tab.
    public func closeAllRegular(in browser: BrowserID) throws {
        try update(browser, ListEdit.remove { $0.indexesForCloseAllRegular() })
    }

    /// Closes every regular (unpinned) tab, on the store's writer queue.
    public func closeAllRegular(in browser: BrowserID) async throws {
        try await update(browser, ListEdit.remove { $0.indexesForCloseAllRegular() })
    }

    /// Closes every tab of a group.
    public func closeGroup(_ group: TabGroupID, in browser: BrowserID) throws {
        try update(browser, ListEdit.remove { try $0.indexesForClosingGroup(group) })
    }

    /// Closes every tab of a group, on the store's writer queue.
    public func closeGroup(_ group: TabGroupID, in browser: BrowserID) async throws {
        try await update(browser, ListEdit.remove { try $0.indexesForClosingGroup(group) })
    }

    /// Closes every regular tab except the one at `index`; pinned tabs stay.
    public func closeOthers(in browser: BrowserID, keeping index: Int) throws {
        try update(browser, ListEdit.remove { try $0.indexesForClosingOthers(keeping: index) })
    }

    /// Closes every regular tab except the one at `index`, on the store's writer queue.
    public func closeOthers(in browser: BrowserID, keeping index: Int) async throws {
        try await update(browser, ListEdit.remove { try $0.indexesForClosingOthers(keeping: index) })
    }

    /// Activates the tab at `index`, or none.
    public func activate(in browser: BrowserID, at index: Int?) throws {
        try update(browser, ListEdit.activate(index))
    }

    /// Activates the tab at `index`, or none, on the store's writer queue.
    public func activate(in browser: BrowserID, at index: Int?) async throws {
        try await update(browser, ListEdit.activate(index))
    }

    /// Pins or unpins the tab at `index` and returns its new index.
    @discardableResult
    public func setPinned(_ pinned: Bool, in browser: BrowserID, at index: Int) throws -> Int {
        try update(browser, ListEdit.setPinned(pinned, index))
    }

    /// Pins or unpins the tab at `index` and returns its new index, on the store's writer queue.
    @discardableResult
    public func setPinned(_ pinned: Bool, in browser: BrowserID, at index: Int) async throws -> Int {
        try await update(browser, ListEdit.setPinned(pinned, index))
    }

    /// Creates a group from the tabs at `indexes` and returns its identifier.
    @discardableResult
    public func createGroup(
        in browser: BrowserID, at indexes: [Int], visualData: TabGroupVisualData
    ) throws -> TabGroupID {
        try update(browser, ListEdit.createGroup(indexes, visualData))
    }

    /// Creates a group from the tabs at `indexes` and returns its identifier, on the store's writer queue.
    @discardableResult
    public func createGroup(
        in browser: BrowserID, at indexes: [Int], visualData: TabGroupVisualData
    ) async throws -> TabGroupID {
        try await update(browser, ListEdit.createGroup(indexes, visualData))
    }

    /// Changes a group's title, colour or collapsed state.
    public func updateGroup(_ group: TabGroupID, in browser: BrowserID, visualData: TabGroupVisualData) throws {
        try update(browser, ListEdit.updateGroup(group, visualData))
    }

    /// Changes a group's title, colour or collapsed state, on the store's writer queue.
    public func updateGroup(_ group: TabGroupID, in browser: BrowserID, visualData: TabGroupVisualData) async throws {
        try await update(browser, ListEdit.updateGroup(group, visualData))
    }

    /// Moves the tabs at `indexes` into a group.
    public func moveToGroup(_ indexes: [Int], group: TabGroupID, in browser: BrowserID) throws {
        try update(browser, ListEdit.moveToGroup(indexes, group))
    }

    /// Moves the tabs at `indexes` into a group, on the store's writer queue.
    public func moveToGroup(_ indexes: [Int], group: TabGroupID, in browser: BrowserID) async throws {
        try await update(browser, ListEdit.moveToGroup(indexes, group))
    }

    /// Takes the tabs at `indexes` out of their groups.
    public func removeFromGroups(_ indexes: [Int], in browser: BrowserID) throws {
        try update(browser, ListEdit.removeFromGroups(indexes))
    }

    /// Takes the tabs at `indexes` out of their groups, on the store's writer queue.
    public func removeFromGroups(_ indexes: [Int], in browser: BrowserID) async throws {
        try await update(browser, ListEdit.removeFromGroups(indexes))
    }

    /// Moves a whole group before `index`.
    public func moveGroup(_ group: TabGroupID, in browser: BrowserID, before index: Int) throws {
        try update(browser, ListEdit.moveGroup(group, index))
    }

    /// Moves a whole group before `index`, on the store's writer queue.
    public func moveGroup(_ group: TabGroupID, in browser: BrowserID, before index: Int) async throws {
        try await update(browser, ListEdit.moveGroup(group, index))
    }

    /// Deletes a group, leaving its tabs in place, ungrouped.
    public func deleteGroup(_ group: TabGroupID, in browser: BrowserID) throws {
        try update(browser, ListEdit.deleteGroup(group))
    }

    /// Deletes a group, leaving its tabs in place, ungrouped, on the store's writer queue.
    public func deleteGroup(_ group: TabGroupID, in browser: BrowserID) async throws {
        try await update(browser, ListEdit.deleteGroup(group))
    }
}

/// The list edits behind the conveniences, shared by their two forms.
enum ListEdit {
    typealias Edit<T> = @Sendable (inout WebStateList) throws -> T

    static func insert(_ webState: WebState, _ params: InsertionParams) -> Edit<Int> {
        { try $0.insert(webState, params: params).index }
    }

    static func move(_ from: Int, _ to: Int) -> Edit<Void> {
        { _ = try $0.move(from: from, to: to) }
    }

    static func replace(_ index: Int, _ webState: WebState) -> Edit<Void> {
        { _ = try $0.replace(at: index, with: webState) }
    }

    static func remove(at index: Int) -> Edit<Void> {
        { _ = try $0.remove(at: index) }
    }

    static func remove(_ indexes: @escaping @Sendable (WebStateList) throws -> RemovingIndexes) -> Edit<Void> {
        { _ = try $0.remove(try indexes($0)) }
    }

    static func activate(_ index: Int?) -> Edit<Void> {
        { _ = try $0.activate(at: index) }
    }

    static func setPinned(_ pinned: Bool, _ index: Int) -> Edit<Int> {
        { try $0.setPinned(pinned, at: index).index }
    }

    static func createGroup(_ indexes: [Int], _ visualData: TabGroupVisualData) -> Edit<TabGroupID> {
        { try $0.createGroup(at: indexes, visualData: visualData).group }
    }

    static func updateGroup(_ group: TabGroupID, _ visualData: TabGroupVisualData) -> Edit<Void> {
        { _ = try $0.updateGroup(group, visualData: visualData) }
    }

    static func moveToGroup(_ indexes: [Int], _ group: TabGroupID) -> Edit<Void> {
        { _ = try $0.moveToGroup(indexes, group: group) }
    }

    static func removeFromGroups(_ indexes: [Int]) -> Edit<Void> {
        { _ = try $0.removeFromGroups(indexes) }
    }

    static func moveGroup(_ group: TabGroupID, _ index: Int) -> Edit<Void> {
        { _ = try $0.moveGroup(group, before: index) }
    }

    static func deleteGroup(_ group: TabGroupID) -> Edit<Void> {
        { _ = try $0.deleteGroup(group) }
    }
}
