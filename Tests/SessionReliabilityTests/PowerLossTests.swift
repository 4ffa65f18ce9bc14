import CrashVFS
import Foundation
import GRDB
import SessionTestSupport
import Testing

extension BuiltBinary {
    static let powerLoss = path("sessionstore-power-loss")
}

/// Power cuts, simulated by the crash VFS (`Tests/CrashVFS`) at every sync
/// point of a scripted workload (`Tests/PowerLoss`), each image opened in a
/// child process as the next launch would. The full sweep, over more seeds and
/// steps, is `sessionstore-power-loss sweep` (BENCHMARKS.md).
@Suite(.serialized)
struct PowerLossTests {
    /// The VFS itself, chosen by a `file:…?vfs=crash` URI (never the default in a
    /// test process): a commit's bytes reach an image only once synced.
    @Test func crashVFS_keepsSyncedCommits_dropsUnsyncedOnes() throws {
        #expect(crash_vfs_register(0) == 0)
        try TemporaryDirectory.with { directory in
            let tracked = directory.file("tracked")
            let images = directory.file("images")
            try FileManager.default.createDirectory(atPath: tracked, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: true)
            crash_vfs_configure(tracked, nil, 0, 1)
            defer { crash_vfs_configure(nil, nil, 0, 0) }
            let queue = try DatabaseQueue(path: "file:\(tracked)/raw.sqlite?vfs=crash")
            try queue.writeWithoutTransaction { db in
                #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal")
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try db.execute(sql: "CREATE TABLE t(x TEXT)")
                try db.execute(sql: "INSERT INTO t VALUES ('synced')")
                try db.execute(sql: "PRAGMA synchronous = OFF")
                try db.execute(sql: "INSERT INTO t VALUES ('unsynced')")
            }
            #expect(crash_vfs_sync_points() >= 2)
            crash_vfs_configure(tracked, images, 7, 1)
            for kind: Int32 in 0..<3 { #expect(crash_vfs_write_image(1, kind) == 0) }
            crash_vfs_configure(nil, nil, 0, 0)
            try queue.close()

            // A cut that drops every unsynced write: the synced row only, and no -shm.
            let dropped = images + "/1-0"
            #expect(!FileManager.default.fileExists(atPath: dropped + "/raw.sqlite-shm"))
            #expect(try PlainSQLite.strings("SELECT x FROM t ORDER BY rowid", atPath: dropped + "/raw.sqlite") == ["synced"])
            // The other kinds keep the synced row whatever else they keep or tear.
            for kind in 1...2 {
                let rows = try PlainSQLite.strings("SELECT x FROM t ORDER BY rowid", atPath: images + "/1-\(kind)/raw.sqlite")
                #expect(rows.first == "synced")
            }
            // The live file, unaffected, has both.
            #expect(try PlainSQLite.strings("SELECT x FROM t ORDER BY rowid", atPath: tracked + "/raw.sqlite") == ["synced", "unsynced"])
        }
    }

    /// Every sync point of the workload (create, mutations, import, snapshot,
    /// restore, compact, close, recover), three kinds of cut, one seed: under
    /// FULL nothing acknowledged is lost; under NORMAL nothing synced is; no
    /// image is refused or fails `check`; no listed snapshot or recover output is
    /// torn; no temporary outlives the next open.
    @Test func powerCut_atEverySyncPoint_losesNothingAcknowledged_bricksNothing() throws {
        let result = try TemporaryDirectory.with { directory in
            try runTool(["sweep", "--seeds", "1", "--steps", "16", "--json", "--work", directory.file("work")],
                        in: directory.path, binary: BuiltBinary.powerLoss, timeout: 600)
        }
        #expect(result.status == 0, "\(result.stderr)")
        struct Summary: Decodable {
            var syncPoints: Int
            var images: Int
            var lost: Int
            var lostBeforeLastSync: Int
            var refused: Int
            var bricked: Int
            var tornSnapshots: Int
            var tornRecoverOutputs: Int
            var litterAfterOpen: Int
            var failures: [String]
        }
        let summaries = try JSONDecoder().decode([String: Summary].self, from: Data(result.stdout.utf8))
        for mode in ["full", "normal"] {
            let summary = try #require(summaries[mode])
            #expect(summary.syncPoints > 10, "\(mode)")
            #expect(summary.images >= 3 * summary.syncPoints, "\(mode)")
            #expect(summary.lostBeforeLastSync == 0, "\(mode): \(summary.failures.prefix(3))")
            #expect(summary.refused == 0, "\(mode): \(summary.failures.prefix(3))")
            #expect(summary.bricked == 0, "\(mode): \(summary.failures.prefix(3))")
            #expect(summary.tornSnapshots == 0, "\(mode): \(summary.failures.prefix(3))")
            #expect(summary.tornRecoverOutputs == 0, "\(mode): \(summary.failures.prefix(3))")
            // Every temporary a cut left is gone after the next open (or the next recover).
            #expect(summary.litterAfterOpen == 0, "\(mode)")
        }
        #expect(summaries["full"]?.lost == 0, "\(summaries["full"]?.failures.prefix(3) ?? [])")
    }
}
