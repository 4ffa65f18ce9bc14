import Foundation
import SessionTestSupport
import Testing
@testable import SessionStoreCommand

/// The command lines `pair` prints for the other devices join the account when
/// run as printed, whatever the seed begins with.
@Suite struct PairingLineTests {
    let binary = SessionStoreBinary()

    /// The arguments of a printed line, after "sessionstore", as a shell would split it.
    static func arguments(of line: String) -> [String] {
        Array(line.split(separator: " ").map(String.init).drop { $0 != "sessionstore" }.dropFirst())
    }

    @Test func theLinePrintedForANewAccount_isTheOneThatJoinsIt() throws {
        try TemporaryDirectory.with { dir in
            let made = try binary.run(["pair", "--db", "laptop.sqlite", "--name", "Laptop"], in: dir.path)
            #expect(made.status == 0, "\(made)")
            let lines = made.stdout.split(separator: "\n").map(String.init)
            let seed = try #require(lines.first { $0.hasPrefix("seed:") }?.split(separator: " ").last.map(String.init))
            let printed = try #require(lines.first { $0.hasPrefix("Pair another device with: ") })
            #expect(printed == "Pair another device with: " + SessionStore.Pair.commandLine(["pair"], seed: seed))
            let joined = try binary.run(Self.arguments(of: printed) + ["--db", "phone.sqlite", "--name", "Phone"], in: dir.path)
            #expect(joined.status == 0, "\(joined)")
            let shown = try binary.run(["pair", "--db", "phone.sqlite", "--show-seed"], in: dir.path)
            #expect(shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == seed, "\(shown)")
        }
    }

    /// One seed in 64 begins with "-": printed as `--seed=-…`, it is never taken for an option.
    @Test func aSeedBeginningWithADash_roundTripsThroughThePrintedLines() throws {
        try TemporaryDirectory.with { dir in
            let seed = "-SoO" + String(repeating: "A", count: 39)
            let pair = SessionStore.Pair.commandLine(["pair"], seed: seed)
            #expect(pair.hasSuffix(" --seed=\(seed)"), "\(pair)")
            let joined = try binary.run(Self.arguments(of: pair) + ["--db", "phone.sqlite", "--name", "Phone"], in: dir.path)
            #expect(joined.status == 0, "\(joined)")
            let shown = try binary.run(["pair", "--db", "phone.sqlite", "--show-seed"], in: dir.path)
            #expect(shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == seed, "\(shown)")

            // The line `pair --rotate` prints for the other devices moves a paired store to that seed.
            #expect(try binary.run(["pair", "--db", "tablet.sqlite", "--name", "Tablet"], in: dir.path).status == 0)
            let rotate = SessionStore.Pair.commandLine(["pair", "--rotate"], seed: seed)
            let moved = try binary.run(Self.arguments(of: rotate) + ["--db", "tablet.sqlite"], in: dir.path)
            #expect(moved.status == 0, "\(moved)")
            let rotated = try binary.run(["pair", "--db", "tablet.sqlite", "--show-seed"], in: dir.path)
            #expect(rotated.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == seed, "\(rotated)")
        }
    }
}
