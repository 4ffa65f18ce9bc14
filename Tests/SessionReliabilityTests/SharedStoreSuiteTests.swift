import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Several real processes share one store, and some of them are killed at
/// random moments; nothing any writer acknowledged may be lost (issue 29).
///
/// Each schedule makes a new store and runs, for about a second and a half:
/// - two app-like writers (`sessionstore-crash-writer app`: the default
///   configuration, snapshots and observation on, async calls from the main
///   actor). Each appends every acknowledged commit, with its time, to a log of
///   its own that it fsyncs; a writer that ends or is killed starts again as a
///   new incarnation;
/// - three to five peers drawn from: `sqlite3` (`BEGIN IMMEDIATE; COMMIT;`, a
///   read transaction held open, `PRAGMA wal_checkpoint(TRUNCATE)`, a reader),
///   and `sessionstore` `status`, `check`, `ls`, `export`, `snapshot`,
///   `restore-snapshot`, `import --replace`, `prune`, `recover --output`,
///   `watch`, `sync` and `host` (the browser's native host, fed a recorded
///   stream of a browser starting with a window and opening tabs in it, as
///   Chromium's or Firefox's host at random: two browsers sharing the store),
///   each run again and again;
/// - one to three SIGKILLs or SIGTERMs of any running process.
///
/// Then, read by another process:
/// - **loss**: every acknowledged commit is in the store, unless a
///   `restore-snapshot` or `import --replace` (logged, fsynced, with the time
///   it ended) may have removed it by design: one that ended after the commit's
///   call began. Nothing is there that no writer committed. The same holds for
///   every tab whose event `sessionstore host` acknowledged, and the tabs of
///   each browser's last host run are still open: the other browser's start
///   closed none of them.
/// - **check**: `sessionstore check` finds nothing.
/// - **reads**: every read by another process (`sqlite3`, `sessionstore export`)
///   that sees commit N of a writer sees all of that writer's commits before N
///   (back to the last `restore-snapshot` or `import --replace` it may have seen).
///
/// `sessionstore sync` joins the peers when PostgreSQL and the sync server (built by
/// `swift build --package-path Server`) are there: the suite starts both once, in a
/// temporary directory, and pairs each store that draws `sync` into a new account.
/// Without them it says so in its output and runs the rest.
///
/// 40 schedules in CI; `SESSIONSTORE_RELIABILITY_FULL=1` runs 1,000 (BENCHMARKS.md).
@Suite(.serialized) struct SharedStoreSuiteTests {
    static let schedules = ProcessInfo.processInfo.environment["SESSIONSTORE_SHARED_SCHEDULES"].flatMap(Int.init)
        ?? (fullRuns ? 1_000 : 40)

    @Test func manyProcessesAndKills_loseNoAcknowledgedCommit() async throws {
        // The run blocks for minutes: on a thread of its own, not one of the few threads
        // of Swift's cooperative pool, whose async tests beside it would starve.
        let (totals, findings) = try await onOwnThread(Self.runSchedules)
        for finding in findings { Issue.record(Comment(rawValue: finding)) }
        print(totals.report(schedules: Self.schedules))
        #expect(totals.lost == 0 && totals.checkFailures == 0 && totals.disagreeingReads == 0)
        #expect(totals.randomKills >= Self.schedules)
    }

    /// Runs every schedule; returns the figures and one finding per schedule that had problems.
    static func runSchedules() throws -> (SharedStoreTotals, [String]) {
        var totals = SharedStoreTotals()
        var findings: [String] = []
        // A peer killed before it read its stdin must not take the test process down with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let sync = SuiteSyncServer.start()
        defer { if case .success(let server) = sync { server.stop() } }
        switch sync {
        case .success(let server): totals.sync = "sync against \(server.url) on PostgreSQL"
        case .failure(let reason): totals.sync = "sync left out: \(reason)"
        }
        for index in 0..<schedules {
            let schedule = try SharedStoreSchedule(seed: UInt64(index) &+ 0x5A4E, syncServer: try? sync.get().url)
            let outcome = try schedule.run()
            totals.add(outcome)
            if outcome.problems.isEmpty {
                schedule.directory.remove()
            } else {
                findings.append("schedule \(index) (kept at \(schedule.directory.path)): \(outcome.problems.prefix(5))")
                print(findings.last!)
            }
        }
        return (totals, findings)
    }
}

/// Runs `body` on a new thread and waits for it without holding a thread of the cooperative pool.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// What one schedule did and found.
struct SharedStoreOutcome {
    var processes = 0
    var mostAtOnce = 0
    var sigkills = 0
    var sigterms = 0
    var endKills = 0
    var acknowledged = 0
    var lost = 0
    var checkFailed = false
    var reads = 0
    var disagreeingReads = 0
    var restores = 0
    var syncs = 0
    var hostAcknowledged = 0
    var busyWaits: [Double] = []
    var problems: [String] = []
}

/// The figures of a whole run.
struct SharedStoreTotals {
    var processes = 0, mostAtOnce = 0, randomKills = 0, sigkills = 0, sigterms = 0, endKills = 0
    var acknowledged = 0, lost = 0, checkFailures = 0, reads = 0, disagreeingReads = 0, restores = 0, syncs = 0
    var hostAcknowledged = 0
    var sync = ""
    var busyWaits: [Double] = []

    mutating func add(_ outcome: SharedStoreOutcome) {
        processes += outcome.processes
        mostAtOnce = max(mostAtOnce, outcome.mostAtOnce)
        randomKills += outcome.sigkills + outcome.sigterms
        sigkills += outcome.sigkills
        sigterms += outcome.sigterms
        endKills += outcome.endKills
        acknowledged += outcome.acknowledged
        lost += outcome.lost
        checkFailures += outcome.checkFailed ? 1 : 0
        reads += outcome.reads
        disagreeingReads += outcome.disagreeingReads
        restores += outcome.restores
        syncs += outcome.syncs
        hostAcknowledged += outcome.hostAcknowledged
        busyWaits += outcome.busyWaits
    }

    func report(schedules: Int) -> String {
        """
        shared-store suite: \(schedules) schedules, \(processes) processes (up to \(mostAtOnce) at once), \
        \(randomKills) kills at random moments (\(sigkills) SIGKILL, \(sigterms) SIGTERM) and \(endKills) at the ends; \
        \(acknowledged) acknowledged commits and \(hostAcknowledged) tabs acknowledged by sessionstore host, \(lost) lost; \
        \(restores) restore-snapshot/import --replace; \
        \(checkFailures) check failures; \(reads) reads by other processes, \(disagreeingReads) disagreeing
        shared-store suite: \(sync); \(syncs) sync runs; \(busyWaits.count) opens of a writer ended busy and were \
        retried (longest wait \(String(format: "%.2f", busyWaits.max() ?? 0)) s)
        """
    }
}

/// Nanoseconds of CLOCK_MONOTONIC: the clock the writers stamp their logs with.
func monotonicNanos() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// One schedule: a new store, its processes, its kills, and the verdict.
final class SharedStoreSchedule: @unchecked Sendable {
    enum Peer: CaseIterable {
        case sqliteImmediate, sqliteLongRead, sqliteCheckpoint, sqliteReader
        case status, check, ls, export, snapshot, restoreSnapshot, importReplace, prune, recover, watch, sync, host
    }

    /// A run of `sessionstore host`: when it started, the browser it mirrored, and the tabs
    /// whose events it acknowledged.
    struct HostRun {
        var start: Int64
        var source: String
        var tabs: [String]
    }

    /// A writer incarnation: where it logs, and when it was started.
    struct Incarnation {
        var slot: Int
        var incarnation: Int
        var log: String
        var launchedAt: Int64
    }

    /// A read by another process: when it ran and what it saw of the writers.
    struct Observation {
        var start: Int64
        var end: Int64
        var commits: Set<SharedStoreStamp.Commit>
        var source: String
    }

    let directory: TemporaryDirectory
    let path: String
    private var rng: SplitMix64
    private let lock = NSLock()
    private var live: [Int32: (isWriter: Bool, name: String)] = [:]  // running processes
    private var stopped = false
    private var launches = 0
    private var mostAtOnce = 0
    private var incarnations: [Incarnation] = []
    private var destructive: [(start: Int64, end: Int64)] = []
    private var observations: [Observation] = []
    private var exports: [String] = []
    private var problems: [String] = []
    private var counter = 0

    /// The sync server's URL, when the run has one.
    let syncServer: String?
    private var syncs = 0
    private var hostRuns: [HostRun] = []
    /// How long each of the writers' opens that ended busy (then retried) waited, in seconds.
    private var busyWaits: [Double] = []

    init(seed: UInt64, syncServer: String?) throws {
        directory = try TemporaryDirectory()
        path = directory.file("store.sqlite")
        rng = SplitMix64(seed: seed)
        self.syncServer = syncServer
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private var isStopped: Bool { locked { stopped } }

    private func nextNumber() -> Int {
        locked {
            counter += 1
            return counter
        }
    }

    // MARK: Running

    func run() throws -> SharedStoreOutcome {
        var outcome = SharedStoreOutcome()
        let peers = Peer.allCases.filter { $0 != .sync || syncServer != nil }
            .shuffled(using: &rng).prefix(Int.random(in: 3...5, using: &rng))
        if peers.contains(.sync) {
            // A device of a new account: the store is made and paired before the writers start.
            for step in [["migrate", "--db", path], ["pair", "--db", path, "--name", "suite"]] {
                let result = try runTool(step, in: directory.path)
                guard result.status == 0 else { throw SuiteFailure("\(step[0]): \(result)") }
            }
        }
        let group = DispatchGroup()
        func spawn(_ body: @escaping @Sendable () -> Void) {
            group.enter()
            Thread.detachNewThread {
                body()
                group.leave()
            }
        }
        for slot in 0..<2 {
            let seed = rng.next()
            spawn { self.runWriter(slot: slot, seed: seed) }
        }
        for peer in peers {
            let seed = rng.next()
            spawn { self.runPeer(peer, seed: seed) }
        }
        // Kills at random moments of a window of 1.5 s.
        let window = 1.5
        let killCount = Int.random(in: 1...3, using: &rng)
        let moments = (0..<killCount).map { _ in Double.random(in: 0.3..<window, using: &rng) }.sorted()
        let start = Date()
        for moment in moments {
            let wait = moment - Date().timeIntervalSince(start)
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            let signal = Int.random(in: 0..<10, using: &rng) < 7 ? SIGKILL : SIGTERM
            let killed: Bool = locked {
                let pids = live.keys.sorted()
                guard !pids.isEmpty else { return false }
                kill(pids[Int.random(in: 0..<pids.count, using: &rng)], signal)
                return true
            }
            guard killed else { continue }
            if signal == SIGKILL { outcome.sigkills += 1 } else { outcome.sigterms += 1 }
        }
        let rest = window - Date().timeIntervalSince(start)
        if rest > 0 { Thread.sleep(forTimeInterval: rest) }
        // The end: writers are SIGKILLed, as an app in the background is; every other process
        // still running (a `watch` runs until told) gets a SIGTERM. Not counted as random kills.
        let remaining: [(Int32, Bool)] = locked {
            stopped = true
            return live.map { ($0.key, $0.value.isWriter) }
        }
        locked {
            for (pid, isWriter) in remaining where live[pid] != nil {
                kill(pid, isWriter ? SIGKILL : SIGTERM)
                outcome.endKills += 1
            }
        }
        if group.wait(timeout: .now() + 60) != .success {
            // A process that outlives its schedule by a minute hangs: a finding; end it.
            let hung: [Int32] = locked { Array(live.keys) }
            let names = locked { live.values.map(\.name).sorted().joined(separator: ", ") }
            locked { problems.append("still running a minute after the schedule ended: \(names)") }
            for pid in hung { kill(pid, SIGKILL) }
            guard group.wait(timeout: .now() + 60) == .success else { throw SuiteFailure("schedule did not end") }
        }
        outcome.processes = locked { launches }
        outcome.mostAtOnce = locked { mostAtOnce }
        outcome.syncs = locked { syncs }
        outcome.busyWaits = locked { busyWaits }
        try verify(into: &outcome)
        return outcome
    }

    /// Starts `binary` with `arguments` in the schedule's directory, records it as live,
    /// and waits for it: `posix_spawn` and `waitpid`, not Foundation's `Process`, which
    /// can miss a child's exit when another child (here, one spawned at the same moment
    /// by another thread, or `sqlite3`'s `.shell`) inherited its watch descriptor.
    /// - Returns: Its exit status (negative: the signal that ended it), its stdout and stderr.
    @discardableResult
    private func launch(
        _ binary: String, _ arguments: [String], isWriter: Bool = false, stdin: Data? = nil
    ) -> (status: Int32, stdout: String, stderr: String) {
        let number = nextNumber()
        let inPath = directory.file("in-\(number)")
        let outPath = directory.file("out-\(number)"), errPath = directory.file("err-\(number)")
        defer { for file in [inPath, outPath, errPath] { unlink(file) } }
        if let stdin { _ = FileManager.default.createFile(atPath: inPath, contents: stdin) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin == nil ? "/dev/null" : inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "SESSIONSTORE_DB" }
            .map { "\($0.key)=\($0.value)" }
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let pid: pid_t? = locked {
            guard !stopped else { return nil }
            // The child runs in the test's directory: every path given to it is absolute.
            var pid: pid_t = 0
            guard posix_spawn(&pid, binary, &actions, nil, argv, envp) == 0 else { return nil }
            live[pid] = (isWriter, ([URL(fileURLWithPath: binary).lastPathComponent] + arguments.prefix(1)).joined(separator: " "))
            launches += 1
            mostAtOnce = max(mostAtOnce, live.count)
            return pid
        }
        guard let pid else { return (-1, "", "not started") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        locked { _ = live.removeValue(forKey: pid) }
        // Read leniently: the host's replies carry binary length prefixes.
        let stdout = FileManager.default.contents(atPath: outPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        let signal = status & 0x7f
        // The suite sends SIGKILL and SIGTERM only: any other signal is a crash.
        if [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV].contains(signal) {
            let name = ([URL(fileURLWithPath: binary).lastPathComponent] + arguments.prefix(1)).joined(separator: " ")
            locked { problems.append("\(name) crashed (signal \(signal)): \(stderr.prefix(600))") }
        }
        return (signal == 0 ? (status >> 8) & 0xff : -signal, stdout, stderr)
    }

    private func runWriter(slot: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var incarnation = 0
        while !isStopped {
            incarnation += 1
            let log = directory.file("writer-\(slot)-\(incarnation).log")
            let record = Incarnation(slot: slot, incarnation: incarnation, log: log, launchedAt: monotonicNanos())
            locked { incarnations.append(record) }
            let result = launch(
                BuiltBinary.crashWriter,
                ["app", "--db", path, "--slot", "\(slot)", "--incarnation", "\(incarnation)", "--log", log,
                 "--count", "\(Int.random(in: 15...60, using: &rng))", "--seed", "\(rng.next() >> 1)"],
                isWriter: true)
            let waits = result.stderr.split(separator: "\n").compactMap { line in
                line.hasPrefix("busy ") ? Double(line.dropFirst(5)) : nil
            }
            locked { busyWaits += waits }
            // A writer that was killed ends with a signal; one that failed on its own is a finding.
            if result.status > 0 {
                locked { problems.append("writer \(slot).\(incarnation) failed (\(result.status)): \(result.stderr.prefix(300))") }
            }
        }
    }

    private func runPeer(_ peer: Peer, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let sqlite = "/usr/bin/sqlite3"
        let command = BuiltBinary.sessionstore
        while !isStopped {
            switch peer {
            case .sqliteImmediate:
                launch(sqlite, ["-cmd", ".timeout 2000", path, "BEGIN IMMEDIATE; COMMIT;"])
            case .sqliteLongRead:
                launch(sqlite, ["-cmd", ".timeout 2000", path],
                       stdin: Data("BEGIN;\nSELECT count(*) FROM tabs;\n.shell sleep 0.3\nCOMMIT;\n".utf8))
            case .sqliteCheckpoint:
                launch(sqlite, ["-cmd", ".timeout 2000", path, "PRAGMA wal_checkpoint(TRUNCATE);"])
            case .sqliteReader:
                let start = monotonicNanos()
                let result = launch(sqlite, ["-cmd", ".timeout 2000", path, "SELECT id FROM tabs;"])
                if result.status == 0 { observe(result.stdout, start: start, source: "sqlite3") }
            case .status:
                launch(command, ["status", "--db", path])
            case .check:
                launch(command, ["check", "--db", path])
            case .ls:
                launch(command, ["ls", "--db", path])
            case .export:
                export()
            case .snapshot:
                launch(command, ["snapshot", "--db", path])
            case .restoreSnapshot:
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: path + ".snapshots")) ?? [])
                    .filter { $0.hasSuffix(".sqlite") }.sorted()
                if let name = names.randomElement(using: &rng) {
                    destructively { launch(command, ["restore-snapshot", "--db", path, name]) }
                }
            case .importReplace:
                if let document = locked({ exports.last }) {
                    destructively { launch(command, ["import", "--db", path, "--replace", document]) }
                } else {
                    export()  // the document a later import replaces the store with
                }
            case .prune:
                launch(command, ["prune", "--db", path])
            case .recover:
                launch(command, ["recover", "--db", path, "--output", directory.file("recovered-\(nextNumber()).sqlite")])
            case .watch:
                launch(command, ["watch", "--db", path])
            case .sync:
                if let syncServer {
                    launch(command, ["sync", "--db", path, "--server", syncServer])
                    locked { syncs += 1 }
                }
            case .host:
                // Chromium's host or Firefox's: two browsers sharing the store.
                let source = Bool.random(using: &rng) ? "chromium" : "firefox"
                let start = monotonicNanos()
                let result = launch(command, ["host", "--db", path, "--source", source], stdin: Self.browserEvents(using: &rng))
                let run = HostRun(start: start, source: source, tabs: Self.acknowledgedTabs(in: result.stdout))
                locked { hostRuns.append(run) }
                // Killed, it ends with a signal; ended by its input, with 0. Anything else is a finding.
                if result.status > 0 {
                    locked { problems.append("host failed (\(result.status)): \(result.stderr.suffix(300))") }
                }
            }
            Thread.sleep(forTimeInterval: Double.random(in: 0..<0.05, using: &rng))
        }
    }

    /// What a browser sends its native host as it starts with one window, which then gets
    /// 4 to 39 more tabs: the snapshot of the window and its first tab, then each new tab and
    /// its page, framed as native messages (a length in native byte order). The snapshot
    /// closes the host's own browser's earlier windows, never another browser's.
    static func browserEvents(using rng: inout SplitMix64) -> Data {
        let window = Int.random(in: 1..<1_000_000, using: &rng)
        var messages: [[String: Any]] = []
        for index in 0..<Int.random(in: 5...40, using: &rng) {
            let tab = window * 100 + index
            let url = "https://host.example/\(tab)"
            let described: [String: Any] = ["id": tab, "windowId": window, "index": index, "url": url, "title": "Tab \(tab)", "active": index == 0]
            if index == 0 {
                messages.append(["type": "snapshot", "windows": [["id": window, "tabs": [described]]]])
                continue
            }
            messages.append(["type": "tabCreated", "tab": described])
            messages.append([
                "type": "navigationCommitted", "tabId": tab, "url": url + "/next", "transitionType": "link",
                "transitionQualifiers": [String](),
            ])
        }
        return messages.enumerated().reduce(into: Data()) { data, element in
            var message = element.element
            message["id"] = element.offset + 1
            let body = (try? JSONSerialization.data(withJSONObject: message)) ?? Data()
            var length = UInt32(body.count)
            withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
            data.append(body)
        }
    }

    /// The store identifiers of the tabs the host's replies acknowledged (`"ids":{"TAB":"UUID"}`).
    static func acknowledgedTabs(in replies: String) -> [String] {
        replies.matches(of: /"ids":\{"[0-9]+":"([0-9A-Fa-f-]{36})"\}/).map { String($0.output.1) }
    }

    /// Exports the store (one read transaction): a read by another process, and a document to import.
    private func export() {
        let output = directory.file("export-\(nextNumber()).json")
        let start = monotonicNanos()
        let result = launch(BuiltBinary.sessionstore, ["export", "--db", path, "--output", output])
        if result.status == 0, let text = try? String(contentsOfFile: output, encoding: .utf8) {
            observe(text, start: start, source: "sessionstore export")
            locked { exports.append(output) }
        }
    }

    /// Runs a command that may remove commits by design, logging when it began and ended (fsynced).
    private func destructively(_ body: () -> (status: Int32, stdout: String, stderr: String)) {
        let start = monotonicNanos()
        let result = body()
        let end = monotonicNanos()
        locked { destructive.append((start, end)) }
        let line = Array("\(start) \(end) \(result.status)\n".utf8)
        let descriptor = open(directory.file("commands.log"), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            fsync(descriptor)
            close(descriptor)
        }
    }

    private func observe(_ text: String, start: Int64, source: String) {
        let observation = Observation(
            start: start, end: monotonicNanos(), commits: Self.commits(in: text), source: source)
        locked { observations.append(observation) }
    }

    /// The writers' commits named in `text` (tab ids, one per line or inside a document).
    static func commits(in text: String) -> Set<SharedStoreStamp.Commit> {
        var found: Set<SharedStoreStamp.Commit> = []
        var rest = text[...]
        while let range = rest.range(of: "5a4e0000-", options: .caseInsensitive) {
            let id = rest[range.lowerBound...].prefix(36)
            if let commit = SharedStoreStamp.parse(String(id)) { found.insert(commit) }
            rest = rest[range.upperBound...]
        }
        return found
    }

    // MARK: Verdict

    /// Each incarnation's acknowledged commits: sequence → when the call returned.
    private func acknowledgements(_ incarnation: Incarnation) -> [Int: Int64] {
        guard let text = try? String(contentsOfFile: incarnation.log, encoding: .utf8) else { return [:] }
        var acknowledged: [Int: Int64] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let sequence = Int(fields[0]), let time = Int64(fields[1]) {
                acknowledged[sequence] = time
            }
        }
        return acknowledged
    }

    private func verify(into outcome: inout SharedStoreOutcome) throws {
        outcome.problems = locked { problems }
        outcome.restores = destructive.count
        // The store as another process reads it once everything has ended.
        let final = try runTool(["-cmd", ".timeout 5000", path, "SELECT id FROM tabs;"], in: directory.path, binary: "/usr/bin/sqlite3")
        guard final.status == 0 else {
            outcome.problems.append("the store cannot be read: \(final)")
            outcome.checkFailed = true
            return
        }
        let present = Self.commits(in: final.stdout)
        let check = try runTool(["check", "--db", path], in: directory.path)
        if check.status != 0 {
            outcome.checkFailed = true
            outcome.problems.append("check: \(check)")
        }
        // When a commit's call began, at the latest: when the previous one was acknowledged.
        var began: [SharedStoreStamp.Commit: Int64] = [:]
        var acknowledgedCommits: Set<SharedStoreStamp.Commit> = []
        var committable: Set<SharedStoreStamp.Commit> = []
        for incarnation in incarnations {
            let acknowledged = acknowledgements(incarnation)
            let last = acknowledged.keys.max() ?? 0
            for sequence in 1...(last + 1) {
                let commit = SharedStoreStamp.Commit(
                    slot: incarnation.slot, incarnation: incarnation.incarnation, sequence: sequence)
                began[commit] = sequence == 1 ? incarnation.launchedAt : acknowledged[sequence - 1]
                committable.insert(commit)
                if acknowledged[sequence] != nil { acknowledgedCommits.insert(commit) }
            }
        }
        outcome.acknowledged = acknowledgedCommits.count
        // Loss: acknowledged, absent, and no destructive command ended after its call began.
        for commit in acknowledgedCommits.sorted() where !present.contains(commit) {
            let start = began[commit] ?? 0
            if !destructive.contains(where: { $0.end > start }) {
                outcome.lost += 1
                outcome.problems.append("lost: writer \(commit.slot).\(commit.incarnation) commit \(commit.sequence)")
            }
        }
        // The host's tabs, as the writers' commits: acknowledged, absent, and no destructive
        // command ended after the host run began.
        for run in hostRuns {
            outcome.hostAcknowledged += run.tabs.count
            for tab in run.tabs where !final.stdout.localizedCaseInsensitiveContains(tab)
                && !destructive.contains(where: { $0.end > run.start }) {
                outcome.lost += 1
                outcome.problems.append("lost: tab \(tab), acknowledged by sessionstore host")
            }
        }
        // Two browsers share the store: a host's start closes its own browser's earlier windows,
        // never the other's. The tabs of each browser's last run are still open, unless a
        // destructive command ended after that run began.
        let open = try runTool(
            ["-cmd", ".timeout 5000", path,
             "SELECT t.id FROM tabs AS t JOIN browsers AS b ON b.id = t.browser_id WHERE b.closed_entry_id IS NULL;"],
            in: directory.path, binary: "/usr/bin/sqlite3")
        for source in Set(hostRuns.map(\.source)) {
            guard let last = hostRuns.filter({ $0.source == source }).max(by: { $0.start < $1.start }),
                  !destructive.contains(where: { $0.end > last.start })
            else { continue }
            for tab in last.tabs where !open.stdout.localizedCaseInsensitiveContains(tab) {
                outcome.lost += 1
                outcome.problems.append("closed: tab \(tab) of \(source)'s last host run, by another browser's host")
            }
        }
        // Nothing that no writer committed (the last call of a killed writer may have committed).
        for commit in present.subtracting(committable).sorted() {
            outcome.problems.append("present but never committed: \(commit)")
        }
        // Reads: seeing commit N of a writer means seeing its commits before N, back to the
        // first whose call began after the last destructive command that may have preceded the read.
        outcome.reads = observations.count + 1
        for observation in observations + [Observation(start: 0, end: .max, commits: present, source: "final read")] {
            let cutoff = destructive.filter { $0.start < observation.end }.map(\.end).max()
            let writers = Dictionary(grouping: observation.commits) { [$0.slot, $0.incarnation] }
            var disagrees = false
            for (_, seen) in writers {
                guard let newest = seen.max() else { continue }
                for sequence in 1..<newest.sequence {
                    let commit = SharedStoreStamp.Commit(
                        slot: newest.slot, incarnation: newest.incarnation, sequence: sequence)
                    if seen.contains(commit) { continue }
                    if let cutoff, (began[commit] ?? 0) < cutoff { continue }
                    disagrees = true
                    outcome.problems.append(
                        "\(observation.source) saw writer \(newest.slot).\(newest.incarnation) at \(newest.sequence) without \(sequence)")
                    break
                }
            }
            if disagrees { outcome.disagreeingReads += 1 }
        }
    }
}

/// A schedule that could not be run to its end.
struct SuiteFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// PostgreSQL and `sessionstore-sync-server` in a temporary directory, for the
/// suite's `sync` peer: started once for the whole run, as `Scripts/sync-demo` does.
final class SuiteSyncServer: @unchecked Sendable {
    /// The server's URL.
    let url: String
    private let work: TemporaryDirectory
    private let server: Process
    private let postgres: (bin: String, data: String)

    private init(url: String, work: TemporaryDirectory, server: Process, postgres: (bin: String, data: String)) {
        self.url = url
        self.work = work
        self.server = server
        self.postgres = postgres
    }

    /// The server's binary, built by `swift build --package-path Server`.
    static let binary = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Server/.build/debug/sessionstore-sync-server").path

    /// Starts PostgreSQL and the server; the reason when it cannot (nothing is left running then).
    static func start() -> Result<SuiteSyncServer, SuiteFailure> {
        let bins = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted().map { "/usr/lib/postgresql/\($0)/bin" }
        guard let bin = bins.last, FileManager.default.isExecutableFile(atPath: bin + "/initdb") else {
            return .failure(SuiteFailure("PostgreSQL is missing (apt-get install -y postgresql)"))
        }
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            return .failure(SuiteFailure("the sync server is not built (swift build --package-path Server)"))
        }
        do {
            let work = try TemporaryDirectory()
            chmod(work.path, 0o755)  // PostgreSQL's user reaches its directory inside
            let socket = work.file("pg"), data = work.file("pg/data")
            try FileManager.default.createDirectory(atPath: socket, withIntermediateDirectories: true)
            let root = getuid() == 0
            if root, let user = getpwnam("postgres") { chown(socket, user.pointee.pw_uid, user.pointee.pw_gid) }
            func asPostgres(_ tool: String, _ arguments: [String]) throws -> RunResult {
                let command = (root ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [bin + "/" + tool] + arguments
                return spawnWaiting(command, log: work.file("postgres.log"))
            }
            let port = Int.random(in: 20_000..<40_000)
            var steps = [try asPostgres("initdb", ["-D", data, "-A", "trust", "-U", "postgres"])]
            steps.append(try asPostgres("pg_ctl", ["-D", data, "-o", "-k \(socket) -p \(port) -c listen_addresses=''", "-w", "start"]))
            steps.append(try asPostgres("createdb", ["-h", socket, "-p", "\(port)", "-U", "postgres", "sync"]))
            if let failed = steps.first(where: { $0.status != 0 }) {
                _ = try? asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "stop"])
                work.remove()
                return .failure(SuiteFailure("PostgreSQL did not start: \(failed)"))
            }
            let log = work.file("server.log")
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let server = Process()
            server.executableURL = URL(fileURLWithPath: binary)
            server.arguments = ["serve", "--database-url", "postgres://postgres@localhost:\(port)/sync?host=\(socket)", "--port", "0"]
            server.standardOutput = FileHandle(forWritingAtPath: log)
            server.standardError = FileHandle(forWritingAtPath: log)
            try server.run()
            var address: String?
            for _ in 0..<300 where address == nil {
                Thread.sleep(forTimeInterval: 0.1)
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if let range = text.range(of: "listening on ") {
                    address = String(text[range.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == ":" })
                }
            }
            guard let address else {
                server.terminate()
                _ = try? asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "stop"])
                work.remove()
                return .failure(SuiteFailure("the sync server did not start"))
            }
            return .success(SuiteSyncServer(url: "http://\(address)", work: work, server: server, postgres: (bin, data)))
        } catch {
            return .failure(SuiteFailure("\(error)"))
        }
    }

    /// Stops the server and PostgreSQL and removes their directory.
    func stop() {
        server.terminate()
        server.waitUntilExit()
        let stop = [postgres.bin + "/pg_ctl", "-D", postgres.data, "-m", "fast", "stop"]
        _ = spawnWaiting((getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + stop, log: "/dev/null")
        work.remove()
    }
}

/// Runs `command` to its end through `posix_spawn` and `waitpid`, its output appended to
/// `log`: Foundation's `Process` can miss the exit of a child whose own child
/// daemonizes (`pg_ctl start`), as the Server package's harness notes.
func spawnWaiting(_ command: [String], log: String) -> RunResult {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, command[0], &actions, nil, argv, environ) == 0 else {
        return RunResult(status: 127, stdout: "", stderr: "cannot run \(command[0])")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    return RunResult(status: code, stdout: "", stderr: "\(command.joined(separator: " ")): see \(log)")
}
