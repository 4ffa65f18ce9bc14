import SessionModel

/// Saved tab groups: groups closed and kept with their tabs and histories, listed, renamed,
/// deleted and reopened (<doc:TabListRules>, Saved groups). Kept on this device.
///
/// A saved group is not a recently closed entry: it counts toward no cap and never expires.
/// Every call has a synchronous and an `async` form of the same name.
///
/// ## Topics
/// - ``saveAndClose(_:in:)``
/// - ``savedGroups()``
/// - ``update(_:visualData:)``
/// - ``moveTab(in:from:to:)``
/// - ``removeTab(at:from:)``
/// - ``delete(_:)``
/// - ``reopen(_:in:)``
/// - ``observe(onChange:)``
public protocol SavedTabGroupRepository: Sendable {
    /// Closes group `group` of `browser` and keeps it, with its tabs, as a saved group.
    ///
    /// The tabs leave the window as a closed group's do (the removal rules choose the next
    /// active tab; tabs whose opener was in the group lose it), but no recently closed entry
    /// is recorded.
    /// - Throws: ``StorageError/unknownBrowser(_:)``; `WebStateListError.unknownGroup(_:)`.
    @discardableResult
    func saveAndClose(_ group: TabGroupID, in browser: BrowserID) throws -> SavedTabGroup

    /// ``saveAndClose(_:in:)``, off the caller's thread.
    @discardableResult
    func saveAndClose(_ group: TabGroupID, in browser: BrowserID) async throws -> SavedTabGroup

    /// Every saved group, the most recently saved first.
    func savedGroups() throws -> [SavedTabGroup]

    /// Every saved group, read off the caller's thread.
    func savedGroups() async throws -> [SavedTabGroup]

    /// Renames or recolours saved group `group`.
    /// - Throws: `WebStateListError.unknownGroup(_:)` when no saved group has that identifier.
    func update(_ group: TabGroupID, visualData: TabGroupVisualData) throws

    /// ``update(_:visualData:)``, off the caller's thread.
    func update(_ group: TabGroupID, visualData: TabGroupVisualData) async throws

    /// Moves the tab at index `from` of saved group `group` to index `to` (the indexes of the
    /// group's tabs before the move, as ``savedGroups()`` lists them).
    /// - Throws: `WebStateListError.unknownGroup(_:)`; `WebStateListError.indexOutOfRange(index:count:)`.
    func moveTab(in group: TabGroupID, from: Int, to: Int) throws

    /// ``moveTab(in:from:to:)``, off the caller's thread.
    func moveTab(in group: TabGroupID, from: Int, to: Int) async throws

    /// Removes the tab at `index` from saved group `group`, and deletes it with its history.
    /// Removing its last tab deletes the group, as ``delete(_:)`` does: a group holds a tab or more.
    /// - Throws: `WebStateListError.unknownGroup(_:)`; `WebStateListError.indexOutOfRange(index:count:)`.
    func removeTab(at index: Int, from group: TabGroupID) throws

    /// ``removeTab(at:from:)``, off the caller's thread.
    func removeTab(at index: Int, from group: TabGroupID) async throws

    /// Deletes saved group `group` and its tabs, histories included.
    /// - Throws: `WebStateListError.unknownGroup(_:)` when no saved group has that identifier.
    func delete(_ group: TabGroupID) throws

    /// ``delete(_:)``, off the caller's thread.
    func delete(_ group: TabGroupID) async throws

    /// Opens saved group `group` at the end of `browser`'s list, in its order, with its title
    /// and colour; it is no longer saved.
    /// - Returns: The indexes of its tabs in the window.
    /// - Throws: `WebStateListError.unknownGroup(_:)`; ``StorageError/unknownBrowser(_:)``.
    @discardableResult
    func reopen(_ group: TabGroupID, in browser: BrowserID) throws -> Range<Int>

    /// ``reopen(_:in:)``, off the caller's thread.
    @discardableResult
    func reopen(_ group: TabGroupID, in browser: BrowserID) async throws -> Range<Int>

    /// Observes the saved groups: `onChange` gets them now and after every change, whoever
    /// makes it, on a background queue, in order, coalesced.
    func observe(onChange: @escaping @Sendable (Result<[SavedTabGroup], any Error>) -> Void) -> any StoreObservation
}
