import SessionModel

/// Recently closed tabs, groups and windows, and bringing them back.
///
/// Entries are recorded by the other repositories: closing tabs through
/// ``WebStateListRepository`` records one entry per tab, or one group entry
/// when every tab of a group closes together; closing a browser through
/// ``BrowserRepository`` records a window. The store keeps the most recent
/// entries up to its cap (25 by default) and drops entries older than its
/// lifetime (14 days by default), both applied whenever an entry is recorded.
///
/// Every call has a synchronous and an `async` form of the same name, and can
/// throw the storage errors listed in ``WebStateListRepository``.
///
/// ## Topics
/// - ``entries()``
/// - ``restore(_:)``
/// - ``forget(_:)``
/// - ``forgetAll()``
/// - ``pruneExpired()``
/// - ``observe(onChange:)``
public protocol RecentlyClosedRepository: Sendable {
    /// Every entry, the most recently closed first.
    func entries() throws -> [RecentlyClosedEntry]

    /// Every entry, the most recently closed first, read off the caller's thread.
    func entries() async throws -> [RecentlyClosedEntry]

    /// Brings an entry back and removes it from the list.
    ///
    /// A tab returns to its original index in its original browser when that
    /// browser is still open (into its group if the group still exists), else
    /// into a new browser; a group returns as a group; a window returns with
    /// all its tabs and its active tab. The restored tab (or the group's first
    /// tab) becomes active.
    ///
    /// - Returns: The browser the entry was restored into.
    /// - Throws: ``StorageError/unknownClosedEntry(_:)``.
    @discardableResult
    func restore(_ id: ClosedEntryID) throws -> BrowserID

    /// Brings an entry back, on the store's writer queue; see the synchronous form.
    ///
    /// - Returns: The browser the entry was restored into.
    /// - Throws: ``StorageError/unknownClosedEntry(_:)``, `CancellationError` before the write started.
    @discardableResult
    func restore(_ id: ClosedEntryID) async throws -> BrowserID

    /// Deletes one entry and everything it holds.
    ///
    /// Nothing of it stays in the file (its pages leave the search index's segments)
    /// nor in the store's rolling snapshots: as when clearing browsing data, every
    /// snapshot that holds one of its tabs is deleted and a fresh one taken.
    ///
    /// - Throws: ``StorageError/unknownClosedEntry(_:)``.
    func forget(_ id: ClosedEntryID) throws

    /// Deletes one entry and everything it holds, on the store's writer queue.
    ///
    /// - Throws: ``StorageError/unknownClosedEntry(_:)``, `CancellationError` before the write started.
    func forget(_ id: ClosedEntryID) async throws

    /// Deletes every entry.
    func forgetAll() throws

    /// Deletes every entry, on the store's writer queue.
    func forgetAll() async throws

    /// Applies the cap and lifetime now (they are otherwise applied when an entry is recorded).
    ///
    /// When entries go, the search index drops their pages' words, the WAL is
    /// folded back (waiting 100 ms at most for other processes' reads), and every
    /// snapshot that holds one of their tabs is deleted, then a fresh one taken.
    ///
    /// - Returns: How many entries were deleted.
    @discardableResult
    func pruneExpired() throws -> Int

    /// Applies the cap and lifetime now, on the store's writer queue.
    ///
    /// - Returns: How many entries were deleted.
    @discardableResult
    func pruneExpired() async throws -> Int

    /// Observes ``entries()``: the current value first, then one value per
    /// committed change that altered it, on a private serial queue.
    func observe(onChange: @escaping @Sendable (Result<[RecentlyClosedEntry], any Error>) -> Void)
        -> any StoreObservation
}
