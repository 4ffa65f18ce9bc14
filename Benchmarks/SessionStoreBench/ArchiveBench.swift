import Foundation
import Glibc
import SessionModel
import SessionStorage

/// Issue 38's archive goals: archiving most of a large window in one call, then opening the
/// store as fast as a store that only ever held the tabs that stayed, with mutations on those
/// tabs as cheap.
enum ArchiveBench {
    struct Result {
        var total: Int
        var remaining: Int
        var archived: TabArchiveResult
        var archiveNanoseconds: UInt64
        var archiveRuns: [UInt64]
        var coldArchiveNanoseconds: UInt64
        var openArchived: Samples
        var openSmall: Samples
        var mutateArchived: Samples
        var mutateSmall: Samples
    }

    /// Seeds a `total`-tab window whose tabs are all unused but every tenth, archives them in one
    /// call, and measures opening and mutating it beside a store seeded with the `remaining` tabs.
    static func run(
        total: Int, remaining: Int, root: String, configuration: SessionDatabase.Configuration, rounds: Int,
        archiveRuns: Int = 3, progress: (String) -> Void
    ) throws -> Result {
        let archivedPath = root + "/archive-\(total).sqlite"
        let smallPath = root + "/archive-small-\(remaining).sqlite"
        // Each archive call runs on a store seeded anew (one call empties the window): the figure is
        // their median, and every run is printed, as one run on two cores varies by a fifth.
        var runs: [(result: TabArchiveResult, nanoseconds: UInt64)] = []
        for run in 1...max(archiveRuns, 1) {
            try? FileManager.default.removeItem(atPath: archivedPath)
            progress("run \(run): seeding a \(total)-tab window (histories in SQL), every tab but one in "
                + "\(max(total / remaining, 1)) unused since 2020, and archiving them in one call")
            runs.append(try seedAndArchive(path: archivedPath, total: total, remaining: remaining, configuration: configuration))
        }
        // Once more with the window's list not read before the call (a process that archives at
        // start-up, or a background task): the call reads it first. Printed, not judged.
        try? FileManager.default.removeItem(atPath: archivedPath)
        progress("seeding once more, and archiving without the window's list loaded first")
        let cold = try seedAndArchive(
            path: archivedPath, total: total, remaining: remaining, configuration: configuration, loadFirst: false)
        progress("seeding a \(remaining)-tab store")
        try StoreSubject.seed(atPath: smallPath, tabCount: remaining, configuration: configuration)
        sync()
        let median = runs.sorted { $0.nanoseconds < $1.nanoseconds }[runs.count / 2]

        progress("opening each store and loading its first window and its active tab's history, \(rounds) times each")
        var openArchived = Samples()
        var openSmall = Samples()
        for _ in 0..<rounds {
            try openArchived.measure { try openAndLoad(archivedPath, configuration: configuration) }
            try openSmall.measure { try openAndLoad(smallPath, configuration: configuration) }
        }
        progress("\(rounds * 20) moves and activations on each store's remaining tabs, after as many unmeasured")
        let mutateArchived = try mutate(archivedPath, rounds: rounds * 20, configuration: configuration)
        let mutateSmall = try mutate(smallPath, rounds: rounds * 20, configuration: configuration)
        return Result(
            total: total, remaining: remaining, archived: median.result, archiveNanoseconds: median.nanoseconds,
            archiveRuns: runs.map(\.nanoseconds), coldArchiveNanoseconds: cold.nanoseconds,
            openArchived: openArchived, openSmall: openSmall, mutateArchived: mutateArchived, mutateSmall: mutateSmall)
    }

    /// Seeds a `total`-tab window whose tabs are all unused but every `total / remaining`th, and
    /// archives them in one timed call, the window's list loaded first unless `loadFirst` is false
    /// (an app showing the window has it).
    private static func seedAndArchive(
        path: String, total: Int, remaining: Int, configuration: SessionDatabase.Configuration, loadFirst: Bool = true
    ) throws -> (result: TabArchiveResult, nanoseconds: UInt64) {
        try StoreSubject.seed(atPath: path, tabCount: total, configuration: configuration)
        let step = max(total / remaining, 1)
        let connection = try RawConnection(path: path, synchronous: "normal")
        try connection.execute("""
            WITH ordered AS (SELECT id, ROW_NUMBER() OVER (ORDER BY sort_key) - 1 AS n FROM tabs)
            UPDATE tabs SET last_active_at = '2020-01-01 00:00:00.000'
            WHERE id IN (SELECT id FROM ordered WHERE n % \(step) <> 0)
            """)
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        // The seeding's writes reach the disk before anything is timed, as a store's written long ago
        // have: the kernel writing back a gigabyte meanwhile would take the timed call's CPU.
        sync()

        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        defer { try? database.close() }
        let archive = SQLiteTabArchiveRepository(database: database)
        for browser in try SQLiteBrowserRepository(database: database).browsers() where loadFirst {
            _ = try SQLiteWebStateListRepository(database: database).snapshot(of: browser.id)
        }
        let started = monotonicNanoseconds()
        let archived = try archive.archive(
            olderThan: Date(timeIntervalSince1970: 1_600_000_000), in: nil, exempting: ArchiveExemptions())
        return (archived, monotonicNanoseconds() - started)
    }

    /// Opens the store, then loads the first window's list (with its pages) and its active tab's history.
    private static func openAndLoad(_ path: String, configuration: SessionDatabase.Configuration) throws {
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        defer { try? database.close() }
        guard let first = try SQLiteBrowserRepository(database: database).browsers().first else {
            throw BenchError("\(path) has no window")
        }
        let snapshot = try SQLiteWebStateListRepository(database: database).snapshot(of: first.id)
        if let active = snapshot.list.activeWebState {
            _ = try SQLiteNavigationHistoryRepository(database: database).history(of: active.id)
        }
    }

    /// Alternates a move and an activation on the first window, `rounds` times, each timed.
    private static func mutate(_ path: String, rounds: Int, configuration: SessionDatabase.Configuration) throws -> Samples {
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        defer { try? database.close() }
        guard let first = try SQLiteBrowserRepository(database: database).browsers().first else {
            throw BenchError("\(path) has no window")
        }
        let tabs = SQLiteWebStateListRepository(database: database)
        let count = try tabs.webStateList(in: first.id).count
        var generator = SplitMix64(seed: 38)
        var samples = Samples()
        // The first half warms the caches, as a running app's are; the second half is measured.
        for round in 0..<rounds * 2 {
            let from = Int.random(in: 0..<count, using: &generator)
            let to = Int.random(in: 0..<count, using: &generator)
            let operation = {
                if round.isMultiple(of: 2) {
                    try tabs.move(in: first.id, from: from, to: to)
                } else {
                    try tabs.activate(in: first.id, at: from)
                }
            }
            if round < rounds { try operation() } else { try samples.measure(operation) }
        }
        return samples
    }

    static func lines(_ result: Result) -> [String] {
        let archived = result.archived.archived
        let perTab = archived > 0 ? Double(result.archived.rowsWritten) / Double(archived) : 0
        let open = (result.openArchived.p50 ?? 0) / max(result.openSmall.p50 ?? 1, 1)
        let mutate = (result.mutateArchived.p50 ?? 0) / max(result.mutateSmall.p50 ?? 1, 1)
        return [
            "archive \(Report.formatCount(archived)) of \(Report.formatCount(result.total)) tabs, one call, the window shown: "
                + "median \(Report.duration(Double(result.archiveNanoseconds))) of \(result.archiveRuns.count) runs on stores "
                + "seeded anew (" + result.archiveRuns.map { Report.duration(Double($0)) }.joined(separator: ", ")
                + "); \(result.archived.rowsWritten) rows written, " + String(format: "%.2f", perTab) + " per archived tab",
            "archive, the window's list not loaded before the call (it reads it first): "
                + Report.duration(Double(result.coldArchiveNanoseconds)),
            "open + first window + active tab's history: p50 \(Report.duration(result.openArchived.p50)) after archiving, "
                + "\(Report.duration(result.openSmall.p50)) on a store of \(Report.formatCount(result.remaining)) tabs "
                + "(\(String(format: "%.2f", open))x)",
            "move or activate on the remaining tabs: p50 \(Report.duration(result.mutateArchived.p50)) after archiving, "
                + "\(Report.duration(result.mutateSmall.p50)) on the small store (\(String(format: "%.2f", mutate))x)",
            "",
            "Goals (issue 38, archive at scale):",
            "  \(Goals.verdict(result.archiveNanoseconds <= 2_000_000_000)) archiving \(Report.formatCount(archived)) tabs "
                + "in one call <= 2 s (median): \(Report.duration(Double(result.archiveNanoseconds)))",
            "  \(Goals.verdict(open <= 1.1)) opening and loading after archiving <= 1.1x a store of the remaining tabs: "
                + String(format: "%.2f", open) + "x",
            "  \(Goals.verdict(mutate <= 1.1)) mutations on the remaining tabs as cheap (<= 1.1x): "
                + String(format: "%.2f", mutate) + "x",
        ]
    }
}
