import Foundation
import SessionTestSupport
import Testing

/// `prune` beside another process's open read transaction: the expired entries go
/// at once, and the compaction that would wait for the reader is skipped and said
/// so (issue 32), where prune waited out the busy timeout and exited 75.
@Suite struct PruneBesideAReaderTests {
    let binary = SessionStoreBinary()

    /// Runs `sql` with the `sqlite3` shell and returns what it printed.
    private func sqlite(_ path: String, _ sql: String) throws -> String {
        let result = try runTool([path, sql], in: "/", binary: "/usr/bin/sqlite3")
        #expect(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func prune_besideAReadTransaction_dropsTheEntries_andSkipsCompaction() throws {
        try TemporaryDirectory.with { dir in
            let store = dir.file("s.sqlite")
            #expect(try binary.run(["demo", "--db", store, "--browsers", "2", "--tabs", "40"], in: dir.path).status == 0)
            // Every closed entry closed long ago: expired.
            _ = try sqlite(store, "UPDATE closed_entries SET closed_at = '2001-01-01 00:00:00.000'")
            let expired = try #require(Int(try sqlite(store, "SELECT count(*) FROM closed_entries")))
            #expect(expired > 0)

            // A plain reader: `sqlite3` with a read transaction open until the prune has returned.
            let reader = try SQLiteShellReader(store: store)
            defer { reader.end() }

            let started = Date()
            let pruned = try binary.run(["prune", "--db", store], in: dir.path)
            let elapsed = Date().timeIntervalSince(started)
            #expect(pruned.status == 0, "\(pruned)")
            #expect(pruned.stdout.hasPrefix("Removed \(expired) expired closed entr"), "\(pruned)")
            #expect(pruned.stdout.contains("compaction skipped: another process is reading the store"), "\(pruned)")
            #expect(pruned.stderr.isEmpty, "\(pruned)")
            #expect(elapsed < 3, "prune took \(elapsed) s: it waited for the reader")

            // The reader still sees its snapshot; once it ends, the entries are gone and prune compacts.
            let seen = try reader.send("SELECT 'still', count(*) FROM closed_entries;", until: "still")
            #expect(seen.contains("still|\(expired)"))
            reader.end()
            #expect(try sqlite(store, "SELECT count(*) FROM closed_entries") == "0")
            let again = try binary.run(["prune", "--db", store], in: dir.path)
            #expect(again.status == 0, "\(again)")
            #expect(again.stdout.hasPrefix("Removed 0 expired closed entries; reclaimed "), "\(again)")
            #expect(try binary.run(["check", "--db", store], in: dir.path).status == 0)
        }
    }
}
