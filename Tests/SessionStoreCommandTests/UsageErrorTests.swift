import Foundation
import SessionTestSupport
import Testing

/// Usage errors name what is wrong, run with the built binary.
@Suite struct UsageErrorTests {
    let binary = SessionStoreBinary()

    @Test func unknownSubcommand_isNamed_notTheOptionAfterIt() throws {
        try TemporaryDirectory.with { dir in
            let result = try binary.run(["frobnicate", "--db", "x.sqlite"], in: dir.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("unknown subcommand 'frobnicate'"), "\(result)")
            #expect(!result.stderr.contains("--db"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("x.sqlite")))
        }
    }

    @Test func negativeBusyTimeout_isOutOfRange_notAMissingValue() throws {
        try TemporaryDirectory.with { dir in
            let result = try binary.run(["status", "--busy-timeout", "-1", "--db", "x.sqlite"], in: dir.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("from 0 to 86400"), "\(result)")
            #expect(!result.stderr.contains("Missing value"), "\(result)")
        }
    }

    /// A seed is base64url, so one in 64 begins with "-": `pair --seed -…` joins, as `pair` printed it.
    @Test func aSeedBeginningWithADash_isTheSeed_notAnOption() throws {
        try TemporaryDirectory.with { dir in
            let seed = "-" + String(repeating: "A", count: 42)
            let result = try binary.run(["pair", "--db", "x.sqlite", "--name", "Phone", "--seed", seed], in: dir.path)
            #expect(result.status == 0, "\(result)")
            let shown = try binary.run(["pair", "--db", "x.sqlite", "--show-seed"], in: dir.path)
            #expect(shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == seed, "\(shown)")
        }
    }
}
