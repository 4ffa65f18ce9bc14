import SessionModel

/// The browsers (windows) of a store.
///
/// Implementations are thread-safe; every call is one transaction, in an
/// `async` form (on the store's writer queue or a reader, which an app awaits;
/// see ``WebStateListRepository`` for the cancellation rule) and a synchronous
/// form of the same name, which blocks the caller's thread (for tools and tests). Every call can throw the storage errors listed
/// there (``StorageError/closed(path:)``, ``StorageError/busy(path:)``, …).
///
/// ## Topics
/// - ``createBrowser()``
/// - ``browsers()``
/// - ``browser(_:)``
/// - ``markActive(_:)``
/// - ``closeBrowser(_:)``
public protocol BrowserRepository: Sendable {
    /// Creates an empty browser and returns it.
    func createBrowser() throws -> Browser

    /// Creates an empty browser and returns it, on the store's writer queue.
    func createBrowser() async throws -> Browser

    /// Every open browser, the most recently active first.
    func browsers() throws -> [Browser]

    /// Every open browser, the most recently active first, read off the caller's thread.
    func browsers() async throws -> [Browser]

    /// The open browser with this identifier, or `nil`.
    func browser(_ id: BrowserID) throws -> Browser?

    /// The open browser with this identifier, or `nil`, read off the caller's thread.
    func browser(_ id: BrowserID) async throws -> Browser?

    /// Records that the browser became the active window now.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func markActive(_ id: BrowserID) throws

    /// Records that the browser became the active window now, on the store's writer queue.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``, `CancellationError` before the write started.
    func markActive(_ id: BrowserID) async throws

    /// Closes the browser and every tab in it, recording a restorable window
    /// in ``RecentlyClosedRepository``; a browser with no tabs is removed and
    /// records nothing.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func closeBrowser(_ id: BrowserID) throws

    /// Closes the browser and every tab in it, on the store's writer queue.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``, `CancellationError` before the write started.
    func closeBrowser(_ id: BrowserID) async throws

    /// Every open browser with its tab count and active tab, most recently active first.
    func browserSummaries() throws -> [BrowserSummary]

    /// Every open browser with its tab count and active tab, read off the caller's thread.
    func browserSummaries() async throws -> [BrowserSummary]

    /// Observes ``browserSummaries()``: the current value first, then one value
    /// per committed change that altered it, on a private serial queue.
    func observeBrowsers(
        onChange: @escaping @Sendable (Result<[BrowserSummary], any Error>) -> Void
    ) -> any StoreObservation
}

extension BrowserRepository {
    /// ``browserSummaries()`` as an asynchronous sequence of values, the current one first.
    ///
    /// It throws ``StorageError`` when the store cannot be read; ending the iteration stops the observation.
    public func browserSummarySequence() -> AsyncThrowingStream<[BrowserSummary], any Error> {
        StoreObservationStream.make { observeBrowsers(onChange: $0) }
    }
}
