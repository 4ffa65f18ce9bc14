import Dispatch
import Foundation

import SessionConsumers
import SessionMediators
import SessionModel
import SessionStorage

/// `--large`: everything a user does with a large session but mutate it, at
/// each size, side by side with plain SQLite on the same file: the release
/// `sessionstore` command run as a child process (time and peak memory from
/// `wait4`) against the `sqlite3` shell, and a `WebStateListMediator` in
/// process. Prints each goal of issue 17 as met or not met.
enum LargeSessions {
    /// One child process run: wall time, peak resident memory, exit status.
    struct ChildRun {
        var seconds: Double
        var peakKiB: Int
        var status: Int32

        /// Whether the child ran and exited with status 0 (a failed run's time is no figure).
        var ran: Bool { seconds > 0 && status == 0 }
    }

    struct SizeResult {
        var tabs: Int
        /// What was measured: the goals of the parts left out are not printed.
        var parts: Set<Part> = []
        var export = ChildRun(seconds: 0, peakKiB: 0, status: 0)
        var exportLines = ChildRun(seconds: 0, peakKiB: 0, status: 0)
        var sqliteJSON = ChildRun(seconds: 0, peakKiB: 0, status: 0)
        var importDocument = ChildRun(seconds: 0, peakKiB: 0, status: 0)
        var importLines = ChildRun(seconds: 0, peakKiB: 0, status: 0)
        var rawInsert = ChildRun(seconds: 0, peakKiB: 0, status: 0)
        var roundTripIdentical = false
        var ls = 0.0, plainLs = 0.0, status = 0.0, plainStatus = 0.0, lsLimit = 0.0
        var watchSmall = 0.0, watchLarge = 0.0
        var firstSnapshot = 0.0
        var change = Samples()
        /// A one-tab change committed through another connection (as another process does), to the consumer.
        var externalChange = Samples()
        var mainThreadLateness = Samples()
        var burst: MediatorBurst.Result?
        var bytesPerTab = (store: 0.0, raw: 0.0)
        var bytesPerEntry = (store: 0.0, raw: 0.0)
    }

    /// The browser that `watch` shows beside the large one.
    static let smallBrowserTabs = 100

    /// What `--large` measures; `--large-parts` picks some (to measure one again).
    enum Part: String, CaseIterable {
        case commands, mediator, bytes
    }

    static func run(
        sizes: [Int], root: String, configuration: SessionDatabase.Configuration, rounds: Int, parts: Set<Part>,
        progress: (String) -> Void
    ) throws -> [SizeResult] {
        let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let sessionstore = binaries.appendingPathComponent("sessionstore").path
        guard FileManager.default.isExecutableFile(atPath: sessionstore) else {
            throw BenchError("\(sessionstore) is missing: build it too (swift build -c release)")
        }
        var results: [SizeResult] = []
        for size in sizes {
            let directory = root + "/large-\(size)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let store = directory + "/store.sqlite"
            let started = monotonicNanoseconds()
            if !FileManager.default.fileExists(atPath: store) {
                progress("\(size) tabs: seeding (the list through the repositories, the histories in SQL), and a \(smallBrowserTabs)-tab browser beside")
                try StoreSubject.seed(atPath: store, tabCount: size, configuration: configuration)
                try addSmallBrowser(atPath: store, configuration: configuration)
                progress("\(size) tabs: seeded in \(Report.duration(Double(monotonicNanoseconds() - started)))")
            }
            var result = SizeResult(tabs: size, parts: parts)
            if parts.contains(.commands) {
                try measureCommands(size: size, store: store, directory: directory, sessionstore: sessionstore, into: &result, progress: progress)
            }
            if parts.contains(.mediator) {
                progress("\(size) tabs: a WebStateListMediator on the \(size)-tab browser")
                try measureMediator(store: store, configuration: configuration, rounds: rounds, into: &result)
                result.burst = try MediatorBurst.run(path: store, configuration: configuration)
            }
            if parts.contains(.bytes) { try measureBytes(store: store, directory: directory, into: &result) }
            results.append(result)
        }
        return results
    }

    // MARK: - The command and the shell

    private static func measureCommands(
        size: Int, store: String, directory: String, sessionstore: String, into result: inout SizeResult,
        progress: (String) -> Void
    ) throws {
        let json = directory + "/export.json", lines = directory + "/export.jsonl"
        progress("\(size) tabs: export (json, jsonl) beside sqlite3 -json")
        _ = try spawn(sessionstore, ["status", "--db", store])  // warms the page cache
        result.export = try spawn(sessionstore, ["export", "--quiet", "--db", store, "--output", json])
        result.exportLines = try spawn(sessionstore, ["export", "--quiet", "--format", "jsonl", "--db", store, "--output", lines])
        result.sqliteJSON = try spawn("/usr/bin/sqlite3", ["-json", store, everyEntry])

        progress("\(size) tabs: import (json, jsonl) beside a bulk INSERT … SELECT of the same rows")
        for suffix in ["", "-wal", "-shm"] {
            unlink(directory + "/imported.sqlite" + suffix)
            unlink(directory + "/imported-lines.sqlite" + suffix)
            unlink(directory + "/raw-insert.sqlite" + suffix)
        }
        result.importDocument = try spawn(sessionstore, ["import", "--quiet", json, "--db", directory + "/imported.sqlite"])
        result.importLines = try spawn(sessionstore, ["import", "--quiet", lines, "--db", directory + "/imported-lines.sqlite"])
        let again = try spawn(sessionstore, ["export", "--quiet", "--db", directory + "/imported-lines.sqlite", "--output", directory + "/again.json"])
        result.roundTripIdentical = again.status == 0 && FileManager.default.contentsEqual(atPath: json, andPath: directory + "/again.json")
        // The baseline: the same rows copied by one INSERT … SELECT per table, in one transaction,
        // into a migrated file (the same triggers fire), in this process with the store's connection
        // settings. (Text INSERTs run by the sqlite3 shell recompiled every trigger per row.)
        _ = try spawn(sessionstore, ["migrate", "--db", directory + "/raw-insert.sqlite"])
        result.rawInsert = try bulkInsert(from: store, into: directory + "/raw-insert.sqlite")

        progress("\(size) tabs: ls, status, ls --limit 20 and watch's first line (warm page cache)")
        result.ls = try best(of: 3) { try spawn(sessionstore, ["ls", "--db", store]) }
        result.plainLs = try best(of: 3) { try spawn("/usr/bin/sqlite3", [store, currentPages]) }
        result.status = try best(of: 3) { try spawn(sessionstore, ["status", "--db", store]) }
        result.plainStatus = try best(of: 3) { try spawn("/usr/bin/sqlite3", [store, counts]) }
        result.lsLimit = try best(of: 3) { try spawn(sessionstore, ["ls", "--limit", "20", "--db", store]) }
        let (large, small) = try browsers(store)
        result.watchSmall = try (0..<3).map { _ in try firstLine(sessionstore, ["watch", "--db", store, "--browser", small]) }.min()!
        result.watchLarge = try (0..<3).map { _ in try firstLine(sessionstore, ["watch", "--db", store, "--browser", large]) }.min()!
    }

    /// Every history entry with its tab and browser: what an export reads.
    static let everyEntry = """
        SELECT b.id AS browser, t.id AS tab, t.is_pinned, t.group_id, t.created_at, t.last_active_at,
               t.current_entry_index, e.url, e.virtual_url, e.title, e.referrer_url, e.referrer_policy,
               e.transition_type, e.timestamp, e.http_status, e.is_post, e.favicon_url, e.user_agent_type,
               p.data AS page_state
        FROM browsers AS b JOIN tabs AS t ON t.browser_id = b.id JOIN navigation_entries AS e ON e.tab_id = t.id
        LEFT JOIN navigation_page_states AS p ON p.entry_id = e.id
        ORDER BY b.created_at, t.sort_key, e.sequence
        """

    /// Each open tab with its current page: what `ls` shows.
    static let currentPages = """
        SELECT t.browser_id, t.id, t.is_pinned, t.group_id, e.title, coalesce(e.virtual_url, e.url)
        FROM tabs AS t LEFT JOIN navigation_entries AS e
            ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
        WHERE t.browser_id IS NOT NULL ORDER BY t.browser_id, t.sort_key
        """

    /// The counts `status` shows.
    static let counts = """
        SELECT count(*) FROM browsers WHERE closed_entry_id IS NULL;
        SELECT count(*) FROM tabs AS t JOIN browsers AS b ON b.id = t.browser_id WHERE b.closed_entry_id IS NULL;
        SELECT count(*) FROM tab_groups; SELECT count(*) FROM navigation_entries; SELECT count(*) FROM closed_entries;
        """

    /// Copies the rows of `store` into the migrated file at `path` (see ``RawConnection/copyRows(of:from:)``), timed.
    private static func bulkInsert(from store: String, into path: String) throws -> ChildRun {
        let start = monotonicNanoseconds()
        let connection = try RawConnection(path: path, synchronous: "normal")
        try connection.copyRows(of: MinimalSchema.tables, from: store)
        return ChildRun(seconds: Double(monotonicNanoseconds() - start) / 1e9, peakKiB: 0, status: 0)
    }

    private static func browsers(_ store: String) throws -> (large: String, small: String) {
        let database = try SessionDatabase.openReadOnly(atPath: store)
        defer { try? database.close() }
        let summaries = try SQLiteBrowserRepository(database: database).browserSummaries()
        guard let large = summaries.max(by: { $0.tabCount < $1.tabCount }),
              let small = summaries.min(by: { $0.tabCount < $1.tabCount })
        else { throw BenchError("no browsers") }
        return (large.browser.id.uuidString, small.browser.id.uuidString)
    }

    private static func addSmallBrowser(atPath path: String, configuration: SessionDatabase.Configuration) throws {
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        defer { try? database.close() }
        let browser = try SQLiteBrowserRepository(database: database).createBrowser()
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        for index in 0..<smallBrowserTabs {
            let webState = WebState()
            try tabs.insert(webState, in: browser.id, params: .automatic())
            try histories.commit(
                NavigationItem(url: SessionContent.url(tab: index, entry: 0), title: SessionContent.title(tab: index, entry: 0)),
                in: webState.id)
        }
    }

    /// The shortest of `count` runs after a warm one; infinite when one failed (no figure, so no goal met).
    private static func best(of count: Int, _ run: () throws -> ChildRun) throws -> Double {
        _ = try run()  // warm
        let runs = try (0..<count).map { _ in try run() }
        return runs.allSatisfy(\.ran) ? runs.map(\.seconds).min()! : .infinity
    }

    /// Runs `path` with `arguments` to its end under `/usr/bin/time`, which reports its peak
    /// resident memory (a child spawned straight from the bench would count the bench's own);
    /// stdout to /dev/null unless given.
    static func spawn(_ path: String, _ arguments: [String], stdin: String? = nil, stdout: String = "/dev/null") throws -> ChildRun {
        let report = NSTemporaryDirectory() + "bench-time-\(getpid())"
        defer { unlink(report) }
        var run = try spawnDirectly("/usr/bin/time", ["-f", "%M", "-o", report, path] + arguments, stdin: stdin, stdout: stdout)
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        // The last line is the figure; a line before it says how the command ended.
        run.peakKiB = text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return run
    }

    private static func spawnDirectly(
        _ path: String, _ arguments: [String], stdin: String?, stdout: String
    ) throws -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = monotonicNanoseconds()
        guard FileManager.default.isExecutableFile(atPath: path),
              posix_spawn(&pid, path, &actions, nil, argv, environ) == 0
        else { throw BenchError("cannot run \(path) (apt-get install time sqlite3)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        return ChildRun(seconds: seconds, peakKiB: 0, status: status)
    }

    /// Seconds from launching `watch` to its first line on stdout.
    private static func firstLine(_ path: String, _ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let start = monotonicNanoseconds()
        try process.run()
        defer {
            // SIGTERM ends `watch` cleanly; should it not within 2 s, SIGKILL.
            process.terminate()
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        // Only each new piece is searched: the first line of a large strip is megabytes long.
        while true {
            let piece = pipe.fileHandleForReading.availableData
            guard !piece.isEmpty else { throw BenchError("watch printed nothing") }
            if piece.withUnsafeBytes({ $0.contains(UInt8(ascii: "\n")) }) { break }
        }
        return Double(monotonicNanoseconds() - start) / 1e9
    }

    // MARK: - The mediator

    @MainActor
    private final class LatencyConsumer: WebStateListConsumer {
        var configuredAt: UInt64?
        var last: TabStripSnapshot?
        var receivedAt: UInt64 = 0

        /// The active tab's index, found once per update (the wait loops read it every millisecond).
        var activeIndex: Int?

        func configure(with snapshot: TabStripSnapshot) {
            configuredAt = monotonicNanoseconds()
            last = snapshot
            activeIndex = snapshot.activeIndex
        }

        func update(to snapshot: TabStripSnapshot, diff: TabStripDiff) {
            receivedAt = monotonicNanoseconds()
            last = snapshot
            activeIndex = snapshot.activeIndex
        }

        func tabStripBecameUnavailable(_ reason: Unavailability) {}
    }

    /// The first snapshot of the large browser on a fresh connection; then `rounds` one-tab
    /// changes committed by another thread of the same process, each timed from its commit
    /// to the consumer's update, while a third thread pings the main queue every millisecond
    /// (how late each ping runs is how long the main thread was busy).
    private static func measureMediator(
        store: String, configuration: SessionDatabase.Configuration, rounds: Int, into result: inout SizeResult
    ) throws {
        let database = try SessionDatabase.open(atPath: store, configuration: configuration)
        defer { try? database.close() }
        let tabs = SQLiteWebStateListRepository(database: database)
        let (largeText, _) = try browsers(store)
        guard let browser = BrowserID(uuidString: largeText) else { throw BenchError("bad browser id") }
        try MainActor.assumeIsolated {
            let consumer = LatencyConsumer()
            let start = monotonicNanoseconds()
            let mediator = WebStateListMediator(browser: browser, tabs: tabs, consumer: consumer)
            defer { mediator.disconnect() }
            try drain(seconds: 120) { consumer.configuredAt != nil }
            result.firstSnapshot = Double(consumer.configuredAt! - start) / 1e9
            let count = consumer.last?.items.count ?? 0
            let lateness = Protected<[UInt64]>([])
            let stop = Protected(false)
            Thread.detachNewThread {
                while !stop.withLock({ $0 }) {
                    let posted = monotonicNanoseconds()
                    DispatchQueue.main.async { lateness.withLock { $0.append(monotonicNanoseconds() - posted) } }
                    usleep(1_000)
                }
            }
            defer { stop.withLock { $0 = true } }
            var rng = SplitMix64(seed: 17)
            try measureActivations(
                rounds, through: tabs, of: browser, count: count, consumer: consumer, rng: &rng, into: &result.change)
            for value in lateness.withLock({ $0 }) { result.mainThreadLateness.record(nanoseconds: value) }

            // The same change through a second connection of its own (no shared cache): the
            // mediator learns of it from the change monitor's poll, as of another process's commit.
            let other = try SessionDatabase.open(atPath: store, configuration: configuration)
            defer { try? other.close() }
            try measureActivations(
                max(3, rounds / 4), through: SQLiteWebStateListRepository(database: other), of: browser, count: count,
                consumer: consumer, rng: &rng, into: &result.externalChange)
        }
    }

    /// `rounds` activations of a random tab committed on another thread through `tabs`, each
    /// timed from its commit's return to the consumer's update.
    @MainActor
    private static func measureActivations(
        _ rounds: Int, through tabs: SQLiteWebStateListRepository, of browser: BrowserID, count: Int,
        consumer: LatencyConsumer, rng: inout SplitMix64, into samples: inout Samples
    ) throws {
        for _ in 0..<rounds {
            let target = Int.random(in: 0..<count, using: &rng)
            guard target != consumer.activeIndex else { continue }
            let committed = Protected<UInt64>(0)
            Thread.detachNewThread {
                try? tabs.activate(in: browser, at: target)
                committed.withLock { $0 = monotonicNanoseconds() }
            }
            try drain(seconds: 30) { consumer.activeIndex == target && committed.withLock { $0 } != 0 }
            let at = committed.withLock { $0 }
            samples.record(nanoseconds: consumer.receivedAt > at ? consumer.receivedAt - at : 0)
            // A pause longer than the pacing's longest interval: each change starts a burst.
            let pause = Date().addingTimeInterval(0.45)
            try drain(seconds: 1) { Date() >= pause }
        }
    }

    @MainActor
    private static func drain(seconds: Double, _ done: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !done() {
            guard Date() < deadline else { throw BenchError("timed out waiting for the mediator") }
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.001))
        }
    }

    // MARK: - Bytes on disk

    /// Bytes of the store's tables and indexes per tab and per history entry (`dbstat`),
    /// against a plain schema holding the same tabs and entries (ids, order, URL, title, time).
    private static func measureBytes(store: String, directory: String, into result: inout SizeResult) throws {
        let plain = directory + "/plain.sqlite"
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(plain + suffix) }
        let script = directory + "/plain.sql"
        try """
            ATTACH '\(store)' AS s;
            CREATE TABLE tabs (id TEXT PRIMARY KEY, browser_id TEXT, position INTEGER, current_index INTEGER);
            CREATE TABLE entries (tab_id TEXT, sequence INTEGER, url TEXT, title TEXT, timestamp TEXT,
                                  PRIMARY KEY (tab_id, sequence)) WITHOUT ROWID;
            INSERT INTO tabs SELECT id, browser_id, sort_key, current_entry_index FROM s.tabs;
            INSERT INTO entries SELECT tab_id, sequence, url, title, timestamp FROM s.navigation_entries;
            """.write(toFile: script, atomically: true, encoding: .utf8)
        guard try spawn("/usr/bin/sqlite3", [plain], stdin: script).status == 0 else {
            throw BenchError("sqlite3 could not make the plain copy")
        }
        func sizes(_ path: String) throws -> [String: Double] {
            let output = directory + "/dbstat.txt"
            _ = try spawn("/usr/bin/sqlite3", [path, "SELECT name, sum(pgsize) FROM dbstat GROUP BY name"], stdout: output)
            var sizes: [String: Double] = [:]
            for line in try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n") {
                let parts = line.split(separator: "|")
                if parts.count == 2 { sizes[String(parts[0])] = Double(parts[1]) ?? 0 }
            }
            return sizes
        }
        func count(_ path: String, _ table: String) throws -> Double {
            let output = directory + "/count.txt"
            _ = try spawn("/usr/bin/sqlite3", [path, "SELECT count(*) FROM \(table)"], stdout: output)
            return Double(try String(contentsOfFile: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 1
        }
        let tabs = try count(store, "tabs"), entries = try count(store, "navigation_entries")
        let storeSizes = try sizes(store), plainSizes = try sizes(plain)
        func sum(_ sizes: [String: Double], _ isEntry: (String) -> Bool) -> (tab: Double, entry: Double) {
            var tab = 0.0, entry = 0.0
            for (name, bytes) in sizes where name != "sqlite_schema" {
                if isEntry(name) { entry += bytes } else { tab += bytes }
            }
            return (tab, entry)
        }
        let ofStore = sum(storeSizes) { $0.contains("navigation_entries") || $0.contains("navigation_page_states") }
        let ofPlain = sum(plainSizes) { $0.contains("entries") }
        result.bytesPerTab = (ofStore.tab / tabs, ofPlain.tab / tabs)
        result.bytesPerEntry = (ofStore.entry / entries, ofPlain.entry / entries)
    }

    // MARK: - Report

    static func rows(_ results: [SizeResult]) -> [String] {
        var lines: [String] = []
        func mib(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1024) }
        func time(_ seconds: Double) -> String { Report.duration(seconds * 1e9) }
        for result in results {
            let n = Report.formatCount(result.tabs)
            lines.append("\(n) tabs:")
            lines.append("  export json \(time(result.export.seconds)) \(mib(result.export.peakKiB)), jsonl \(time(result.exportLines.seconds)) \(mib(result.exportLines.peakKiB)); sqlite3 -json \(time(result.sqliteJSON.seconds)) \(mib(result.sqliteJSON.peakKiB))")
            lines.append("  import json \(time(result.importDocument.seconds)) \(mib(result.importDocument.peakKiB)), jsonl \(time(result.importLines.seconds)) \(mib(result.importLines.peakKiB)); bulk INSERT … SELECT \(time(result.rawInsert.seconds)) (in process); jsonl import re-exported byte-identical: \(result.roundTripIdentical)")
            lines.append("  ls \(time(result.ls)) vs plain \(time(result.plainLs)); status \(time(result.status)) vs plain \(time(result.plainStatus)); ls --limit 20 \(time(result.lsLimit))")
            lines.append("  watch first line: \(smallBrowserTabs)-tab browser \(time(result.watchSmall)), \(n)-tab browser \(time(result.watchLarge))")
            lines.append("  mediator: first snapshot \(time(result.firstSnapshot)); one-tab change p50 \(Report.duration(result.change.p50)) p99 \(Report.duration(result.change.p99)) over \(result.change.count); from another connection p50 \(Report.duration(result.externalChange.p50)) p99 \(Report.duration(result.externalChange.p99)); main-queue ping lateness p99 \(Report.duration(result.mainThreadLateness.p99)), max \(Report.duration(result.mainThreadLateness.maximum))")
            if let burst = result.burst {
                lines.append("  1,000-commit burst: \(burst.updates) updates, last update \(Report.duration(Double(burst.delayNanoseconds))) after the last commit")
            }
            lines.append(String(format: "  bytes on disk: %.0f per tab (plain schema %.0f), %.0f per history entry (plain %.0f)",
                                result.bytesPerTab.store, result.bytesPerTab.raw, result.bytesPerEntry.store, result.bytesPerEntry.raw))
        }
        return lines
    }

    static func goals(_ results: [SizeResult]) -> [String] {
        func verdict(_ met: Bool) -> String { Goals.verdict(met) }
        func each(_ line: (SizeResult) -> String) -> String { results.map(line).joined(separator: "; ") }
        func n(_ result: SizeResult) -> String { Report.formatCount(result.tabs) }
        func time(_ seconds: Double) -> String { Report.duration(seconds * 1e9) }
        let largest = results.max { $0.tabs < $1.tabs }
        let limit = 100 * 1024
        var lines: [String] = []
        let measured = results.first?.parts ?? []
        if measured.contains(.commands) {
            let exportMet = results.allSatisfy { $0.export.ran && $0.sqliteJSON.ran && $0.export.seconds <= 1.5 * $0.sqliteJSON.seconds } && (largest.map { $0.export.peakKiB <= limit && $0.exportLines.peakKiB <= limit } ?? false)
            lines.append("\(verdict(exportMet)) export within 1.5x of sqlite3 -json, peak <= 100 MiB at the largest size: " + each {
                "\(n($0)): \(time($0.export.seconds)) vs \(time($0.sqliteJSON.seconds)), \(Report.ratio($0.export.seconds, $0.sqliteJSON.seconds)), peak \($0.export.peakKiB / 1024) MiB (jsonl \($0.exportLines.peakKiB / 1024) MiB)"
            })
            let importMet = results.allSatisfy { $0.importDocument.ran && $0.importLines.ran && $0.rawInsert.ran && max($0.importDocument.seconds, $0.importLines.seconds) <= 2 * $0.rawInsert.seconds } && (largest.map { $0.importDocument.peakKiB <= limit && $0.importLines.peakKiB <= limit } ?? false)
            lines.append("\(verdict(importMet)) import within 2x of a bulk INSERT … SELECT of the same rows (same triggers), peak <= 100 MiB: " + each {
                "\(n($0)): json \(time($0.importDocument.seconds)) / jsonl \(time($0.importLines.seconds)) vs \(time($0.rawInsert.seconds)), \(Report.ratio(max($0.importDocument.seconds, $0.importLines.seconds), $0.rawInsert.seconds)), peak \(max($0.importDocument.peakKiB, $0.importLines.peakKiB) / 1024) MiB"
            })
            lines.append("\(verdict(results.allSatisfy { $0.roundTripIdentical && $0.importLines.status == 0 })) export | import round-trips (re-export byte-identical): " + each { "\(n($0)): \($0.roundTripIdentical)" })
            lines.append("\(verdict(results.allSatisfy { $0.ls <= 1.5 * $0.plainLs })) ls within 1.5x of the plain query (warm): " + each {
                "\(n($0)): \(time($0.ls)) vs \(time($0.plainLs)), \(Report.ratio($0.ls, $0.plainLs))"
            })
            lines.append("\(verdict(results.allSatisfy { $0.status <= 1.5 * $0.plainStatus })) status within 1.5x of the plain counts (warm): " + each {
                "\(n($0)): \(time($0.status)) vs \(time($0.plainStatus)), \(Report.ratio($0.status, $0.plainStatus))"
            })
            lines.append("\(verdict((largest?.tabs ?? 0) >= 100_000 && (largest?.lsLimit ?? 1) <= 0.050)) ls --limit 20 within 50 ms at 100,000 tabs: " + each { "\(n($0)): \(time($0.lsLimit))" })
            lines.append("\(verdict(results.allSatisfy { $0.watchSmall <= 0.050 })) watch's first line within 50 ms for a \(smallBrowserTabs)-tab browser beside the large one: " + each { "\(n($0)): \(time($0.watchSmall))" })
            lines.append("\(verdict(results.allSatisfy { $0.watchLarge <= max(0.050, 0.200) })) watch's first line for the large browser within the first-snapshot goal (200 ms): " + each { "\(n($0)): \(time($0.watchLarge))" })
        }
        if measured.contains(.mediator) {
            lines.append("\(verdict(largest.map { $0.firstSnapshot <= 0.200 } ?? false)) first snapshot of the largest browser within 200 ms: " + each { "\(n($0)): \(time($0.firstSnapshot))" })
            lines.append("\(verdict(!results.isEmpty && results.allSatisfy { ($0.change.p99 ?? .infinity) <= 50e6 })) a one-tab change reaches the consumer within 50 ms p99 (same process): " + each { "\(n($0)): p99 \(Report.duration($0.change.p99))" })
            let poll = StoreObservationDelivery.externalChangeLatency
            lines.append("\(verdict(!results.isEmpty && results.allSatisfy { ($0.externalChange.p99 ?? .infinity) <= (poll + 0.050) * 1e9 })) a change from another connection within the poll interval (\(time(poll))) + 50 ms p99: " + each { "\(n($0)): p50 \(Report.duration($0.externalChange.p50)) p99 \(Report.duration($0.externalChange.p99)) over \($0.externalChange.count)" })
            lines.append("\(verdict(!results.isEmpty && results.allSatisfy { ($0.mainThreadLateness.p99 ?? .infinity) <= 5e6 })) the main thread busy at most 5 ms p99 (lateness of 1 ms main-queue pings during the changes): " + each { "\(n($0)): p99 \(Report.duration($0.mainThreadLateness.p99))" })
            lines.append("\(verdict(results.allSatisfy { ($0.burst?.delayNanoseconds ?? .max) <= 450_000_000 })) a 1,000-commit burst's last update within the pacing interval (400 ms at most) + 50 ms: " + each { "\(n($0)): \(Report.duration(($0.burst?.delayNanoseconds).map { Double($0) }))" })
        }
        if measured.contains(.bytes) {
            lines.append("REPORT  bytes on disk per tab / per history entry, store vs a plain schema of the same content: " + each {
                String(format: "%@: %.0f / %.0f B vs %.0f / %.0f B", n($0), $0.bytesPerTab.store, $0.bytesPerEntry.store, $0.bytesPerTab.raw, $0.bytesPerEntry.raw)
            })
        }
        lines.append("        the performance issue's mutation goals: run the default bench (without --large) after this one")
        return lines
    }
}

/// The `sqlite3` shell's version, for the report.
enum SQLiteVersion {
    static let shell: String = {
        let output = NSTemporaryDirectory() + "sqlite3-version-\(getpid())"
        defer { unlink(output) }
        guard (try? LargeSessions.spawn("/usr/bin/sqlite3", ["-version"], stdout: output)) != nil,
              let text = try? String(contentsOfFile: output, encoding: .utf8)
        else { return "(unknown)" }
        return String(text.split(separator: " ").first ?? "(unknown)")
    }()
}
