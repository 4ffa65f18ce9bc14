import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Kills a process with SIGKILL while it creates a brand-new store, and checks
/// that the next open always succeeds: no half-made file is ever refused.
///
/// `sessionstore-crash-writer create` prints "start" just before
/// `SessionDatabase.open` creates the file and "open" once it has. A first run
/// measures how long creation takes; each kill then lands at a random moment
/// from "start" to a little past that span. After each kill the path holds no
/// store, or a store that `SessionDatabase.open` opens (finishing it if needed)
/// and `check` finds sound.
///
/// 25 kills in CI; `SESSIONSTORE_RELIABILITY_FULL=1` runs 250.
@Suite(.serialized) struct CreationCrashTests {
    static let kills = fullRuns ? 250 : 25

    @Test func sigkillWhileCreating_neverLeavesAFileThatIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var rng = SplitMix64(seed: 20_261_124)

        // How long creation takes, from "start" to "open", on this machine.
        let calibration = try RunningWriter(["create", "--db", directory.file("calibration.sqlite")])
        try #require(calibration.wait(timeout: 60) { $0.contains("start") })
        let started = Date()
        try #require(calibration.wait(timeout: 60) { $0.contains("open") })
        let span = max(Date().timeIntervalSince(started), 0.005) * 1.3
        calibration.finish()

        var outcomes: [String: Int] = [:]
        var refused = 0
        for kill in 0..<Self.kills {
            let path = directory.file("store-\(kill).sqlite")
            let writer = try RunningWriter(["create", "--db", path])
            try #require(writer.wait(timeout: 60) { $0.contains("start") }, "kill \(kill): the creator never started")
            usleep(UInt32(Double.random(in: 0..<span, using: &rng) * 1_000_000))
            writer.kill()
            let before = FileManager.default.fileExists(atPath: path)
                ? (writer.lines.recorded.contains("open") ? "complete" : "present")
                : "no file"
            do {
                let database = try SessionDatabase.open(atPath: path, configuration: CrashWorkload.configuration)
                try database.close()
            } catch {
                Issue.record("kill \(kill): the next open failed on a file left \(before): \(error)")
                refused += 1
                continue
            }
            let problems = try SessionStoreFile.check(atPath: path, configuration: CrashWorkload.configuration)
            #expect(problems.isEmpty, "kill \(kill): \(problems)")
            // The killed creator's file and its lock file are litter the open removed (TemporaryClaim).
            let litter = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasPrefix("store-\(kill).sqlite.creating-") }
            #expect(litter.isEmpty, "kill \(kill): left \(litter)")
            outcomes[before, default: 0] += 1
        }
        print("creation crash: \(Self.kills) SIGKILLs while creating (span \(Int(span * 1_000)) ms): "
            + outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            + "; next open refused: \(refused)")
    }
}
