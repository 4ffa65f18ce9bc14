import Foundation
import SessionModel

/// Each tab's back/forward history, its optional engine state, and clearing browsing data.
///
/// Every call is one transaction. Histories keep at most the store's
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

    /// Applies `body` to the tab's history and persists the result in one
    /// transaction, writing only the entries that changed. The tab's
    /// `current_entry_index` follows, so openers see the new history index.
    ///
    ///     try history.update(tab) { try $0.commit(NavigationItem(url: "https://example.org/")) }
    ///
    /// - Throws: ``StorageError/unknownTab(_:)``, `NavigationHistoryError` from `body`.
    @discardableResult
    func update<T>(_ tab: WebStateID, _ body: (inout NavigationHistory) throws -> T) throws -> T

    /// Stores the tab's opaque engine state (WebKit's interaction state), or removes it with `nil`.
    ///
    /// A blob larger than the store's cap (5 MiB by default) is dropped, never
    /// truncated: the previous state is removed too and the result says so.
    func setEngineState(_ data: Data?, for tab: WebStateID) throws -> EngineStateWrite

    /// The tab's engine state, if any. Reading tab lists never loads it.
    func engineState(of tab: WebStateID) throws -> Data?

    /// Deletes history entries across every tab, open or closed, keeping every
    /// history valid (a current entry that goes is replaced by its nearest survivor).
    ///
    /// - Returns: How many entries were deleted.
    @discardableResult
    func clearBrowsingData(_ filter: BrowsingDataFilter) throws -> Int

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
    /// Every entry.
    case all
}

extension NavigationHistoryRepository {
    /// Commits a new navigation: forward entries are dropped, `item` appended and made current.
    @discardableResult
    public func commit(_ item: NavigationItem, in tab: WebStateID) throws -> NavigationHistory {
        try update(tab) { history in
            try history.commit(item)
            return history
        }
    }

    /// Goes back one entry.
    public func goBack(in tab: WebStateID) throws {
        try update(tab) { _ = try $0.goBack() }
    }

    /// Goes forward one entry.
    public func goForward(in tab: WebStateID) throws {
        try update(tab) { _ = try $0.goForward() }
    }

    /// Makes the entry at `index` current.
    public func go(to index: Int, in tab: WebStateID) throws {
        try update(tab) { _ = try $0.go(to: index) }
    }

    /// Replaces the current entry (a redirect or replaceState), keeping the index.
    public func replaceCurrent(with item: NavigationItem, in tab: WebStateID) throws {
        try update(tab) { _ = try $0.replaceCurrent(with: item) }
    }

    /// Sets an entry's title and/or favicon after the fact.
    public func updateItem(at index: Int, in tab: WebStateID, title: String?, faviconURL: String?? = nil) throws {
        try update(tab) { _ = try $0.updateItem(at: index, title: title, faviconURL: faviconURL) }
    }

    /// The tab's history as an asynchronous sequence; see ``observe(_:onChange:)``.
    public func histories(of tab: WebStateID) -> AsyncThrowingStream<NavigationHistory, any Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let observation = observe(tab) { result in
                switch result {
                case .success(let value): continuation.yield(value)
                case .failure(let error): continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }
}
