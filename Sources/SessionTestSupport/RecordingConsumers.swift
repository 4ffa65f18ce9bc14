import Dispatch
import Foundation
import SessionConsumers

// Test doubles for the consumer protocols: each records every call, asserts
// that it arrives on the main queue, and lets a test await what it recorded.

// MARK: - EventLog

/// What a recording consumer received, in order, with a way to await more.
@MainActor
public final class EventLog<Event> {
    private struct Waiter {
        var predicate: ([Event]) -> Bool
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// Every event so far, oldest first.
    public private(set) var events: [Event] = []
    private var waiters: [UUID: Waiter] = [:]

    /// An empty log.
    public init() {}

    /// Records `event` and wakes the waiters it satisfies.
    public func append(_ event: Event) {
        events.append(event)
        for (id, waiter) in waiters where waiter.predicate(events) {
            waiters[id] = nil
            waiter.continuation.resume()
        }
    }

    /// Waits until `predicate` holds for the events, failing with ``TimeoutError`` after
    /// ``Patience`` times `seconds`.
    ///
    /// The main queue keeps running while this waits, so a mediator's deliveries arrive.
    public func wait(
        timeout seconds: Double = 10, for what: String = "events", until predicate: @escaping ([Event]) -> Bool
    ) async throws {
        if predicate(events) { return }
        let id = UUID()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            waiters[id] = Waiter(predicate: predicate, continuation: continuation)
            DispatchQueue.main.asyncAfter(deadline: .now() + Patience.seconds(seconds)) { [weak self] in
                MainActor.assumeIsolated {
                    guard let waiter = self?.waiters.removeValue(forKey: id) else { return }
                    waiter.continuation.resume(throwing: TimeoutError(what: what))
                }
            }
        }
    }
}

// MARK: - Tab strip

/// Records what a `WebStateListMediator` pushes; asserts main-queue delivery on every call.
@MainActor
public final class RecordingWebStateListConsumer: WebStateListConsumer {
    /// One call the consumer received.
    public enum Event: Hashable, Sendable {
        /// ``WebStateListConsumer/configure(with:)``.
        case configured(TabStripSnapshot)
        /// ``WebStateListConsumer/update(to:diff:)``.
        case updated(TabStripSnapshot, TabStripDiff)
        /// ``WebStateListConsumer/tabStripBecameUnavailable(_:)``.
        case unavailable(Unavailability)

        /// The strip the call carried, if any.
        public var snapshot: TabStripSnapshot? {
            switch self {
            case .configured(let snapshot), .updated(let snapshot, _): snapshot
            case .unavailable: nil
            }
        }
    }

    /// The calls received.
    public let log = EventLog<Event>()

    /// A consumer with nothing recorded.
    public init() {}

    /// Every call received, oldest first.
    public var events: [Event] { log.events }

    /// The last strip received.
    public var latest: TabStripSnapshot? { events.lazy.compactMap(\.snapshot).last }

    /// The number of updates received (not counting the configuration).
    public var updateCount: Int {
        events.count { if case .updated = $0 { true } else { false } }
    }

    public func configure(with snapshot: TabStripSnapshot) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(.configured(snapshot))
    }

    public func update(to snapshot: TabStripSnapshot, diff: TabStripDiff) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(.updated(snapshot, diff))
    }

    public func tabStripBecameUnavailable(_ reason: Unavailability) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(.unavailable(reason))
    }

    /// Waits until the last strip received satisfies `predicate`.
    public func waitForStrip(
        timeout seconds: Double = 10, _ what: String = "a tab strip",
        where predicate: @escaping (TabStripSnapshot) -> Bool
    ) async throws {
        try await log.wait(timeout: seconds, for: what) { events in
            events.lazy.compactMap(\.snapshot).last.map(predicate) ?? false
        }
    }
}

// MARK: - Navigation history

/// Records what a `NavigationHistoryMediator` pushes; asserts main-queue delivery on every call.
@MainActor
public final class RecordingNavigationHistoryConsumer: NavigationHistoryConsumer {
    /// One call the consumer received.
    public enum Event: Hashable, Sendable {
        /// ``NavigationHistoryConsumer/configure(with:)``.
        case configured(NavigationHistoryState)
        /// ``NavigationHistoryConsumer/update(to:)``.
        case updated(NavigationHistoryState)
        /// ``NavigationHistoryConsumer/historyBecameUnavailable(_:)``.
        case unavailable(Unavailability)

        /// The state the call carried, if any.
        public var state: NavigationHistoryState? {
            switch self {
            case .configured(let state), .updated(let state): state
            case .unavailable: nil
            }
        }
    }

    /// The calls received.
    public let log = EventLog<Event>()

    /// A consumer with nothing recorded.
    public init() {}

    /// Every call received, oldest first.
    public var events: [Event] { log.events }

    /// The last state received.
    public var latest: NavigationHistoryState? { events.lazy.compactMap(\.state).last }

    public func configure(with state: NavigationHistoryState) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(.configured(state))
    }

    public func update(to state: NavigationHistoryState) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(.updated(state))
    }

    public func historyBecameUnavailable(_ reason: Unavailability) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(.unavailable(reason))
    }

    /// Waits until the last state received satisfies `predicate`.
    public func waitForState(
        timeout seconds: Double = 10, _ what: String = "a history state",
        where predicate: @escaping (NavigationHistoryState) -> Bool
    ) async throws {
        try await log.wait(timeout: seconds, for: what) { events in
            events.lazy.compactMap(\.state).last.map(predicate) ?? false
        }
    }
}

// MARK: - Browser list

/// Records what a `BrowserListMediator` pushes; asserts main-queue delivery on every call.
@MainActor
public final class RecordingBrowserListConsumer: BrowserListConsumer {
    /// One call the consumer received.
    public enum Event: Hashable, Sendable {
        /// ``BrowserListConsumer/configure(with:)``.
        case configured(BrowserListSnapshot)
        /// ``BrowserListConsumer/update(to:diff:)``.
        case updated(BrowserListSnapshot, BrowserListDiff)
        /// ``BrowserListConsumer/browserListBecameUnavailable(_:)``.
        case unavailable(Unavailability)

        /// The list the call carried, if any.
        public var snapshot: BrowserListSnapshot? {
            switch self {
            case .configured(let snapshot), .updated(let snapshot, _): snapshot
            case .unavailable: nil
            }
        }
    }

    /// The calls received.
    public let log = EventLog<Event>()

    /// A consumer with nothing recorded.
    public init() {}

    /// Every call received, oldest first.
    public var events: [Event] { log.events }

    /// The last list received.
    public var latest: BrowserListSnapshot? { events.lazy.compactMap(\.snapshot).last }

    public func configure(with snapshot: BrowserListSnapshot) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(.configured(snapshot))
    }

    public func update(to snapshot: BrowserListSnapshot, diff: BrowserListDiff) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(.updated(snapshot, diff))
    }

    public func browserListBecameUnavailable(_ reason: Unavailability) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(.unavailable(reason))
    }

    /// Waits until the last list received satisfies `predicate`.
    public func waitForList(
        timeout seconds: Double = 10, _ what: String = "a browser list",
        where predicate: @escaping (BrowserListSnapshot) -> Bool
    ) async throws {
        try await log.wait(timeout: seconds, for: what) { events in
            events.lazy.compactMap(\.snapshot).last.map(predicate) ?? false
        }
    }
}

// MARK: - Archive and saved groups

/// Records what an `ArchivedTabsMediator` pushes, in order, checking it is on the main queue.
@MainActor
public final class RecordingArchivedTabsConsumer: ArchivedTabsConsumer {
    /// The snapshots received (configuration first); `nil` for a diff that did not fit, or unavailability.
    public let log = EventLog<ArchivedTabsSnapshot?>()

    /// A consumer with nothing recorded.
    public init() {}

    public func configure(with snapshot: ArchivedTabsSnapshot) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(snapshot)
    }

    public func update(to snapshot: ArchivedTabsSnapshot, diff: ArchivedTabsDiff) {
        dispatchPrecondition(condition: .onQueue(.main))
        // Each diff must turn the previous snapshot into this one.
        let previous = log.events.last.flatMap { $0 }
        log.append(previous.flatMap { try? $0.applying(diff) } == snapshot ? snapshot : nil)
    }

    public func archivedTabsBecameUnavailable(_ reason: Unavailability) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(nil)
    }
}

/// Records what a `SavedTabGroupsMediator` pushes, in order, checking it is on the main queue.
@MainActor
public final class RecordingSavedTabGroupsConsumer: SavedTabGroupsConsumer {
    /// The snapshots received (configuration first); `nil` for a diff that did not fit, or unavailability.
    public let log = EventLog<SavedTabGroupsSnapshot?>()

    /// A consumer with nothing recorded.
    public init() {}

    public func configure(with snapshot: SavedTabGroupsSnapshot) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(snapshot)
    }

    public func update(to snapshot: SavedTabGroupsSnapshot, diff: SavedTabGroupsDiff) {
        dispatchPrecondition(condition: .onQueue(.main))
        let previous = log.events.last.flatMap { $0 }
        log.append(previous.flatMap { try? $0.applying(diff) } == snapshot ? snapshot : nil)
    }

    public func savedTabGroupsBecameUnavailable(_ reason: Unavailability) {
        dispatchPrecondition(condition: .onQueue(.main))
        log.append(nil)
    }
}
