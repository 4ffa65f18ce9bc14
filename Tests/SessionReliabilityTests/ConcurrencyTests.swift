import Foundation
import GRDB
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Several processes on one file: readers beside a writer, two writers, and
/// `migrate` beside an app.
@Suite(.serialized) struct ConcurrencyTests {
    /// A store with the two CrashWorkload browsers.
    private func makeStore(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.file("shared.sqlite")
        let database = try SessionDatabase.open(atPath: path, configuration: CrashWorkload.configuration)
        try CrashWorkload(seed: 1).setUp(database)
        try database.close()
        return path
    }

    @Test func readOnlySubcommands_whileAnotherProcessWrites_succeedOnConsistentSnapshots() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(directory)
        let writer = try RunningWriter(["crash", "--db", path, "--seed", "99", "--from", "1"])
        defer { writer.kill() }
        try #require(writer.wait(timeout: 60) { $0.count > 10 }, "the writer did not start: \(writer.finish())")
        let rounds = fullRuns ? 40 : 4
        let before = writer.acknowledged.count
        for round in 0..<rounds {
            for subcommand in ["status", "check", "ls"] {
                let result = try runTool([subcommand, "--db", path], in: directory.path)
                #expect(result.status == 0, "round \(round) \(subcommand): \(result)")
                #expect(!result.stdout.isEmpty && result.stderr.isEmpty, "round \(round) \(subcommand): \(result)")
            }
            let export = try runTool(["export", "--db", path], in: directory.path)
            try #require(export.status == 0, "round \(round) export: \(export)")
            // A consistent snapshot passes the importer's whole-document check and imports cleanly.
            let archive = try SessionArchive.decode(from: Data(export.stdout.utf8))
            try archive.check(configuration: CrashWorkload.configuration)
            let copy = try SessionDatabase.inMemory(configuration: CrashWorkload.configuration)
            try copy.importArchive(archive)
        }
        let during = writer.acknowledged.count - before
        #expect(during > 0, "the writer made no progress while the subcommands ran")
        print("concurrency: \(rounds * 4) status/check/ls/export runs beside a writer that committed \(during) mutations meanwhile; all exit 0, every export imported cleanly")
        writer.kill()
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
    }

    @Test func twoWritingProcesses_loseNoUpdate_andNeverSeeBusy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(directory)
        let count = fullRuns ? 1_000 : 120
        let writers = try ["alpha", "beta"].map {
            try RunningWriter(["writer", "--db", path, "--name", $0, "--count", "\(count)"])
        }
        var acknowledged: [String: [String]] = [:]
        var busyWaits: [Double] = []
        for (name, writer) in zip(["alpha", "beta"], writers) {
            let (status, stderr) = writer.finish()
            #expect(status == 0, "\(name) exited \(status): \(stderr)")
            let lines = writer.lines.recorded
            acknowledged[name] = lines.filter { $0 != "open" && !$0.hasPrefix("busy ") }
            busyWaits += lines.filter { $0.hasPrefix("busy ") }.compactMap { Double($0.dropFirst(5)) }
        }
        // StorageError.busy reaches the caller only once the busy timeout (5 s) has passed.
        #expect(busyWaits.allSatisfy { $0 >= 4.9 }, "busy before the timeout: \(busyWaits)")
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
        let database = try SessionDatabase.openReadOnly(atPath: path)
        let list = try SQLiteWebStateListRepository(database: database).webStateList(in: CrashWorkload.browserIDs[0])
        let histories = SQLiteNavigationHistoryRepository(database: database)
        var lost: [String] = []
        for (name, lines) in acknowledged {
            #expect(lines.count == count, "\(name) acknowledged \(lines.count) of \(count)")
            for line in lines {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let id = WebStateID(uuidString: String(parts[1])) else {
                    lost.append(line)
                    continue
                }
                let urls = (try? histories.history(of: id).items.map(\.url)) ?? []
                if list.index(of: id) == nil || urls != ["https://\(name).example/\(parts[0])"] { lost.append(line) }
            }
        }
        #expect(lost.isEmpty, "lost updates: \(lost)")
        #expect(list.count == 2 * count)
        print("concurrency: 2 processes x \(count) acknowledged insert+navigate pairs on one browser; lost: \(lost.count); busy errors (after waiting the full timeout, then retried): \(busyWaits.count), shortest wait \(busyWaits.min().map { String(format: "%.2f s", $0) } ?? "-")")
        try database.close()
    }

    @Test func migrate_whileAnAppWrites_isANoOp_andTheAppContinues() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try makeStore(directory)
        let writer = try RunningWriter(["crash", "--db", path, "--seed", "5", "--from", "1"])
        defer { writer.kill() }
        try #require(writer.wait(timeout: 60) { $0.count > 5 })
        let result = try runTool(["migrate", "--db", path], in: directory.path)
        #expect(result.status == 0, "\(result)")
        let seen = writer.lines.recorded.count
        #expect(writer.wait(timeout: 60) { $0.count > seen + 5 }, "the app stopped writing after migrate")
        writer.kill()
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
    }

    @Test func migrate_whileAnotherConnectionHoldsTheWriteLock_refusesWith75_andChangesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("pending.sqlite")
        // A SQLite file in WAL mode with nothing in it yet: every migration is pending.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: path, configuration: configuration)
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "BEGIN IMMEDIATE")
        }
        let before = fingerprint(path)
        let started = Date()
        let refused = try runTool(["migrate", "--busy-timeout", "0.5", "--db", path], in: directory.path)
        // It waited for the busy timeout, refused in one line, and changed nothing.
        #expect(Date().timeIntervalSince(started) >= 0.5)
        #expect(refused.status != 0 && refused.stderrLines.count == 1, "\(refused)")
        #expect(fingerprint(path) == before)
        #expect(refused.status == 75, "\(refused)")
        #expect(refused.stderr.contains("locked by another process"), "\(refused)")
        try holder.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        try holder.close()
        let migrated = try runTool(["migrate", "--db", path], in: directory.path)
        #expect(migrated.status == 0, "\(migrated)")
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
    }
}
