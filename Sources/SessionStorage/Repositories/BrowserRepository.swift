import SessionModel

/// The browsers (windows) of a store.
///
/// Implementations are thread-safe; every call is one transaction.
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

    /// Every open browser, the most recently active first.
    func browsers() throws -> [Browser]

    /// The open browser with this identifier, or `nil`.
    func browser(_ id: BrowserID) throws -> Browser?

    /// Records that the browser became the active window now.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func markActive(_ id: BrowserID) throws

    /// Closes the browser and every tab in it, recording a restorable window
    /// in ``RecentlyClosedRepository``.
    ///
    /// - Throws: ``StorageError/unknownBrowser(_:)``.
    func closeBrowser(_ id: BrowserID) throws

    /// Every open browser with its tab count and active tab, most recently active first.
    func browserSummaries() throws -> [BrowserSummary]

    /// Observes ``browserSummaries()``: the current value first, then one value
    /// per committed change that altered it, on a private serial queue.
    func observeBrowsers(
        onChange: @escaping @Sendable (Result<[BrowserSummary], any Error>) -> Void
    ) -> any StoreObservation
}

extension BrowserRepository {
    /// ``browserSummaries()`` as an asynchronous sequence of values.
    public func browserSummarySequence() -> AsyncThrowingStream<[BrowserSummary], any Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let observation = observeBrowsers { result in
                switch result {
                case .success(let value): continuation.yield(value)
                case .failure(let error): continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in observation.cancel() }
        }
    }
}
