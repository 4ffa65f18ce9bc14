import SessionModel

/// The tab lists of a store's browsers, with Chromium's WebStateList rules.
///
/// Every mutation is one transaction: it reads the browser's current list
/// (from a cache that is checked against the database, so another process's
/// write is never overwritten), applies the tab-list rules (<doc:TabListRules>)
/// through the model's `WebStateList`, and writes only the rows that changed.
///
/// Every call has two forms of the same name. An app awaits the `async` one: it
/// runs on the store's writer queue, so a caller on the main actor only hands it
/// over; if its task is cancelled before the write starts, the write never
/// happens and it throws `CancellationError`; once started, the write completes
/// and is kept. The synchronous one blocks the caller's thread, for as long as
/// another process holds the write lock (up to the busy timeout): for tools,
/// tests and background threads.
///
/// The list is not re-entrant: calling the repository from inside ``update(_:_:)``'s
/// closure throws `WebStateListError.reentrantMutation`.
///
/// Every call can also throw ``StorageError/closed(path:)`` after the store is
/// closed, ``StorageError/busy(path:)`` when another process holds the write lock
/// beyond the busy timeout, and ``StorageError/fileMovedOrDeleted(path:)``,
/// ``StorageError/readOnly(path:reason:)`` or ``StorageError/sqlite(path:operation:reason:)``
/// when the file cannot be written.
///
/// ## Topics
/// ### Reading
/// - ``webStateList(in:)``
/// - ``snapshot(of:)``
/// ### Changing
/// - ``update(_:_:)``
/// - ``insert(_:in:params:navigatingTo:)``
/// - ``moveWebState(_:to:params:)``
/// ### Observing
/// - ``observe(_:onChange:)``
/// - ``snapshots(of:)``
public protocol WebStateListRepository: Sendable {
    /// The browser's tab list as stored now.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func webStateList(in browser: BrowserID) throws -> WebStateList

    /// The browser's tab list as stored now, read off the caller's thread.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func webStateList(in browser: BrowserID) async throws -> WebStateList

    /// Applies `body` to the browser's list and persists the result in one
    /// transaction: a batch of mutations, observed as one change.
    ///
    /// Tabs that `body` removes are closed. When the active tab changes, the
    /// new active tab's last-active time becomes now. If `body` throws, nothing
    /// is written.
    ///
    ///     try tabs.update(browser) { list in
    ///         try list.insert(WebState(), params: .automatic().activate())
    ///         try list.setPinned(true, at: 0)
    ///     }
    ///
    /// - Returns: What `body` returns.
    /// - Throws: ``StorageError/unknownBrowser(_:)``, what `body` throws
    ///   (`WebStateListError` for a broken rule), `WebStateListError.reentrantMutation`.
    @discardableResult
    func update<T>(_ browser: BrowserID, _ body: (inout WebStateList) throws -> T) throws -> T

    /// Applies `body` to the browser's list in one transaction on the store's
    /// writer queue; see ``update(_:_:)``.
    ///
    ///     try await tabs.update(browser) { list in
    ///         try list.insert(WebState(), params: .automatic().activate())
    ///     }
    ///
    /// - Returns: What `body` returns.
    /// - Throws: ``StorageError/unknownBrowser(_:)``, what `body` throws,
    ///   `CancellationError` if the task was cancelled before the write started.
    @discardableResult
    func update<T: Sendable>(
        _ browser: BrowserID, _ body: @escaping @Sendable (inout WebStateList) throws -> T
    ) async throws -> T

    /// Opens a tab on its first page: inserts it by the insertion rules and
    /// commits `item` as its first history entry, in one transaction.
    ///
    /// - Returns: The tab's index.
    /// - Throws: ``StorageError/unknownBrowser(_:)``, `WebStateListError`,
    ///   `NavigationHistoryError` for an invalid item.
    @discardableResult
    func insert(_ webState: WebState, in browser: BrowserID, params: InsertionParams, navigatingTo item: NavigationItem)
        throws -> Int

    /// Opens a tab on its first page, on the store's writer queue; see the synchronous form.
    ///
    /// - Returns: The tab's index.
    /// - Throws: ``StorageError/unknownBrowser(_:)``, `WebStateListError`,
    ///   `NavigationHistoryError` for an invalid item, `CancellationError` if
    ///   the task was cancelled before the write started.
    @discardableResult
    func insert(_ webState: WebState, in browser: BrowserID, params: InsertionParams, navigatingTo item: NavigationItem)
        async throws -> Int

    /// Moves a tab, with its history and engine state, to another browser in one transaction.
    ///
    /// The tab leaves its list as a removal does (its children lose their
    /// opener, the next active tab is chosen), then is inserted into the other
    /// list with `params` (its own opener is dropped).
    ///
    /// - Returns: The tab's index in the target list.
    /// - Throws: ``StorageError/unknownTab(_:)``, ``StorageError/unknownBrowser(_:)``,
    ///   `WebStateListError` for bad parameters or a move into the tab's own browser.
    @discardableResult
    func moveWebState(_ id: WebStateID, to browser: BrowserID, params: InsertionParams) throws -> Int

    /// Moves a tab to another browser, on the store's writer queue; see the synchronous form.
    ///
    /// - Returns: The tab's index in the target list.
    /// - Throws: ``StorageError/unknownTab(_:)``, ``StorageError/unknownBrowser(_:)``,
    ///   `WebStateListError`, `CancellationError` if the task was cancelled before the write started.
    @discardableResult
    func moveWebState(_ id: WebStateID, to browser: BrowserID, params: InsertionParams) async throws -> Int

    /// The browser's list with each tab's current page, as stored now.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func snapshot(of browser: BrowserID) throws -> WebStateListSnapshot

    /// The browser's list with each tab's current page, read off the caller's thread.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func snapshot(of browser: BrowserID) async throws -> WebStateListSnapshot

    /// Observes the browser's list with each tab's current page.
    ///
    /// `onChange` receives the current snapshot first, then one snapshot per
    /// committed change that altered it (see ``StoreObservationDelivery``), on a
    /// private serial queue; a failure (such as the browser being closed, which
    /// is ``StorageError/unknownBrowser(_:)``) is delivered as `.failure`, and
    /// nothing follows it.
    func observe(
        _ browser: BrowserID, onChange: @escaping @Sendable (Result<WebStateListSnapshot, any Error>) -> Void
    ) -> any StoreObservation
}

extension WebStateListRepository {
    /// The browser's snapshots as an asynchronous sequence; see ``observe(_:onChange:)``.
    ///
    /// The sequence starts with the current snapshot and finishes normally when
    /// the browser is closed; it throws ``StorageError`` when the store cannot
    /// be read. The observation stops when the consumer stops iterating.
    public func snapshots(of browser: BrowserID) -> AsyncThrowingStream<WebStateListSnapshot, any Error> {
        StoreObservationStream.make { observe(browser, onChange: $0) }
    }
}
