import Foundation
import SessionTestSupport
import Testing

/// `recover` runs in bounded memory, as `export` and `import` do (issue 32): it held
/// the whole file three times over and every salvaged row besides (484 MB of peak
/// RSS on a 143 MB store). Measured with GNU time on the built binary.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs GNU time"))
struct RecoverMemoryTests {
    let binary = SessionStoreBinary()

    /// The one value `sql` gives on the file at `path`, as text.
    private func value(_ path: String, _ sql: String) throws -> String {
        try PlainSQLite.strings("SELECT CAST((\(sql)) AS TEXT)", atPath: path).first ?? ""
    }

    @Test func recover_ofA30MBStore_peaksUnder100MiB() throws {
        try TemporaryDirectory.with { dir in
            let store = dir.file("s.sqlite")
            #expect(try binary.run(["demo", "--db", store, "--browsers", "2", "--tabs", "150"], in: dir.path).status == 0)
            // 100 kB of engine state per open tab: about 30 MB, most of it in overflow pages.
            try PlainSQLite.execute("""
                INSERT OR REPLACE INTO tab_engine_states (tab_id, data, updated_at)
                SELECT id, randomblob(100000), '2026-01-01 00:00:00.000' FROM tabs WHERE closed_entry_id IS NULL
                """, atPath: store)
            let states = try #require(Int(try value(store, "SELECT count(*) FROM tab_engine_states")))
            let size = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
            #expect(states > 250 && size > 25_000_000)

            let output = dir.file("recovered.sqlite")
            let result = try runTool(
                ["-f", "%M", "-o", dir.file("peak"), binary.path, "recover", "--db", store, "--output", output],
                in: dir.path, binary: "/usr/bin/time")
            #expect(result.status == 0, "\(result)")
            let peakText = try String(contentsOfFile: dir.file("peak"), encoding: .utf8)
            let peakKiB = try #require(Int(peakText.split(separator: "\n").last ?? ""), "\(peakText)")
            // Before the fix: about 133 MB (the file read whole, copied, scanned whole, every row kept).
            #expect(peakKiB > 0 && peakKiB < 100 * 1024, "recover peaked at \(peakKiB) KiB on a \(size)-byte store")

            // Everything came over.
            #expect(try value(output, "SELECT count(*) FROM tab_engine_states") == "\(states)")
            let digest = "SELECT group_concat(hex(substr(data, 1, 8)) || length(data)) FROM (SELECT data FROM tab_engine_states ORDER BY tab_id)"
            #expect(try value(output, digest) == (try value(store, digest)))
            #expect(try binary.run(["check", "--db", output], in: dir.path).status == 0)
            let tabs = try binary.run(["export", "--format", "urls", "--db", store], in: dir.path)
            let recoveredTabs = try binary.run(["export", "--format", "urls", "--db", output], in: dir.path)
            #expect(tabs.status == 0 && recoveredTabs.stdout == tabs.stdout)
        }
    }
}
