import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport

/// `app`: a writer as an app would be written: the default configuration
/// (snapshots and observation on), async calls from the main actor, and its
/// own browser, observed while it writes.
///
///   app --db PATH                      reads commands on stdin, one a line:
///       insert    inserts one tab with its navigation; prints "ok SEQ"
///       snapshot  takes a snapshot now; prints "ok"
///       status    reads SessionStoreFile.status of its own store; prints "ok TABS"
///       count     prints "count N": the tabs this process reads
///   app --db PATH --slot S --incarnation I --log FILE [--count C] [--seed X]
///       inserts tabs 1, 2, … (C of them, or until killed) at seeded indexes, each
///       with its navigation in the same transaction, and a status read of its own
///       store now and then; after each insertion returns, appends "SEQ NANOS" to
///       FILE and fsyncs it (NANOS: CLOCK_MONOTONIC when the call returned), then
///       prints "SEQ". Tab SEQ's id is ``SharedStoreStamp/tab(slot:incarnation:sequence:)``.
@MainActor
func runApp(path: String, options: [String: String]) async {
    do {
        // Busy (another process held the write lock past the timeout) changes nothing: retry, as an app would.
        let database = try await retryingBusy { try await SessionDatabase.open(atPath: path) }
        let browsers = SQLiteBrowserRepository(database: database)
        let tabs = SQLiteWebStateListRepository(database: database)
        let browser = try await retryingBusy { try await browsers.createBrowser().id }
        // Observation on, as in an app: the snapshot observer and the change monitor run.
        let observation = tabs.observe(browser) { _ in }
        defer { observation.cancel() }
        if let log = options["log"] {
            try await runLogged(
                database: database, browsers: browsers, tabs: tabs, browser: browser, log: log, path: path,
                options: options)
        } else {
            try await runInteractive(database: database, tabs: tabs, browser: browser, path: path)
        }
        try await database.close()
    } catch {
        fail(error)
    }
}

/// Runs `body`, again after a `StorageError.busy` (at most 20 times), printing
/// "busy SECONDS" on stderr for each wait that ended in one.
@MainActor
private func retryingBusy<T>(_ body: () async throws -> T) async throws -> T {
    for attempt in 1...20 {
        let started = Date()
        do {
            return try await body()
        } catch StorageError.busy where attempt < 20 {
            say("busy \(Date().timeIntervalSince(started))", to: STDERR_FILENO)
        }
    }
    preconditionFailure("unreachable: the last attempt returns or throws")
}

@MainActor
private func runInteractive(
    database: SessionDatabase, tabs: SQLiteWebStateListRepository, browser: BrowserID, path: String
) async throws {
    var sequence = 0
    while let line = readLine() {
        switch line {
        case "insert":
            sequence += 1
            let tab = SharedStoreStamp.tab(slot: 0, incarnation: 0, sequence: sequence)
            try await tabs.insert(
                WebState(id: tab), in: browser, params: .automatic().activate(),
                navigatingTo: NavigationItem(url: SharedStoreStamp.url(of: tab), title: "tab \(sequence)"))
            say("ok \(sequence)")
        case "snapshot":
            _ = try await Task.detached { try database.takeSnapshot() }.value
            say("ok")
        case "status":
            let status = try await Task.detached { try SessionStoreFile.status(atPath: path) }.value
            say("ok \(status.counts?.tabs ?? -1)")
        case "count":
            say("count \(try await tabs.webStateList(in: browser).count)")
        default:
            say("unknown command \(line)", to: STDERR_FILENO)
            exit(64)
        }
    }
}

@MainActor
private func runLogged(
    database: SessionDatabase, browsers: SQLiteBrowserRepository, tabs: SQLiteWebStateListRepository,
    browser: BrowserID, log: String, path: String, options: [String: String]
) async throws {
    let slot = Int(options["slot"] ?? "0") ?? 0
    let incarnation = Int(options["incarnation"] ?? "0") ?? 0
    let count = options["count"].flatMap(Int.init) ?? Int.max
    var rng = SplitMix64(seed: UInt64(options["seed"] ?? "") ?? UInt64(slot * 1_000_003 + incarnation))
    let descriptor = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { exit(73) }
    var browser = browser
    var length = 0
    for sequence in 1...max(1, count) {
        let tab = SharedStoreStamp.tab(slot: slot, incarnation: incarnation, sequence: sequence)
        let at = Int.random(in: 0...sequence, using: &rng)
        let activate = Bool.random(using: &rng)
        var failures = 0
        while true {
            do {
                try await tabs.insert(
                    WebState(id: tab), in: browser, params: .atIndex(min(at, length)).activate(activate),
                    navigatingTo: NavigationItem(url: SharedStoreStamp.url(of: tab), title: "\(slot).\(incarnation).\(sequence)"))
                break
            } catch StorageError.busy {
                failures += 1
                if failures > 50 { throw StorageError.busy(path: path) }
            } catch {
                // Another process restored a snapshot or replaced the store's content: the
                // window may be shorter, or gone (even between two of these reads). Read it
                // again, as an app would, and retry.
                failures += 1
                if failures > 5 { throw error }
                do {
                    if try await browsers.browser(browser) == nil { browser = try await browsers.createBrowser().id }
                    length = try await tabs.webStateList(in: browser).count
                } catch {
                    length = 0
                }
            }
        }
        length += 1
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let entry = Array("\(sequence) \(Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))\n".utf8)
        guard entry.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == entry.count,
              fsync(descriptor) == 0
        else { exit(74) }
        say("\(sequence)")
        // Now and then the file-level calls an app makes: the status of its own store.
        if Int.random(in: 0..<8, using: &rng) == 0 {
            _ = try? await Task.detached { try SessionStoreFile.status(atPath: path) }.value
        }
    }
}
