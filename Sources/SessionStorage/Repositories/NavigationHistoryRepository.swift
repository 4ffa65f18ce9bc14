import Foundation
import SessionModel

/// Each tab's back/forward history, its optional engine state, and clearing browsing data.
///
/// Every call is one transaction, in a synchronous and an `async` form of the
/// same name (see ``WebStateListRepository`` for threading, cancellation and the
/// storage errors every call can throw). Histories keep at most the store's
/// configured number of entries (75 by default), trimming the entries farthest
/// from the current one; the current entry is never trimmed.
///
/// ## Topics
/// ### Reading
/// - ``history(of:)``
/// - ``observe(_:onChange:)``
/// ### Navigating
/// - ``update(_:_:)``
/// - ``commit(_:in:)``
/// ### Engine state
/// - ``setEngineState(_:for:)``
/// - ``engineState(of:)``
/// ### Clearing browsing data
/// - ``clearBrowsingData(_:)``
public protocol NavigationHistoryRepository: Sendable {
    /// The tab's history (open or recently closed tab).
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``.
    func history(of tab: WebStateID) throws -> NavigationHistory

    /// The tab's history, read off the caller's thread.
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``.
    func history(of tab: WebStateID) async throws -> NavigationHistory

    /// Applies `body` to the tab's history and persists the result in one
    /// transaction, writing only the entries that changed. The tab's
    /// `current_entry_index` follows, so openers see the new history index.
    ///
    ///     try history.update(tab) { try $0.commit(NavigationItem(url: "https://example.org/")) }
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``, `NavigationHistoryError` from `body`.
    @discardableResult
    func update<T>(_ tab: WebStateID, _ body: (inout NavigationHistory) throws -> T) throws -> T

    /// Applies `body` to the tab's history in one transaction on the store's writer queue.
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``, `NavigationHistoryError` from `body`,
    ///   `CancellationError` if the task was cancelled before the write started.
    @discardableResult
    func update<T: Sendable>(_ tab: WebStateID, _ body: @escaping @Sendable (inout NavigationHistory) throws -> T)
        async throws -> T

    /// Commits a new navigation in one transaction, as `NavigationHistory.commit(_:)`
    /// does: forward entries are dropped, `item` appended and made current, and the
    /// oldest entries past the store's maximum trimmed. The entries already stored
    /// are not read back.
    ///
    /// - Returns: What changed, trimming included: removed indexes into the history
    ///   before, the new entry's index after.
    /// - Throws: ``StorageError/unknownTab(_:)``, `NavigationHistoryError` when `item` is invalid.
    @discardableResult
    func commit(_ item: NavigationItem, in tab: WebStateID) throws -> NavigationHistoryChange

    /// Commits a new navigation, on the store's writer queue.
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``, `NavigationHistoryError` when `item` is invalid,
    ///   `CancellationError` if the task was cancelled before the write started.
    @discardableResult
    func commit(_ item: NavigationItem, in tab: WebStateID) async throws -> NavigationHistoryChange

    /// Stores the tab's opaque engine state (WebKit's interaction state), or removes it with `nil`.
    ///
    /// A blob larger than the store's cap (5 MiB by default) is dropped, never
    /// truncated: the previous state is removed too and the result says so.
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``.
    func setEngineState(_ data: Data?, for tab: WebStateID) throws -> EngineStateWrite

    /// Stores or removes the tab's engine state, on the store's writer queue.
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``, `CancellationError` before the write started.
    func setEngineState(_ data: Data?, for tab: WebStateID) async throws -> EngineStateWrite

    /// The tab's engine state, if any. Reading tab lists never loads it.
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``.
    func engineState(of tab: WebStateID) throws -> Data?

    /// The tab's engine state, if any, read off the caller's thread.
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``.
    func engineState(of tab: WebStateID) async throws -> Data?

    /// Deletes history entries across every tab, open or closed, keeping every
    /// history valid (a current entry that goes is replaced by its nearest survivor).
    /// A tab that lost entries loses its engine state too (it holds the same pages),
    /// and an entry that survives no longer names a cleared page as its referrer.
    ///
    /// With sync on, the tabs that lost entries are sent again without them, and
    /// other devices' tabs that show a cleared page anywhere in their navigations
    /// leave this store's cache of remote tabs, in the same transaction; so do
    /// queued commands that name a cleared page.
    ///
    /// Once committed, the WAL is folded back into the file and truncated
    /// (waiting for other connections' reads up to the busy timeout), and every
    /// snapshot that holds a cleared page is deleted, then a fresh one taken.
    ///
    /// - Returns: How many entries were deleted.
    @discardableResult
    func clearBrowsingData(_ filter: BrowsingDataFilter) throws -> Int

    /// Deletes history entries across every tab, on the store's writer queue.
    ///
    /// - Returns: How many entries were deleted.
    @discardableResult
    func clearBrowsingData(_ filter: BrowsingDataFilter) async throws -> Int

    /// Observes the tab's history: the current value first, then one value per
    /// committed change that altered it, on a private serial queue.
    func observe(
        _ tab: WebStateID, onChange: @escaping @Sendable (Result<NavigationHistory, any Error>) -> Void
    ) -> any StoreObservation
}

/// What ``NavigationHistoryRepository/setEngineState(_:for:)`` did.
public enum EngineStateWrite: Hashable, Sendable {
    /// The state was stored (or removed, for `nil`).
    case stored
    /// The blob was over the cap and was dropped, not truncated; the tab has no engine state now.
    case droppedTooLarge(bytes: Int, limit: Int)
}

/// Which history entries "clear browsing data" deletes.
public enum BrowsingDataFilter: Hashable, Sendable {
    /// Every entry whose URL is exactly this one.
    case url(String)
    /// Every entry whose URL's host is this one (e.g. `example.org`).
    case host(String)
    /// Every entry visited in this time range.
    case timeRange(ClosedRange<Date>)
    /// Every entry of one browser's tabs: its open tabs and the tabs and groups
    /// it closed that wait in recently closed.
    case browser(BrowserID)
    /// Every entry.
    case all
}

/// One-navigation conveniences: each is one ``NavigationHistoryRepository/update(_:_:)``
/// transaction, in a synchronous and an `async` form of the same name.
///
/// Each throws ``StorageError/unknownTab(_:)`` for a tab the store does not have
/// and `NavigationHistoryError` when the history cannot move that way.
extension NavigationHistoryRepository {
    /// Goes back one entry.
    public func goBack(in tab: WebStateID) throws {
        try update(tab, HistoryEdit.goBack)
    }

    /// Goes back one entry, on the store's writer queue.
    public func goBack(in tab: WebStateID) async throws {
        try await update(tab, HistoryEdit.goBack)
    }

    /// Goes forward one entry.
    public func goForward(in tab: WebStateID) throws {
        try update(tab, HistoryEdit.goForward)
    }

    /// Goes forward one entry, on the store's writer queue.
    public func goForward(in tab: WebStateID) async throws {
        try await update(tab, HistoryEdit.goForward)
    }

    /// Makes the entry at `index` current.
    public func go(to index: Int, in tab: WebStateID) throws {
        try update(tab, HistoryEdit.go(to: index))
    }

    /// Makes the entry at `index` current, on the store's writer queue.
    public func go(to index: Int, in tab: WebStateID) async throws {
        try await update(tab, HistoryEdit.go(to: index))
    }

    /// Replaces the current entry (a redirect or replaceState), keeping the index.
    public func replaceCurrent(with item: NavigationItem, in tab: WebStateID) throws {
        try update(tab, HistoryEdit.replaceCurrent(with: item))
    }

    /// Replaces the current entry, keeping the index, on the store's writer queue.
    public func replaceCurrent(with item: NavigationItem, in tab: WebStateID) async throws {
        try await update(tab, HistoryEdit.replaceCurrent(with: item))
    }

    /// Sets an entry's title and/or favicon after the fact.
    public func updateItem(at index: Int, in tab: WebStateID, title: String?, faviconURL: String?? = nil) throws {
        try update(tab, HistoryEdit.updateItem(at: index, title: title, faviconURL: faviconURL))
    }

    /// Sets an entry's title and/or favicon after the fact, on the store's writer queue.
    public func updateItem(
        at index: Int, in tab: WebStateID, title: String?, faviconURL: String?? = nil
    ) async throws {
        try await update(tab, HistoryEdit.updateItem(at: index, title: title, faviconURL: faviconURL))
    }

    /// The tab's history as an asynchronous sequence; see ``observe(_:onChange:)``.
    ///
    /// It starts with the current history, finishes normally when the tab no
    /// longer exists, and throws ``StorageError`` when the store cannot be read.
    public func histories(of tab: WebStateID) -> AsyncThrowingStream<NavigationHistory, any Error> {
        StoreObservationStream.make { observe(tab, onChange: $0) }
    }
}

/// The history edits behind the conveniences, shared by their two forms.
enum HistoryEdit {
    typealias Edit<T> = @Sendable (inout NavigationHistory) throws -> T

    static let goBack: Edit<Void> = { _ = try $0.goBack() }

    static let goForward: Edit<Void> = { _ = try $0.goForward() }

    static func go(to index: Int) -> Edit<Void> {
        { _ = try $0.go(to: index) }
    }

    static func replaceCurrent(with item: NavigationItem) -> Edit<Void> {
        { _ = try $0.replaceCurrent(with: item) }
    }

    static func updateItem(at index: Int, title: String?, faviconURL: String??) -> Edit<Void> {
        { _ = try $0.updateItem(at: index, title: title, faviconURL: faviconURL) }
    }
}
