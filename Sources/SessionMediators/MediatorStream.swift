import SessionConsumers
import SessionModel
import SessionStorage

/// One consolidated update of a tab strip, as a value: what an
/// ``WebStateListMediator/updates(of:tabs:)`` sequence yields.
public struct TabStripUpdate: Hashable, Sendable {
    /// The strip to show.
    public var snapshot: TabStripSnapshot
    /// What turns the previous strip into ``snapshot``; `nil` for the first, full strip.
    public var diff: TabStripDiff?

    /// An update showing `snapshot`, reached from the previous strip by `diff`.
    public init(snapshot: TabStripSnapshot, diff: TabStripDiff?) {
        self.snapshot = snapshot
        self.diff = diff
    }
}

/// One consolidated update of the window list, as a value: what a
/// ``BrowserListMediator/updates(browsers:)`` sequence yields.
public struct BrowserListUpdate: Hashable, Sendable {
    /// The window list to show.
    public var snapshot: BrowserListSnapshot
    /// What turns the previous list into ``snapshot``; `nil` for the first, full list.
    public var diff: BrowserListDiff?

    /// An update showing `snapshot`, reached from the previous list by `diff`.
    public init(snapshot: BrowserListSnapshot, diff: BrowserListDiff?) {
        self.snapshot = snapshot
        self.diff = diff
    }
}

extension WebStateListMediator {
    /// The updates a ``WebStateListConsumer`` of this browser would receive, as
    /// an asynchronous sequence.
    ///
    /// A mediator drives the sequence, so it yields exactly what a consumer is
    /// pushed, in the same order and with the same consolidation: the full strip
    /// first (with a `nil` diff), then one update per change the strip shows,
    /// each with the diff from the previous one. Values are produced on the main
    /// actor, whose queue must be drained (an app's run loop, `dispatchMain()`, or
    /// an async `main`). The sequence finishes normally when the browser is
    /// closed, and throws ``Unavailability`` when the store cannot be read.
    /// Ending the iteration disconnects the mediator.
    ///
    ///     for try await update in WebStateListMediator.updates(of: browser, tabs: tabs) {
    ///         print(update.snapshot)
    ///     }
    public nonisolated static func updates(
        of browser: BrowserID, tabs: any WebStateListRepository
    ) -> AsyncThrowingStream<TabStripUpdate, any Error> {
        MediatorStream.make { sink in WebStateListMediator(browser: browser, tabs: tabs, consumer: sink) }
    }
}

extension BrowserListMediator {
    /// The updates a ``BrowserListConsumer`` would receive, as an asynchronous
    /// sequence; see ``WebStateListMediator/updates(of:tabs:)``.
    ///
    /// The sequence throws ``Unavailability`` when the store cannot be read.
    public nonisolated static func updates(
        browsers: any BrowserRepository
    ) -> AsyncThrowingStream<BrowserListUpdate, any Error> {
        MediatorStream.make { sink in BrowserListMediator(browsers: browsers, consumer: sink) }
    }
}

extension NavigationHistoryMediator {
    /// The states a ``NavigationHistoryConsumer`` of this tab would receive, as an
    /// asynchronous sequence; see ``WebStateListMediator/updates(of:tabs:)``.
    ///
    /// The sequence finishes normally when the tab is closed for good (it no
    /// longer exists in the store), and throws ``Unavailability`` when the store
    /// cannot be read.
    public nonisolated static func states(
        of tab: WebStateID, histories: any NavigationHistoryRepository
    ) -> AsyncThrowingStream<NavigationHistoryState, any Error> {
        MediatorStream.make { sink in NavigationHistoryMediator(tab: tab, histories: histories, consumer: sink) }
    }
}

// MARK: - The consumer behind the sequences

/// What the sequences need of a mediator: stopping it.
@MainActor
protocol DisconnectableMediator: AnyObject {
    func disconnect()
}

extension WebStateListMediator: DisconnectableMediator {}
extension BrowserListMediator: DisconnectableMediator {}
extension NavigationHistoryMediator: DisconnectableMediator {}

/// A consumer that yields what it is pushed into a stream, and keeps its
/// mediator alive for as long as the stream is iterated.
@MainActor
final class StreamConsumer<Element: Sendable> {
    private let continuation: AsyncThrowingStream<Element, any Error>.Continuation
    var mediator: (any DisconnectableMediator)?

    init(continuation: AsyncThrowingStream<Element, any Error>.Continuation) {
        self.continuation = continuation
    }

    func yield(_ element: Element) {
        continuation.yield(element)
    }

    /// The mediator stopped: `.closed` finishes the sequence, a failure throws.
    func end(_ reason: Unavailability) {
        mediator = nil
        switch reason {
        case .closed: continuation.finish()
        case .failed: continuation.finish(throwing: reason)
        }
    }

    /// The iteration ended: stop the mediator.
    func stop() {
        mediator?.disconnect()
        mediator = nil
    }
}

extension StreamConsumer: WebStateListConsumer where Element == TabStripUpdate {
    func configure(with snapshot: TabStripSnapshot) { yield(TabStripUpdate(snapshot: snapshot, diff: nil)) }
    func update(to snapshot: TabStripSnapshot, diff: TabStripDiff) { yield(TabStripUpdate(snapshot: snapshot, diff: diff)) }
    func tabStripBecameUnavailable(_ reason: Unavailability) { end(reason) }
}

extension StreamConsumer: BrowserListConsumer where Element == BrowserListUpdate {
    func configure(with snapshot: BrowserListSnapshot) { yield(BrowserListUpdate(snapshot: snapshot, diff: nil)) }
    func update(to snapshot: BrowserListSnapshot, diff: BrowserListDiff) {
        yield(BrowserListUpdate(snapshot: snapshot, diff: diff))
    }
    func browserListBecameUnavailable(_ reason: Unavailability) { end(reason) }
}

extension StreamConsumer: NavigationHistoryConsumer where Element == NavigationHistoryState {
    func configure(with state: NavigationHistoryState) { yield(state) }
    func update(to state: NavigationHistoryState) { yield(state) }
    func historyBecameUnavailable(_ reason: Unavailability) { end(reason) }
}

/// Builds the sequences: a stream whose consumer a mediator, made on the main actor, drives.
enum MediatorStream {
    private struct State {
        var consumer: AnyObject?
        var terminated = false
    }

    static func make<Element: Sendable>(
        _ start: @escaping @MainActor @Sendable (StreamConsumer<Element>) -> any DisconnectableMediator
    ) -> AsyncThrowingStream<Element, any Error> {
        // Every update carries a diff from the previous one: none may be dropped.
        AsyncThrowingStream(bufferingPolicy: .unbounded) { continuation in
            let state = Protected(State())
            Task { @MainActor in
                let consumer = StreamConsumer<Element>(continuation: continuation)
                let begun = state.withLock { state -> Bool in
                    guard !state.terminated else { return false }
                    state.consumer = consumer
                    return true
                }
                guard begun else { return }
                consumer.mediator = start(consumer)
            }
            continuation.onTermination = { _ in
                let consumer = state.withLock { state -> AnyObject? in
                    state.terminated = true
                    defer { state.consumer = nil }
                    return state.consumer
                }
                guard let consumer else { return }
                Task { @MainActor in (consumer as? StreamConsumer<Element>)?.stop() }
            }
        }
    }
}
