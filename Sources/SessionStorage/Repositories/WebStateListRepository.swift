import SessionModel

/// The tab lists of a store's browsers, with Chromium's WebStateList rules.
///
/// Every mutation is one transaction: it reads the browser's current list
/// (from a cache that is checked against the database, so another process's
/// write is never overwritten), applies the tab-list rules (<doc:TabListRules>) through the
/// model's `WebStateList`, and writes only the rows that changed.
///
/// The list is not re-entrant: calling the repository from inside ``update(_:_:)``'s
/// closure throws `WebStateListError.reentrantMutation`.
///
/// ## Topics
/// ### Reading
/// - ``webStateList(in:)``
/// ### Changing
/// - ``update(_:_:)``
/// - ``insert(_:in:params:navigatingTo:)``
/// - ``moveWebState(_:to:params:)``
public protocol WebStateListRepository: Sendable {
    /// The browser's tab list as stored now.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func webStateList(in browser: BrowserID) throws -> WebStateList

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

    /// Moves a tab, with its history and engine state, to another browser in one transaction.
    ///
    /// The tab leaves its list as a removal does (its children lose their
    /// opener, the next active tab is chosen), then is inserted into the other
    /// list with `params` (its own opener is dropped).
    ///
    /// - Returns: The tab's index in the target list.
    /// - Throws: ``StorageError/unknownTab(_:)``, ``StorageError/unknownBrowser(_:)``,
    ///   `WebStateListError` for bad parameters.
    /// Opens a tab on its first page: inserts it by the insertion rules and
    /// commits `item` as its first history entry, in one transaction.
    ///
    /// - Returns: The tab's index.
    /// - Throws: ``StorageError/unknownBrowser(_:)``, `WebStateListError`,
    ///   `NavigationHistoryError` for an invalid item.
    @discardableResult
    func insert(_ webState: WebState, in browser: BrowserID, params: InsertionParams, navigatingTo item: NavigationItem)
        throws -> Int

    @discardableResult
    func moveWebState(_ id: WebStateID, to browser: BrowserID, params: InsertionParams) throws -> Int

    /// The browser's list with each tab's current page, as stored now.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func snapshot(of browser: BrowserID) throws -> WebStateListSnapshot

    /// Observes the browser's list with each tab's current page.
    ///
    /// `onChange` receives the current snapshot first, then one snapshot per
    /// committed change that altered it (see ``StoreObservationDelivery``), on a
    /// private serial queue; a failure (such as the browser being closed) is
    /// delivered as `.failure`.
    func observe(
        _ browser: BrowserID, onChange: @escaping @Sendable (Result<WebStateListSnapshot, any Error>) -> Void
    ) -> any StoreObservation
}

extension WebStateListRepository {
    /// The browser's snapshots as an asynchronous sequence; see ``observe(_:onChange:)``.
    ///
    /// The observation stops when the sequence's consumer stops iterating.
    public func snapshots(of browser: BrowserID) -> AsyncThrowingStream<WebStateListSnapshot, any Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let observation = observe(browser) { result in
                switch result {
                case .success(let snapshot): continuation.yield(snapshot)
                case .failure(let error): continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }
}
