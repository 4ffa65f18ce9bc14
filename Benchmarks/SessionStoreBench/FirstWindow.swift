import Dispatch
import Foundation

import SessionConsumers
import SessionMediators
import SessionModel
import SessionStorage

/// The first window first: from opening the file to the most recently active
/// browser's strip (100 tabs) reaching its consumer, in a store holding nothing
/// else and in one where nine other browsers hold many more tabs.
enum FirstWindow {
    struct Result {
        var alone: Samples
        var beside: Samples
        var otherTabs: Int
    }

    @MainActor
    private final class FirstStrip: WebStateListConsumer {
        var received: TabStripSnapshot?
        func configure(with snapshot: TabStripSnapshot) { received = snapshot }
        func update(to snapshot: TabStripSnapshot, diff: TabStripDiff) {}
        func tabStripBecameUnavailable(_ reason: Unavailability) {}
    }

    static let activeTabs = 100

    /// Seeds both stores in `directory` through the repositories, then times `rounds` launches of each.
    static func run(
        directory: String, configuration: SessionDatabase.Configuration, otherTabs: Int, rounds: Int,
        progress: (String) -> Void
    ) throws -> Result {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let alone = directory + "/alone.sqlite", beside = directory + "/beside.sqlite"
        progress("first window: seeding \(activeTabs) tabs alone, and beside \(otherTabs) tabs in nine browsers")
        try seed(atPath: alone, otherTabs: 0, configuration: configuration)
        try seed(atPath: beside, otherTabs: otherTabs, configuration: configuration)
        var result = Result(alone: Samples(), beside: Samples(), otherTabs: otherTabs)
        for _ in 0..<rounds {
            result.alone.record(nanoseconds: try launch(path: alone, configuration: configuration))
            result.beside.record(nanoseconds: try launch(path: beside, configuration: configuration))
        }
        return result
    }

    /// Opens the store and waits for the most recently active browser's strip at its consumer.
    private static func launch(path: String, configuration: SessionDatabase.Configuration) throws -> UInt64 {
        try MainActor.assumeIsolated {
            let start = monotonicNanoseconds()
            let database = try SessionDatabase.open(atPath: path, configuration: configuration)
            defer { try? database.close() }
            guard let browser = try SQLiteBrowserRepository(database: database).browsers().first?.id else {
                throw BenchError("no browser to show")
            }
            let consumer = FirstStrip()
            let mediator = WebStateListMediator(
                browser: browser, tabs: SQLiteWebStateListRepository(database: database), consumer: consumer)
            defer { mediator.disconnect() }
            let deadline = Date().addingTimeInterval(60)
            while consumer.received == nil {
                guard Date() < deadline else { throw BenchError("timed out waiting for the first strip") }
                _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.0005))
            }
            let elapsed = monotonicNanoseconds() - start
            guard consumer.received?.items.count == activeTabs else { throw BenchError("the first strip is not the active browser's") }
            return elapsed
        }
    }

    /// Nine browsers sharing `otherTabs` tabs (one history entry each), then the
    /// active browser of ``activeTabs`` tabs (full histories), marked most recently active.
    private static func seed(atPath path: String, otherTabs: Int, configuration: SessionDatabase.Configuration) throws {
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        defer { try? database.close() }
        let browsers = SQLiteBrowserRepository(database: database)
        let lists = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        func fill(_ browser: BrowserID, tabs: Int, history: Int, offset: Int) throws {
            let webStates = (0..<tabs).map { _ in WebState() }
            try lists.update(browser) { list in
                list = try WebStateList(
                    webStates: webStates, pinnedCount: 0, groupIDs: Array(repeating: nil, count: tabs), groups: [],
                    activeIndex: tabs / 2)
            }
            for (index, webState) in webStates.enumerated() {
                try histories.update(webState.id) { entries in
                    for entry in 0..<history {
                        try entries.commit(NavigationItem(
                            url: SessionContent.url(tab: offset + index, entry: entry),
                            title: SessionContent.title(tab: offset + index, entry: entry)))
                    }
                }
            }
        }
        if otherTabs > 0 {
            for window in 0..<9 {
                let share = otherTabs / 9 + (window < otherTabs % 9 ? 1 : 0)
                try fill(try browsers.createBrowser().id, tabs: share, history: 1, offset: window * share)
            }
        }
        let active = try browsers.createBrowser().id
        try fill(active, tabs: activeTabs, history: SessionContent.historyLength, offset: otherTabs)
        try browsers.markActive(active)
    }
}
