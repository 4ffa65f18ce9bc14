import Foundation
import SessionTestSupport
import Testing

/// `prune` beside another process's open read transaction: the expired entries go
/// at once, and the compaction that would wait for the reader is skipped and said
/// so (issue 32), where prune waited out the busy timeout and exited 75. `clear`
/// beside one clears too, but says that the WAL still holds the cleared data and
/// exits 75 (issue 35).
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

    /// `clear` beside a read transaction: the entries are cleared and the snapshots
    /// scrubbed, but the WAL that the reader keeps still holds them: clear says so
    /// and exits 75. Once the reader ends, clearing again folds the WAL in.
    @Test func clear_besideAReadTransaction_clears_andExits75_sayingTheWALStillHoldsIt() throws {
        try TemporaryDirectory.with { dir in
            let store = dir.file("s.sqlite")
            #expect(try binary.run(["demo", "--db", store, "--browsers", "2", "--tabs", "10"], in: dir.path).status == 0)
            #expect(try binary.run(["snapshot", "--db", store], in: dir.path).status == 0)
            let entries = try #require(Int(try sqlite(store, "SELECT count(*) FROM navigation_entries")))
            #expect(entries > 0)

            let reader = try SQLiteShellReader(store: store)
            defer { reader.end() }
            let cleared = try binary.run(["clear", "--all", "--db", store, "--busy-timeout", "0.5"], in: dir.path)
            #expect(cleared.status == 75, "\(cleared)")
            #expect(cleared.stdout.hasPrefix("Cleared \(entries) history entries (all browsing data)."), "\(cleared)")
            // The snapshot taken above, and any that `demo` took itself.
            #expect(cleared.stdout.contains("that held cleared pages"), "\(cleared)")
            #expect(cleared.stderr.contains("its WAL still holds the cleared data until that reader ends"), "\(cleared)")
            #expect(try sqlite(store, "SELECT count(*) FROM navigation_entries") == "0")

            reader.end()
            let again = try binary.run(["clear", "--all", "--db", store], in: dir.path)
            #expect(again.status == 0, "\(again)")
            #expect(again.stdout.hasPrefix("Cleared 0 history entries"), "\(again)")
            #expect(again.stdout.contains("No snapshot held cleared pages"), "\(again)")
            #expect(again.stdout.contains("The WAL was folded into the file and truncated"), "\(again)")
            #expect(try binary.run(["check", "--db", store], in: dir.path).status == 0)
        }
    }

    /// `clear` takes exactly one of its three forms, and a date it can read;
    /// anything else is a usage error that leaves the file as it was.
    @Test func clear_withoutExactlyOneForm_orABadDate_isAUsageError_andChangesNothing() throws {
        try TemporaryDirectory.with { dir in
            let store = dir.file("s.sqlite")
            #expect(try binary.run(["demo", "--db", store], in: dir.path).status == 0)
            let before = fileBytes(store)
            for arguments in [[], ["--all", "--since", "2026-01-01"], ["--since", "yesterday"], ["--since", "2026-13-01"]] {
                let result = try binary.run(["clear", "--db", store] + arguments, in: dir.path)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(result.stdout.isEmpty, "\(arguments): \(result)")
            }
            let unknown = try binary.run(["clear", "--browser", "ffffffff", "--db", store], in: dir.path)
            #expect(unknown.status == 65, "\(unknown)")
            #expect(unknown.stderr.contains("no browser ffffffff"), "\(unknown)")
            #expect(fileBytes(store) == before)
        }
    }
}
