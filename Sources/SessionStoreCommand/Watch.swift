import ArgumentParser
import Dispatch
import Foundation
import SessionConsumers
import SessionMediators
import SessionModel
import SessionStorage

extension SessionStore {
    /// `sessionstore watch`: prints a browser's tab strip live, as a tab-list mediator pushes it.
    ///
    /// Changes nothing. The strip arrives through a ``WebStateListMediator``, on the
    /// main queue, which this command drains with `dispatchMain()`; Ctrl-C
    /// (SIGINT) or SIGTERM disconnects it and exits with status 0.
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a browser's tab strip live, one line per consolidated update, until Ctrl-C.",
            discussion: """
                The first line is the whole strip; each later line is one update: its diff \
                (-removed +inserted >moved ~updated) and the new strip. Tabs show their page \
                title (else URL); pinned tabs come before "|", groups are in [ ], * marks the \
                active tab. Changes made by other processes appear within 0.25 s. \
                If the browser is closed, prints "closed" and exits 0.
                """)

        @OptionGroup var options: StoreOptions

        @Option(help: ArgumentHelp(
            "The browser to watch: its identifier or a unique prefix of it, as `ls` prints it (default: the most recently active one).",
            valueName: "browser"))
        var browser: String?

        func run() throws {
            // First of all: from here on a SIGINT or SIGTERM is never lost (see catchSignals).
            WatchSession.catchSignals()
            // Read-only: nothing is created, migrated or written.
            let database = try SessionDatabase.openReadOnly(atPath: options.path, configuration: options.configuration)
            let id: BrowserID
            do {
                id = try watchedBrowser(in: database)
            } catch {
                try? database.close()
                throw error
            }
            let path = options.path
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    WatchSession.current = WatchSession(browser: id, database: database, path: path)
                }
            }
            dispatchMain()
        }

        /// The browser given with `--browser`, else the most recently active one.
        private func watchedBrowser(in database: SessionDatabase) throws -> BrowserID {
            let browsers = SQLiteBrowserRepository(database: database)
            if let browser {
                // A whole identifier may name a window that was closed; a prefix names an open one.
                let given = try BrowserID(uuidString: browser) ?? IdentifierResolver(database: database).browser(browser)
                guard try browsers.browser(given) != nil else {
                    // A window that was closed: as when it closes while watched.
                    let closed = try SQLiteRecentlyClosedRepository(database: database).entries()
                    if closed.contains(where: { $0.kind == .window && $0.browser == given }) {
                        print("closed")
                        throw ExitCode.success
                    }
                    throw StorageError.unknownBrowser(given.uuidString)
                }
                return given
            }
            guard let first = try browsers.browsers().first else {
                StandardError.write("sessionstore: \(options.path): no browser to watch.\n")
                throw ExitCode(ExitStatus.dataError)
            }
            return first.id
        }
    }
}

/// The running `watch`: the tab strip consumer that prints, its mediator, and the signal pipe that ends it.
@MainActor
private final class WatchSession: WebStateListConsumer {
    /// The session, kept alive while the main queue runs.
    static var current: WatchSession?

    private var mediator: WebStateListMediator?
    /// The read end of the pipe that SIGINT and SIGTERM write to, watched on the main queue.
    /// Touched only by `catchSignals()`, once, before the main queue runs.
    nonisolated(unsafe) private static var signalSource: (any DispatchSourceRead)?
    private let database: SessionDatabase
    private var notes: RepairNotes

    private let browser: BrowserID
    private let path: String
    /// The file watched: its device and inode when the watch opened it.
    private let opened: FileIdentity?
    /// Checks, as often as other processes' changes are looked for, that the path still names that file.
    private var fileCheck: (any DispatchSourceTimer)?

    init(browser: BrowserID, database: SessionDatabase, path: String) {
        self.browser = browser
        self.path = path
        self.database = database
        opened = FileIdentity(path: path)
        notes = RepairNotes(path: path)
        mediator = WebStateListMediator(
            browser: browser, tabs: SQLiteWebStateListRepository(database: database), consumer: self)
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let interval = StoreObservationDelivery.externalChangeLatency
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.checkFile() } }
        timer.resume()
        fileCheck = timer
    }

    /// A store deleted or replaced under the watch (moved away, another file renamed
    /// over it) would never change again for it: say so and stop, as for a store that
    /// cannot be read. `stat` only: no descriptor is opened on the store's files.
    private func checkFile() {
        let now = FileIdentity(path: path)
        guard let opened, now != opened else { return }
        let what = now == nil ? "deleted or moved away" : "replaced by another file"
        StandardError.write("sessionstore: \(shown(path)): the store was \(what) while watched; watch it again to follow the file now there.\n")
        stop(status: ExitStatus.dataError)
    }

    /// Catches SIGINT and SIGTERM on the main queue (once).
    ///
    /// A handler installed with `signal(2)` replaces the default action at once, so
    /// no signal is lost, however early it comes: it writes a byte to a pipe whose
    /// read end the main queue watches (the handler may do nothing else). A dispatch
    /// signal source would need the signal ignored first, and a SIGTERM sent in the
    /// instant before libdispatch registered it was lost: the watch ran on (the
    /// shared-store suite met it about once in 400 schedules).
    nonisolated static func catchSignals() {
        guard signalSource == nil else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        signalPipeWriteEnd = ends[1]
        let source = DispatchSource.makeReadSource(fileDescriptor: ends[0], queue: .main)
        source.setEventHandler(handler: handleSignal)
        source.resume()
        signalSource = source
        for signalNumber: Int32 in [SIGINT, SIGTERM] {
            _ = signal(signalNumber) { _ in
                var byte: UInt8 = 1
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
        }
    }

    /// Runs on the main queue when SIGINT or SIGTERM arrives: a clean exit.
    private nonisolated static func handleSignal() {
        MainActor.assumeIsolated {
            if let session = current { session.stop(status: 0) }
            exit(0)
        }
    }

    /// Disconnects, closes the store (removing the `-wal` and `-shm` that reading made) and exits.
    func stop(status: Int32) -> Never {
        mediator?.disconnect()
        try? database.close()
        exit(status)
    }

    func configure(with snapshot: TabStripSnapshot) {
        printLine("\(Self.describe(snapshot))")
        // Said once the strip was read: a store that cannot be read gets its one error line alone.
        StandardError.write("watching browser \(browser) in \(path); Ctrl-C to stop\n")
        notes.report(database)
    }

    func update(to snapshot: TabStripSnapshot, diff: TabStripDiff) {
        printLine("\(diff.summary): \(Self.describe(snapshot))")
        notes.report(database)
    }

    func tabStripBecameUnavailable(_ reason: Unavailability) {
        switch reason {
        case .closed:
            printLine("closed")
            stop(status: 0)
        case .failed(let message):
            // The store could not be read (a damaged page, the file gone): bad input, as elsewhere.
            StandardError.write("sessionstore: \(message)\n")
            stop(status: ExitStatus.dataError)
        }
    }

    /// Writes one line to stdout at once (no buffering, so a pipe sees it live);
    /// a stdout that cannot take it (closed, full, a pipe nobody reads) ends the
    /// watch with one line on stderr and exit 74, never a trap.
    private func printLine(_ line: String) {
        guard StandardStreams.write(line + "\n", to: 1) else {
            StandardError.write("sessionstore: cannot write to standard output; stopping the watch.\n")
            stop(status: ExitStatus.ioError)
        }
    }

    /// The strip on one line: `3 tabs: "Docs" | "News"* [ Work: "Mail" "https://example.org/" ]`.
    static func describe(_ strip: TabStripSnapshot) -> String {
        let tokens = strip.notation(
            label: { !$0.title.isEmpty ? String(reflecting: $0.title) : $0.url ?? "(empty)" },
            groupOpening: { group in
                let title = group.title.isEmpty ? group.color.rawValue : group.title
                return ["[ \(title)\(group.isCollapsed ? " (collapsed)" : ""):"]
            })
        let count = strip.items.count
        return "\(count) tab\(count == 1 ? "" : "s"): " + tokens
    }
}

/// The write end of `watch`'s signal pipe: a global, as a signal handler can reach no context.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
