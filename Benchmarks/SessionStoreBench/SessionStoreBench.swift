import ArgumentParser
import Foundation
import SessionStorage

/// Measures the session store against raw SQLite and the full-rewrite design,
/// side by side in one process, and prints one table of figures and ratios.
@main
struct SessionStoreBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessionstore-bench",
        abstract: "Benchmarks the session store against raw SQLite and a full JSON rewrite per mutation.",
        discussion: """
            Build in release mode: swift build -c release --product sessionstore-bench. \
            Times are wall-clock p50/p99 per call; B/op is the mean of bytes passed to write(2) per call \
            (/proc/self/io wchar: WAL frames plus amortised checkpoints, or the whole rewritten file).
            """)

    @Option(help: "Tab counts of the one window, comma separated.")
    var sizes = "10,1000,10000"

    @Option(help: "Rounds of the six mutations per size (default 200, or 30 with --quick).")
    var iterations: Int?

    @Option(help: "Rounds for the full-rewrite baseline (default: fewer at large sizes, as each costs a whole file).")
    var rewriteIterations: Int?

    @Option(help: "Cold restores per size (default 5, or 2 with --quick).")
    var restoreIterations: Int?

    @Flag(help: "Fewer iterations, for a quick look.")
    var quick = false

    @Option(help: "SQLite synchronous setting for the store and raw SQLite: normal or full.")
    var synchronous = "normal"

    @Option(help: "Seed of the generator that picks tabs.")
    var seed: UInt64 = 7

    @Option(help: "Directory for the files (default: a new temporary directory, removed afterwards).")
    var directory: String?

    @Flag(inversion: .prefixedNo, help: "Measure peak memory of the cold restore at the largest size in child processes.")
    var peakMemory = true

    @Option(help: """
        Subjects whose mutations run, comma separated (for profiling one): store, raw (raw SQLite on a copy of \
        the store's file), minimal (raw SQLite on the 0001 schema, no derived data), rewrite.
        """)
    var subjects = "store,raw,minimal,rewrite"

    @Flag(help: "Also count instructions per call (callgrind) of store, raw and minimal, in a child run under valgrind per size.")
    var instructions = false

    @Option(help: "Rounds of the mutations per size under callgrind, with --instructions.")
    var instructionIterations = 20

    @Option(help: """
        The size (one of --sizes) at which the lines measured at one size run: the main thread under a held lock, \
        snapshots beside writes, the WAL soak, every async call (default: the largest; these copy or export \
        the whole store many times).
        """)
    var oneSize: Int?

    @Option(help: "How long another process holds the write lock while commands are measured, in seconds.")
    var lockHold = 1.0

    @Option(help: "Mutations of the WAL soak (a reader and an observation running beside the writer); 0 skips it.")
    var walSoak = 100_000

    @Flag(inversion: .prefixedNo, help: "Also run the store and raw SQLite at synchronous=FULL on the same files, for the durability line.")
    var fullBeside = true

    @Option(help: "Tabs in the nine other browsers beside a 100-tab active one, for the first-window line; 0 skips it.")
    var firstWindowTabs = 100_000

    @Option(help: "Instead of the mutations: the browser mirror's startup with TABS tabs in WINDOWS windows (TABS,WINDOWS), no browser.")
    var mirrorRestart: String?

    @Flag(help: "Instead of the mutations: export, import, ls, status, watch and a mediator on large sessions (issue 17's goals).")
    var large = false

    @Option(help: "Tab counts of the large browser for --large, comma separated.")
    var largeSizes = "10,10000,100000"

    @Option(help: "What --large measures: commands, mediator, bytes, comma separated (default: all; a store already in --directory is reused).")
    var largeParts = "commands,mediator,bytes"

    @Option(help: "Instead of the mutations: archive all but REMAINING of a TOTAL-tab window in one call (TOTAL,REMAINING), then open and mutate it beside a REMAINING-tab store (issue 38).")
    var archive: String?

    @Option(help: .hidden) var childRestore: String?
    @Option(help: .hidden) var childPath: String?
    @Option(help: .hidden) var childInstructions: String?

    func validate() throws {
        guard ["normal", "full"].contains(synchronous) else { throw ValidationError("--synchronous is normal or full") }
        guard !parsedSizes.isEmpty, parsedSizes.allSatisfy({ $0 >= 2 }) else {
            throw ValidationError("--sizes is a comma-separated list of tab counts of at least 2")
        }
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be positive") }
        if instructionIterations < 1 { throw ValidationError("--instruction-iterations must be positive") }
        if let oneSize, !parsedSizes.contains(oneSize) { throw ValidationError("--one-size must be one of --sizes") }
    }

    private var parsedSizes: [Int] { sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    private var storeConfiguration: SessionDatabase.Configuration {
        var configuration = SessionDatabase.Configuration()
        configuration.synchronous = synchronous == "full" ? .full : .normal
        configuration.backupBeforeMigrating = false
        // Raw SQLite takes no snapshots: neither does the store, but in the line that measures them.
        configuration.snapshots = nil
        return configuration
    }

    private var sqliteSynchronous: String { storeConfiguration.synchronous.rawValue }

    private var chosenSubjects: [String] {
        subjects.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    func run() throws {
        if let childInstructions {
            try InstructionCount.runChild(
                directory: childInstructions, rounds: iterations ?? instructionIterations, seed: seed,
                configuration: storeConfiguration, subjects: chosenSubjects)
            return
        }
        if let childRestore {
            guard let subject = ColdRestore.Subject(rawValue: childRestore), let childPath else {
                throw ValidationError("bad child arguments")
            }
            try ColdRestore.runChild(subject: subject, path: childPath, configuration: storeConfiguration)
            return
        }

        let root = directory ?? NSTemporaryDirectory() + "sessionstore-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { if directory == nil { try? FileManager.default.removeItem(atPath: root) } }

        if let mirrorRestart {
            let parts = mirrorRestart.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, parts[0] >= parts[1], parts[1] >= 1 else {
                throw ValidationError("--mirror-restart is TABS,WINDOWS, with at least one tab per window")
            }
            let result = try MirrorRestart.run(tabs: parts[0], windows: parts[1], root: root)
            for line in MirrorRestart.lines(result) { print(line) }
            return
        }

        if let archive {
            let parts = archive.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, parts[0] > parts[1], parts[1] >= 2 else {
                throw ValidationError("--archive is TOTAL,REMAINING, with TOTAL > REMAINING >= 2")
            }
            let result = try ArchiveBench.run(
                total: parts[0], remaining: parts[1], root: root, configuration: storeConfiguration,
                rounds: quick ? 3 : 9, progress: progress)
            print("sessionstore-bench --archive \(archive): \(ProcessInfo.processInfo.activeProcessorCount) cores")
            for line in ArchiveBench.lines(result) { print(line) }
            return
        }

        if large {
            let sizes = largeSizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !sizes.isEmpty, sizes.allSatisfy({ $0 >= 2 }) else {
                throw ValidationError("--large-sizes is a comma-separated list of tab counts of at least 2")
            }
            let parts = Set(largeParts.split(separator: ",").compactMap { LargeSessions.Part(rawValue: String($0)) })
            let results = try LargeSessions.run(
                sizes: sizes, root: root, configuration: storeConfiguration, rounds: quick ? 10 : 40, parts: parts,
                progress: progress)
            print("sessionstore-bench --large: \(ProcessInfo.processInfo.activeProcessorCount) cores, "
                + "\(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB; the release sessionstore and sqlite3 "
                + "\(SQLiteVersion.shell) as child processes; histories of \(SessionContent.historyLength) entries")
            for line in LargeSessions.rows(results) { print(line) }
            print("")
            print("Goals (issue 17):")
            for line in LargeSessions.goals(results) { print("  " + line) }
            return
        }

        let rounds = iterations ?? (quick ? 30 : 200)
        let restores = restoreIterations ?? (quick ? 2 : 5)
        var rows: [ReportRow] = []
        var goals = Goals()
        let sizes = parsedSizes
        for size in sizes {
            let measured = try measure(
                size: size, in: root + "/tabs-\(size)", rounds: rounds, restores: restores,
                measurePeakMemory: peakMemory && size == sizes.max())
            rows += measured.rows
            goals.mutations[size] = measured.mutations
            goals.restore[size] = measured.restore
            goals.open[size] = measured.open
            goals.minimalMutations[size] = measured.minimal
            if let counted = measured.instructions {
                goals.instructions[size] = counted
                rows += Self.instructionRows(counted, size: size)
            }
        }
        if fullBeside && synchronous == "normal" {
            for size in sizes {
                progress("\(size) tabs: \(rounds) rounds of mutations at synchronous=FULL, store and raw SQLite")
                let full = try measureFull(size: size, in: root + "/tabs-\(size)", rounds: rounds)
                goals.fullMutations[size] = full
                for kind in MutationKind.allCases {
                    rows.append(ReportRow(
                        workload: kind.label + " (FULL)", tabs: size, store: full[kind]!.store, raw: full[kind]!.raw))
                }
            }
        }
        for size in sizes {
            progress("\(size) tabs: 1,000-mutation burst observed by a WebStateListMediator")
            let burst = try MediatorBurst.run(path: root + "/tabs-\(size)/store.sqlite", configuration: storeConfiguration)
            goals.bursts[size] = burst
            rows.append(ReportRow(
                workload: "1,000-mutation burst, mediator", tabs: size,
                text: "\(burst.updates) updates for \(burst.commits) commits in \(Report.duration(Double(burst.burstNanoseconds))); "
                    + "last commit to final update \(Report.duration(Double(burst.delayNanoseconds)))"))
        }

        for size in sizes {
            progress("\(size) tabs: 50 activations, one every 100 ms, observed by a WebStateListMediator")
            let steady = try MediatorBurst.steady(path: root + "/tabs-\(size)/store.sqlite", configuration: storeConfiguration)
            goals.steady[size] = steady
            rows.append(ReportRow(
                workload: "one change per 100 ms, commit to consumer", tabs: size,
                text: "p50 \(Report.duration(steady.p50)), p99 \(Report.duration(steady.p99)), "
                    + "max \(Report.duration(steady.maximum)) over \(steady.count) changes"))
        }

        if let largest = oneSize ?? sizes.max() {
            progress("\(largest) tabs: commands from the main actor while sqlite3 holds the write lock")
            let locked = try MainThreadUnderLock.run(
                path: root + "/tabs-\(largest)/store.sqlite", configuration: storeConfiguration,
                asyncCommands: quick ? 200 : 1_000, holdSeconds: lockHold)
            goals.mainThread = locked
            rows.append(ReportRow(
                workload: "main thread per command, lock held", tabs: largest,
                text: "sync p50 \(Report.duration(locked.syncSamples.p50)) (lock held \(locked.syncHoldSeconds) s); "
                    + "async p50 \(Report.duration(locked.asyncSamples.p50)), p99 \(Report.duration(locked.asyncSamples.p99)), "
                    + "max \(Report.duration(locked.asyncSamples.maximum)) over \(locked.asyncSamples.count) commands "
                    + "(lock held \(String(format: "%.2f", locked.asyncHoldSeconds)) s; \(locked.asyncCompleted) completed after it)"))
        }

        if let largest = oneSize ?? sizes.max() {
            progress("\(largest) tabs: writes while snapshots are taken")
            let beside = try SnapshotBesideWriter.run(
                path: root + "/tabs-\(largest)/store.sqlite", configuration: storeConfiguration)
            goals.snapshots = beside
            rows.append(ReportRow(
                workload: "activate while snapshotting", tabs: largest, store: beside.duringSnapshots, raw: beside.quiet))
            rows.append(ReportRow(
                workload: "  (raw column: no snapshot)", tabs: largest,
                text: "\(beside.snapshots) snapshots (VACUUM INTO) in \(String(format: "%.2f", beside.snapshotSeconds)) s "
                    + "beside \(beside.duringSnapshots.count) activations"))
        }

        if firstWindowTabs > 0 {
            let otherTabs = quick ? min(firstWindowTabs, 10_000) : firstWindowTabs
            let first = try FirstWindow.run(
                directory: root + "/first-window", configuration: storeConfiguration, otherTabs: otherTabs,
                rounds: restores * 2, progress: progress)
            goals.firstWindow = first
            rows.append(ReportRow(workload: "first strip, 100-tab browser", tabs: FirstWindow.activeTabs, store: first.alone, raw: Samples()))
            rows.append(ReportRow(
                workload: "  beside 9 other browsers", tabs: FirstWindow.activeTabs + otherTabs, store: first.beside, raw: Samples()))
        }

        if walSoak > 0, let largest = oneSize ?? sizes.max() {
            let mutations = quick ? min(walSoak, 20_000) : walSoak
            progress("\(largest) tabs: WAL soak, \(mutations) mutations beside a reader and an observation")
            let soak = try WALSoak.run(
                path: root + "/tabs-\(largest)/store.sqlite", configuration: storeConfiguration, mutations: mutations)
            goals.walSoak = soak
            rows.append(ReportRow(
                workload: "WAL soak, reader + observation", tabs: largest,
                text: "\(Report.formatCount(soak.mutations)) mutations in \(String(format: "%.1f", soak.seconds)) s: "
                    + "WAL at most \(Report.bytes(Double(soak.largestBytes))) (sampled every 1,000), "
                    + "\(Report.bytes(Double(soak.finalBytes))) at the end"))
        }

        // Last: the calls leave the store changed (browsers made and closed, a snapshot restored).
        if let largest = oneSize ?? sizes.max() {
            progress("\(largest) tabs: every kind of async call from the main actor while sqlite3 holds the write lock")
            let calls = try AsyncCallsUnderLock.run(
                path: root + "/tabs-\(largest)/store.sqlite", configuration: storeConfiguration,
                repeats: quick ? 100 : 300, holdSeconds: lockHold)
            goals.asyncCalls = calls
            for call in calls.calls {
                rows.append(ReportRow(
                    workload: "  main thread, async \(call.name)", tabs: largest,
                    text: "p50 \(Report.duration(call.samples.p50)), p99 \(Report.duration(call.samples.p99)), "
                        + "max \(Report.duration(call.samples.maximum)) over \(call.samples.count)"))
            }
        }

        print("sessionstore-bench: synchronous=\(sqliteSynchronous), \(rounds) rounds per size (rewrite: "
            + "\(sizes.map { "\(rewriteRounds(size: $0, rounds: rounds))" }.joined(separator: "/"))), "
            + "\(restores) cold restores per size, histories of \(SessionContent.historyLength) entries")
        print(Report.table(rows))
        print("")
        print("Goals (issue 7):")
        for line in goals.lines() { print("  " + line) }
        print("")
        print("Goals (issue 14):")
        for line in goals.issue14Lines() { print("  " + line) }
        print("")
        print("Goals (issue 31):")
        for line in goals.issue31Lines() { print("  " + line) }
        print("")
        print("Goals (issue 37): sizes \(Goals.issue37Sizes.map(Report.formatCount).joined(separator: ", ")) in one run"
            + (instructions ? ", instructions: median of \(instructionIterations) calls under callgrind" : ""))
        for line in goals.issue37Lines() { print("  " + line) }
    }

    /// One text row per mutation: the median instructions per call of each subject, and the ratios.
    private static func instructionRows(_ counted: InstructionCount.Medians, size: Int) -> [ReportRow] {
        func count(_ value: Double?) -> String { value.map { String(format: "%.0fk", $0 / 1000) } ?? "-" }
        return MutationKind.allCases.map { kind in
            let store = counted["store"]?[kind], raw = counted["raw"]?[kind], minimal = counted["minimal"]?[kind]
            return ReportRow(
                workload: "  instructions: " + kind.name, tabs: size,
                text: "store \(count(store)), raw \(count(raw)), minimal \(count(minimal)) per call; "
                    + "store/raw \(Report.ratio(store, raw)), store/minimal \(Report.ratio(store, minimal))")
        }
    }

    /// The six mutations at synchronous=FULL, store and raw SQLite interleaved, on the files of `directory`.
    private func measureFull(
        size: Int, in directory: String, rounds: Int
    ) throws -> [MutationKind: (store: Samples, raw: Samples)] {
        var configuration = storeConfiguration
        configuration.synchronous = .full
        let store = try StoreSubject(path: directory + "/store.sqlite", configuration: configuration)
        let raw = try RawSQLiteSubject(path: directory + "/raw.sqlite", synchronous: configuration.synchronous.rawValue)
        var storeRun = MutationRun(subject: store, seed: seed &+ 1)
        var rawRun = MutationRun(subject: raw, seed: seed &+ 1)
        try storeRun.warmUp()
        try rawRun.warmUp()
        for iteration in 0..<rounds {
            try storeRun.step(iteration: iteration)
            try rawRun.step(iteration: iteration)
        }
        try store.finish()
        var result: [MutationKind: (store: Samples, raw: Samples)] = [:]
        for kind in MutationKind.allCases { result[kind] = (storeRun.samples[kind]!, rawRun.samples[kind]!) }
        return result
    }

    /// Rounds for the full-rewrite baseline: each costs a whole file, so fewer at large sizes.
    private func rewriteRounds(size: Int, rounds: Int) -> Int {
        if let rewriteIterations { return rewriteIterations }
        return max(3, min(rounds, (quick ? 20_000 : 100_000) / size))
    }

    private func progress(_ text: String) {
        FileHandle.standardError.write(Data("[bench] \(text)\n".utf8))
    }

    private func measure(
        size: Int, in directory: String, rounds: Int, restores: Int, measurePeakMemory: Bool
    ) throws -> (
        rows: [ReportRow], mutations: [MutationKind: (store: Samples, raw: Samples, rewrite: Samples)],
        restore: (store: Samples, raw: Samples), open: (store: Samples, raw: Samples),
        minimal: [MutationKind: Samples], instructions: InstructionCount.Medians?
    ) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let storePath = directory + "/store.sqlite"
        let rawPath = directory + "/raw.sqlite"
        let minimalPath = directory + "/minimal.sqlite"
        let chosen = Set(chosenSubjects)
        let start = monotonicNanoseconds()
        progress("\(size) tabs: seeding (the list through the repositories, the histories in SQL)")
        try StoreSubject.seed(atPath: storePath, tabCount: size, configuration: storeConfiguration)
        try FileManager.default.copyItem(atPath: storePath, toPath: rawPath)
        if chosen.contains("minimal") { try MinimalSchema.seed(atPath: minimalPath, from: storePath) }
        let rewrite = try FullRewriteSubject(directory: directory, tabCount: size, fsyncEachWrite: synchronous == "full")
        progress("\(size) tabs: seeded in \(Report.duration(Double(monotonicNanoseconds() - start)))")

        // Cold restore, alternating store and raw SQLite.
        var restoreStore = Samples(), restoreRaw = Samples(), restoreRewrite = Samples()
        var historiesStore = Samples(), historiesRaw = Samples()
        var openStore = Samples(), openRaw = Samples()
        for _ in 0..<restores {
            let opened = try openStore.measure { try SessionDatabase.open(atPath: storePath, configuration: storeConfiguration) }
            try opened.close()
            _ = try openRaw.measure { try RawConnection(path: rawPath, synchronous: sqliteSynchronous) }
            let (database, snapshots) = try restoreStore.measure {
                try ColdRestore.storeTabLists(path: storePath, configuration: storeConfiguration)
            }
            let storeEntries = try historiesStore.measure {
                try ColdRestore.storeHistories(database: database, snapshots: snapshots)
            }
            try database.close()
            let (connection, lists) = try restoreRaw.measure {
                try ColdRestore.rawTabLists(path: rawPath, synchronous: sqliteSynchronous)
            }
            let rawEntries = try historiesRaw.measure {
                try ColdRestore.rawHistories(connection: connection, browsers: Array(lists.keys))
            }
            guard snapshots.first?.list.count == size, lists.first?.value.count == size, storeEntries == rawEntries else {
                throw BenchError("restores disagree: \(storeEntries) vs \(rawEntries) entries")
            }
            _ = try restoreRewrite.measure { try FullRewriteSubject.restore(path: rewrite.path) }
        }
        var rows = [
            ReportRow(workload: "cold restore: open file only", tabs: size, store: openStore, raw: openRaw),
            ReportRow(workload: "cold restore: tab lists+pages", tabs: size, store: restoreStore, raw: restoreRaw,
                      rewrite: restoreRewrite),
            ReportRow(workload: "cold restore: full histories", tabs: size, store: historiesStore, raw: historiesRaw),
        ]
        if measurePeakMemory {
            progress("\(size) tabs: peak memory of cold restores in child processes")
            let base = try ColdRestore.peakMemoryInChild(subject: .none, path: storePath, synchronous: sqliteSynchronous)
            let store = try ColdRestore.peakMemoryInChild(subject: .store, path: storePath, synchronous: sqliteSynchronous)
            let raw = try ColdRestore.peakMemoryInChild(subject: .raw, path: rawPath, synchronous: sqliteSynchronous)
            let full = try ColdRestore.peakMemoryInChild(subject: .rewrite, path: rewrite.path, synchronous: sqliteSynchronous)
            rows.append(ReportRow(workload: "peak memory, cold restore", tabs: size, kib: (store, raw, full)))
            rows.append(ReportRow(workload: "  (process baseline)", tabs: size, text: "\(base / 1024) MiB peak RSS doing nothing"))
        }

        // Search: the FTS5 index against a LIKE scan of the same rows, on the seeded files; fewer
        // rounds at large sizes, as LIKE scans every entry (about a second per search at 100,000 tabs).
        progress("\(size) tabs: searches, the index against LIKE")
        let searches = try SearchBench.run(
            storePath: storePath, rawPath: rawPath, size: size, rounds: max(5, min(rounds, 50, 500_000 / size)),
            configuration: storeConfiguration, synchronous: sqliteSynchronous)
        rows.append(ReportRow(
            workload: "search: rare word (vs LIKE)", tabs: size, store: searches.rare.store, raw: searches.rare.raw))
        rows.append(ReportRow(
            workload: "search: common word, top 50", tabs: size, store: searches.common.store, raw: searches.common.raw))

        // Single mutations, each subject stepped in turn.
        progress("\(size) tabs: \(rounds) rounds of mutations")
        let store = try StoreSubject(path: storePath, configuration: storeConfiguration)
        let raw = try RawSQLiteSubject(path: rawPath, synchronous: sqliteSynchronous)
        let minimal = chosen.contains("minimal") ? try RawSQLiteSubject(path: minimalPath, synchronous: sqliteSynchronous) : nil
        var storeRun = MutationRun(subject: store, name: "store", seed: seed)
        var rawRun = MutationRun(subject: raw, name: "raw", seed: seed)
        var minimalRun = minimal.map { MutationRun(subject: $0, name: "minimal", seed: seed) }
        var rewriteRun = MutationRun(subject: rewrite, name: "rewrite", seed: seed)
        if chosen.contains("store") { try storeRun.warmUp() }
        if chosen.contains("raw") { try rawRun.warmUp() }
        try minimalRun?.warmUp()
        if chosen.contains("rewrite") { try rewriteRun.warmUp() }
        let rewriteRounds = rewriteRounds(size: size, rounds: rounds)
        for iteration in 0..<rounds {
            if chosen.contains("store") { try storeRun.step(iteration: iteration) }
            if chosen.contains("raw") { try rawRun.step(iteration: iteration) }
            try minimalRun?.step(iteration: iteration)
            if chosen.contains("rewrite"), iteration < rewriteRounds { try rewriteRun.step(iteration: iteration) }
        }
        try store.finish()
        for (name, subject) in [("raw", raw), ("minimal", minimal)] where (subject?.placementFallbacks ?? 0) > 0 {
            progress("\(name) SQLite placed \(subject!.placementFallbacks) tabs at the end (gap full)")
        }

        var mutations: [MutationKind: (store: Samples, raw: Samples, rewrite: Samples)] = [:]
        var minimalSamples: [MutationKind: Samples] = [:]
        for kind in MutationKind.allCases {
            let samples = (storeRun.samples[kind]!, rawRun.samples[kind]!, rewriteRun.samples[kind]!)
            mutations[kind] = samples
            minimalSamples[kind] = minimalRun?.samples[kind]
            rows.append(ReportRow(
                workload: kind.label, tabs: size, store: samples.0, raw: samples.1, rewrite: samples.2,
                minimal: minimalRun?.samples[kind]))
        }
        var counted: InstructionCount.Medians?
        if instructions {
            progress("\(size) tabs: \(instructionIterations) rounds under callgrind (instructions per call)")
            let started = monotonicNanoseconds()
            counted = try InstructionCount.measure(
                directory: directory, rounds: instructionIterations, seed: seed &+ 2, synchronous: sqliteSynchronous,
                subjects: chosenSubjects.filter { InstructionCount.files[$0] != nil })
            progress("\(size) tabs: callgrind run in \(Report.duration(Double(monotonicNanoseconds() - started)))")
        }
        progress("\(size) tabs: done in \(Report.duration(Double(monotonicNanoseconds() - start)))")
        return (rows, mutations, (restoreStore, restoreRaw), (openStore, openRaw), minimalSamples, counted)
    }
}
