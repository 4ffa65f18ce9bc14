// TabStrip: one browser window's tabs kept in a SessionStore, shown by a tab strip.
//
//   1. The library in a few lines: open a store, create a browser, open tabs,
//      group them, observe.
//   2. An app's tab strip: a `@MainActor` consumer that prints each strip, the
//      `WebStateListMediator` that pushes strips into it, and the async commands
//      of a `WebStateListCommandHandler`, issued from the main actor.
//   3. Shutting down: close the browser, disconnect, close the store.
//
// Run it with `swift run` here, or `Examples/run` from the repository root.
//
// Who drains the main queue? The mediator delivers on the main queue, so
// something must run that queue's blocks. This file uses `await` at top level,
// which makes it an async `main`: the main actor runs on the main queue, and the
// Swift runtime drains that queue until the program ends (on Linux through
// `dispatchMain()`). Whenever the main actor waits at an `await`, queued blocks
// run, the mediator's pushes among them. (A `@main struct` with
// `static func main() async throws` does the same; a program with a synchronous
// `main` must call `dispatchMain()` itself, or the pushes never come.)
// On Linux, once the program first waits, the main queue is drained by a thread
// other than the process's first one, so `Thread.isMainThread` is false in
// main-actor code there; ask `dispatchPrecondition(condition: .onQueue(.main))`
// instead, as the strip does.

import Foundation
import SessionStore

// The program: `main()` below, started by this file's one top-level statement.
// Its work is in a function, not at top level, because in top-level code Swift
// picks the synchronous form of calls that have both (and warns "no 'async'
// operations occur within 'await' expression"): the main thread would wait
// for every write. (`@main` needs a file not named main.swift.)
try await TabStripExample.main()

@MainActor
enum TabStripExample {
    static func main() async throws {
        // A fresh directory for the store; removed at the end.
        let directory = NSTemporaryDirectory() + "TabStrip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/session.sqlite"

        // MARK: - 1. The library in a few lines

        // Open the store at `path`: creates the file if needed, checks it, applies migrations.
        let database = try await SessionDatabase.open(atPath: path)
        let browsers = SQLiteBrowserRepository(database: database)
        let tabs = SQLiteWebStateListRepository(database: database)

        // A browser (window) and two tabs, each opened on its first page in one transaction.
        let browser = try await browsers.createBrowser().id
        let docs = WebState(), forums = WebState()
        try await tabs.insert(
            docs, in: browser, params: .automatic().activate(),
            navigatingTo: NavigationItem(url: "https://www.swift.org/documentation/", title: "Docs"))
        try await tabs.insert(
            forums, in: browser, params: .automatic().withOpener(docs.id),  // a link opened from Docs
            navigatingTo: NavigationItem(url: "https://forums.swift.org/", title: "Forums"))

        // A batch: every change in the closure is one transaction, observed as one change.
        try await tabs.update(browser) { list in
            _ = try list.createGroup(at: [0, 1], visualData: TabGroupVisualData(title: "Swift", color: .blue))
        }

        // Observe: the current snapshot first, then one per committed change (a slow
        // reader skips to the newest); the sequence finishes when the browser closes.
        let watcher = Task {
            for try await snapshot in tabs.snapshots(of: browser) {
                print("snapshots(of:): \(snapshot.list.count) tabs")
            }
        }

        // MARK: - 2. An app's tab strip

        let strip = PrintingTabStrip()
        // The mediator observes the browser and pushes strips into `strip` on the main
        // queue. It holds its consumer weakly: the app keeps both alive.
        let mediator = WebStateListMediator(browser: browser, tabs: tabs, consumer: strip)
        // Commands name tabs by identifier. Their async forms run on the store's writer
        // queue, so the main actor only hands them over.
        let commands = WebStateListCommandHandler(browser: browser, tabs: tabs)

        try await strip.waitingForPush {}  // the mediator's first push: the whole strip

        // A page typed in a new, active tab: nothing opened it, so it goes at the end.
        let news = try await strip.waitingForPush {
            try await commands.openURL("https://news.example/", activate: true)
        }

        // A link opened from it. The handler has no opener command: insert through the
        // repository. `withOpener` records News's current history index; the new tab
        // goes right after its opener.
        let story = WebState()
        try await strip.waitingForPush {
            try await tabs.insert(
                story, in: browser, params: .automatic().withOpener(news),
                navigatingTo: NavigationItem(url: "https://news.example/story", title: "Story"))
        }

        // Pin News (pinned tabs come first), group Story, close Forums (restorable
        // from the recently closed list).
        try await strip.waitingForPush { try await commands.setPinned(true, tab: news) }
        try await strip.waitingForPush {
            try await commands.createGroup(with: [story.id], title: "Reading", color: .orange)
        }
        try await strip.waitingForPush { try await commands.closeTab(forums.id) }

        // MARK: - 3. Shutting down

        // Closing the browser ends both observers: the strip is told `closed` (and the
        // mediator disconnects itself), and `snapshots(of:)` finishes normally.
        try await strip.waitingForPush { try await browsers.closeBrowser(browser) }
        try await watcher.value
        print("snapshots(of:) finished: the browser was closed")

        // An app disconnects when its strip goes away; here the close did it already,
        // and disconnecting again is harmless.
        mediator.disconnect()
        print("mediator connected: \(mediator.isConnected)")

        try await database.close()  // folds the WAL back into the file
        try await database.close()  // a second close does nothing
        print("database closed twice")

        // Every call after close() throws StorageError.closed, a LocalizedError whose
        // message is one sentence fit for an alert.
        do {
            _ = try await browsers.browsers()
            throw ExampleError("a call after close() succeeded")
        } catch let error as any LocalizedError {
            print("after close: \(error.localizedDescription)")
        }

        try FileManager.default.removeItem(atPath: directory)
        print("done")
    }
}

// MARK: - The consumer

/// The app's tab strip: it prints each strip the mediator pushes, on one line.
@MainActor
final class PrintingTabStrip: WebStateListConsumer {
    /// How many times the mediator has called the strip.
    private(set) var pushes = 0

    func configure(with snapshot: TabStripSnapshot) {
        dispatchPrecondition(condition: .onQueue(.main))  // mediators push on the main queue only
        pushes += 1
        print("strip: \(Self.line(snapshot))")
    }

    func update(to snapshot: TabStripSnapshot, diff: TabStripDiff) {
        pushes += 1
        print("update \(diff.summary): \(Self.line(snapshot))")  // -removed +inserted >moved ~updated
    }

    func tabStripBecameUnavailable(_ reason: Unavailability) {
        pushes += 1
        print("strip \(reason)")  // "closed" once the browser is closed; nothing follows
    }

    /// `https://news.example/* | [ Swift: Docs ] [ Reading: Story ]`: pinned tabs,
    /// `|`, the others; a group between `[ title:` and `]`; `*` marks the active
    /// tab; a tab shows its page's title, else its URL.
    static func line(_ strip: TabStripSnapshot) -> String {
        strip.notation(
            label: { $0.title.isEmpty ? $0.url ?? "(empty)" : $0.title },
            groupOpening: { ["[ \($0.title):"] })
    }

    /// Runs `command`, then lets the main queue run until the mediator has pushed
    /// what it changed. An app never waits like this: the example does, so that
    /// it prints one line per command, in a fixed order (changes that land in one
    /// main-queue turn are pushed as one update).
    @discardableResult
    func waitingForPush<T>(_ command: () async throws -> T) async throws -> T {
        let before = pushes
        let result = try await command()
        let deadline = ContinuousClock.now + .seconds(10)
        while pushes == before {
            guard ContinuousClock.now < deadline else { throw ExampleError("no push within 10 s") }
            try await Task.sleep(for: .milliseconds(5))  // the main queue runs meanwhile
        }
        return result
    }
}

struct ExampleError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
