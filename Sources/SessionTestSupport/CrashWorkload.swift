import Foundation
import SessionModel
import SessionStorage

/// A seeded stream of store mutations that two processes derive identically.
///
/// Step `n` of seed `s` is decided by a generator seeded from `(s, n)` and the
/// store's visible state (its open browsers' lists and its recently closed
/// entries), never by the clock or by identifiers the store makes up: tabs and
/// groups get identifiers drawn from the generator, and the two browsers come
/// from ``setUpDocument`` with fixed identifiers. So the crash-writer process
/// applying steps `1...n` to a file and a test applying them to an in-memory
/// store reach equal ``SessionDigest``s.
///
///     let workload = CrashWorkload(seed: 7)
///     try workload.setUp(database)
///     for step in 1...100 { _ = try workload.apply(step: step, to: database) }
public struct CrashWorkload: Sendable {
    /// The seed every step derives from.
    public let seed: UInt64

    /// A workload for `seed`.
    public init(seed: UInt64) {
        self.seed = seed
    }

    /// The store settings both sides use: no cap or lifetime trims recently
    /// closed entries (trimming breaks ties by the store's random identifiers).
    public static var configuration: SessionDatabase.Configuration {
        var configuration = SessionDatabase.Configuration()
        configuration.maximumClosedEntries = 100_000
        configuration.closedEntryLifetime = 10 * 365 * 24 * 60 * 60
        return configuration
    }

    /// The identifiers of the two browsers of ``setUpDocument``.
    public static let browserIDs = [
        BrowserID(rawValue: UUID(uuidString: "00000000-0000-4000-8000-00000000000a")!),
        BrowserID(rawValue: UUID(uuidString: "00000000-0000-4000-8000-00000000000b")!),
    ]

    /// Step 0: an export document with two empty browsers, imported into an empty store.
    public static let setUpDocument = Data("""
        {"browsers":[\
        {"created_at":"2026-01-01T00:00:00.000Z","groups":[],"id":"\(browserIDs[0])",\
        "last_active_at":"2026-01-01T00:00:00.000Z","tabs":[]},\
        {"created_at":"2026-01-01T00:00:00.000Z","groups":[],"id":"\(browserIDs[1])",\
        "last_active_at":"2026-01-01T00:00:00.000Z","tabs":[]}],\
        "closed_entries":[],"format":"sessionstore","version":1}
        """.utf8)

    /// Applies step 0 (the two browsers) to an empty store.
    public func setUp(_ database: SessionDatabase) throws {
        try database.importArchive(try SessionArchive.decode(from: Self.setUpDocument))
    }

    /// What a step did.
    public enum Outcome: Sendable, Equatable {
        /// The mutation was committed.
        case applied(String)
        /// The library refused it (a broken tab-list or history rule, an unknown
        /// tab); nothing was written, as documented.
        case refused(String)
    }

    /// Decides step `step` from the store's state and applies it, as one call
    /// (one transaction) of a repository.
    ///
    /// - Throws: What the store throws for reasons other than a refused
    ///   mutation (I/O, a busy database): the caller must not acknowledge the step.
    public func apply(step: Int, to database: SessionDatabase) throws -> Outcome {
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        let closed = SQLiteRecentlyClosedRepository(database: database)
        var rng = SplitMix64(seed: seed ^ (UInt64(step) &* 0x9E37_79B9_7F4A_7C15) ^ 0x5EED)

        let lists = try Self.browserIDs.map { try tabs.webStateList(in: $0) }
        let entries = try closed.entries().sorted { Self.key(of: $0) < Self.key(of: $1) }
        let b = Int.random(in: 0..<lists.count, using: &rng)
        let browser = Self.browserIDs[b]
        let list = lists[b]
        let allTabs = lists.flatMap(\.webStates).map(\.id)
        let total = allTabs.count
        let roll = Int.random(in: 0..<100, using: &rng)
        // Keep recently closed short, so every step stays cheap: both sides forget the same entry.
        if entries.count > 12 {
            let entry = entries[Int.random(in: 0..<entries.count, using: &rng)]
            return try refusing("forget") { try closed.forget(entry.id) }
        }

        func refusing(_ what: String, _ body: () throws -> Void) throws -> Outcome {
            do {
                try body()
                return .applied(what)
            } catch is WebStateListError {
                return .refused(what)
            } catch is NavigationHistoryError {
                return .refused(what)
            } catch let error as StorageError {
                switch error {
                case .unknownTab, .unknownBrowser, .unknownClosedEntry: return .refused(what)
                default: throw error
                }
            }
        }

        switch roll {
        case 0..<48:
            // Tab-list mutations; more removals once the lists are long.
            let operation = RandomWebStateListOperation.random(for: list, crowded: total > 24, using: &rng)
            return try refusing(operation.description) { try tabs.update(browser) { try operation(&$0) } }
        case 48..<52:
            let first = RandomWebStateListOperation.random(for: list, crowded: total > 24, using: &rng)
            let second = RandomWebStateListOperation.random(for: list, crowded: total > 24, using: &rng)
            return try refusing("batch[\(first), \(second)]") {
                try tabs.update(browser) { list in
                    try first(&list)
                    try second(&list)
                }
            }
        case 52..<68:
            guard let tab = allTabs.randomElement(using: &rng) else { break }
            let url = "https://s\(step).example/page?q=\(Int.random(in: 0..<1000, using: &rng))"
            return try refusing("commit(\(url))") {
                try histories.commit(NavigationItem(url: url, title: "Step \(step)"), in: tab)
            }
        case 68..<72:
            guard let tab = allTabs.randomElement(using: &rng) else { break }
            return try refusing("goBack") { try histories.goBack(in: tab) }
        case 72..<75:
            guard let tab = allTabs.randomElement(using: &rng) else { break }
            return try refusing("goForward") { try histories.goForward(in: tab) }
        case 75..<77:
            guard let tab = allTabs.randomElement(using: &rng) else { break }
            let url = "https://s\(step).example/redirected"
            return try refusing("replaceCurrent") {
                try histories.replaceCurrent(with: NavigationItem(url: url, title: "Redirect \(step)"), in: tab)
            }
        case 77..<81:
            guard let tab = list.webStates.randomElement(using: &rng) else { break }
            let target = Self.browserIDs[1 - b]
            let activate = Bool.random(using: &rng)
            return try refusing("moveWebState") {
                _ = try tabs.moveWebState(tab.id, to: target, params: .automatic().activate(activate))
            }
        case 81..<88:
            guard !entries.isEmpty else { break }
            let entry = entries[Int.random(in: 0..<entries.count, using: &rng)]
            return try refusing("restore(\(entry.kind))") { _ = try closed.restore(entry.id) }
        case 88..<91:
            guard let group = list.orderedGroups.randomElement(using: &rng) else { break }
            return try refusing("closeGroup") { try tabs.closeGroup(group.id, in: browser) }
        case 91..<93:
            guard step > 1 else { break }
            let earlier = Int.random(in: 1..<step, using: &rng)
            return try refusing("clearBrowsingData(host s\(earlier))") {
                _ = try histories.clearBrowsingData(.host("s\(earlier).example"))
            }
        case 93..<95:
            guard let tab = allTabs.randomElement(using: &rng) else { break }
            let bytes = (0..<Int.random(in: 0..<64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            return try refusing("setEngineState(\(bytes.count) bytes)") {
                _ = try histories.setEngineState(bytes.isEmpty ? nil : Data(bytes), for: tab)
            }
        default:
            break
        }
        // Forget an entry now and then, else close a tab.
        if !entries.isEmpty && Bool.random(using: &rng) {
            let entry = entries[Int.random(in: 0..<entries.count, using: &rng)]
            return try refusing("forget") { try closed.forget(entry.id) }
        }
        let at = Int.random(in: 0...max(0, list.count), using: &rng)
        return try refusing("close(at: \(at))") { try tabs.close(in: browser, at: at) }
    }

    /// A closed entry's key that does not depend on the store's random identifiers or the clock.
    static func key(of entry: RecentlyClosedEntry) -> String {
        let group = entry.group.map { "\($0.id)" } ?? "-"
        return "\(entry.kind) \(entry.tabs.map(\.id.uuidString).joined(separator: ",")) \(group) "
            + "\(entry.browser.map(\.uuidString) ?? "-") \(entry.tabIndex.map(String.init) ?? "-")"
    }

}
