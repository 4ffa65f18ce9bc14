import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Kills a writing process with SIGKILL at random moments and checks that
/// nothing it acknowledged is lost.
///
/// `sessionstore-crash-writer crash` applies ``CrashWorkload`` steps to a file
/// and prints each step's number after the call returned. After each kill the
/// test checks the file (`SessionStoreFile.check` finds nothing), reopens it,
/// and compares its ``SessionDigest`` with an in-memory store that replayed the
/// same steps: it must equal the replay up to the last acknowledged step, or up
/// to one more when that step committed before the kill. The next writer
/// continues on the same file from there, so every kill lands on a file that
/// has been crashed and recovered before.
///
/// 25 kills in CI; `SESSIONSTORE_RELIABILITY_FULL=1` runs 1,000.
@Suite(.serialized) struct CrashSafetyTests {
    static let kills = fullRuns ? 1_000 : 25

    /// An in-memory store that replays the workload, one step at a time.
    final class Replay {
        let workload: CrashWorkload
        let database: SessionDatabase
        private(set) var step = 0

        init(_ workload: CrashWorkload) throws {
            self.workload = workload
            database = try SessionDatabase.inMemory(configuration: CrashWorkload.configuration)
            try workload.setUp(database)
        }

        func advance(to target: Int) throws {
            while step < target {
                step += 1
                _ = try workload.apply(step: step, to: database)
            }
        }
    }

    @Test func sigkillAtRandomMoments_losesNoAcknowledgedMutation() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["SESSIONSTORE_CRASH_SEED"] ?? "") ?? 20_261_123
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("crash.sqlite")
        let workload = CrashWorkload(seed: seed)
        do {
            let database = try SessionDatabase.open(atPath: path, configuration: CrashWorkload.configuration)
            try workload.setUp(database)
            try database.close()
        }
        let replay = try Replay(workload)
        var rng = SplitMix64(seed: seed)
        var next = 1
        var landedAfterAck = 0
        var landedBeforeOpen = 0
        var acknowledgedTotal = 0

        for kill in 0..<Self.kills {
            let writer = try RunningWriter(["crash", "--db", path, "--seed", "\(seed)", "--from", "\(next)"])
            let target = Int.random(in: 0...25, using: &rng)
            let reached = writer.wait(timeout: 120) { lines in
                lines.count > target || lines.last.map { $0.hasPrefix("sessionstore-crash-writer") } == true
            }
            // A random moment inside the next mutation (or the opening, for target 0):
            // jitter, not a wait for anything.
            usleep(UInt32.random(in: 0..<1_500, using: &rng))
            writer.kill()
            let (status, stderr) = writer.finish()
            try #require(reached, "kill \(kill): the writer printed \(writer.lines.recorded) (\(stderr))")
            try #require(status == SIGKILL || stderr.isEmpty, "kill \(kill): the writer failed: \(stderr)")
            if writer.lines.recorded.isEmpty { landedBeforeOpen += 1 }
            let acknowledged = writer.acknowledged
            let last = acknowledged.last ?? (next - 1)
            try #require(acknowledged == Array(next..<(last + 1)), "kill \(kill): acknowledgements out of order")
            acknowledgedTotal += acknowledged.count

            let problems = try SessionStoreFile.check(atPath: path, configuration: CrashWorkload.configuration)
            try #require(problems.isEmpty, "kill \(kill) after step \(last): check found \(problems)")
            let database = try SessionDatabase.open(atPath: path, configuration: CrashWorkload.configuration)
            let onDisk = try SessionDigest(database)
            try database.close()

            try replay.advance(to: last)
            let expected = try SessionDigest(replay.database)
            if onDisk == expected {
                next = last + 1
                continue
            }
            try replay.advance(to: last + 1)
            let oneMore = try SessionDigest(replay.database)
            try #require(
                onDisk == oneMore,
                """
                kill \(kill): the file matches neither step \(last) nor \(last + 1) of seed \(seed)
                vs step \(last): \(onDisk.firstDifference(from: expected))
                vs step \(last + 1): \(onDisk.firstDifference(from: oneMore))
                """)
            landedAfterAck += 1
            next = last + 2
        }
        let summary = """
            crash safety: \(Self.kills) SIGKILLs, \(acknowledgedTotal) acknowledged mutations over \(next - 1) steps \
            (seed \(seed)), \(landedAfterAck) kills after a commit but before its acknowledgement, \
            \(landedBeforeOpen) before the store was open; lost: 0
            """
        print(summary)
        #expect(next > Self.kills / 2, "the writers made too little progress: \(summary)")
    }
}
