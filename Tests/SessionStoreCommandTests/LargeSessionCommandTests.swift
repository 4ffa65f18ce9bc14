import Foundation
import SessionTestSupport
import Testing

/// `export` and `import` a part at a time, as the built binary: JSON Lines,
/// streamed documents and their refusals, progress on a terminal only, and an
/// interrupted import.
@Suite struct LargeSessionCommandTests {
    let binary = SessionStoreBinary()

    private func demo(_ dir: TemporaryDirectory, tabs: Int = 12, history: Int = 3) throws -> String {
        let path = dir.file("demo.sqlite")
        let made = try binary.run(
            ["demo", "--db", path, "--browsers", "3", "--tabs", "\(tabs)", "--history", "\(history)"], in: dir.path)
        try #require(made.status == 0, "\(made)")
        return path
    }

    private func export(_ path: String, in dir: TemporaryDirectory) throws -> String {
        let result = try binary.run(["export", "--db", path], in: dir.path)
        try #require(result.status == 0, "\(result)")
        return result.stdout
    }

    @Test func exportJSONLines_importedIntoANewStore_exportsTheSameDocument() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let lines = try binary.run(["export", "--format", "jsonl", "--output", dir.file("s.jsonl"), "--db", path], in: dir.path)
            #expect(lines.status == 0 && lines.stdout.isEmpty && lines.stderr.isEmpty, "\(lines)")
            let imported = try binary.run(["import", dir.file("s.jsonl"), "--db", dir.file("copy.sqlite")], in: dir.path)
            #expect(imported.status == 0, "\(imported)")
            #expect(imported.stdout.hasPrefix("Imported 3 browser(s)"), "\(imported)")
            #expect(try export(dir.file("copy.sqlite"), in: dir) == export(path, in: dir))
        }
    }

    @Test func streamedImport_ofAJSONDocument_givesTheSameStore() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let document = try export(path, in: dir)
            try Data(document.utf8).write(to: URL(fileURLWithPath: dir.file("s.json")))
            let imported = try binary.run(
                ["import", dir.file("s.json"), "--db", dir.file("copy.sqlite")], in: dir.path,
                environment: ["SESSIONSTORE_TEST_STREAM_IMPORT_ABOVE": "0"])
            #expect(imported.status == 0, "\(imported)")
            #expect(try export(dir.file("copy.sqlite"), in: dir) == document)
        }
    }

    /// A document refused near its end, after most of it was written in the
    /// transaction: one line naming where, exit 65, the store as it was; a store
    /// the import would have created is not left behind.
    @Test(arguments: ["json", "jsonl"])
    func streamedImport_refusedNearTheEnd_changesNothing(_ format: String) throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let result = try binary.run(["export", "--format", format, "--db", path], in: dir.path)
            // The last tab (a closed one) gets an opener, which closed tabs do not have.
            var text = result.stdout
            let opener = #""tab" : "00000000-0000-4000-8000-000000000000""#
            let compact = #""tab":"00000000-0000-4000-8000-000000000000""#
            if format == "json" {
                let range = try #require(text.range(of: "\"pinned\" : ", options: .backwards))
                text.replaceSubrange(range, with: "\"opener\" : { \(opener) },\n\"pinned\" : ")
            } else {
                let range = try #require(text.range(of: "\"pinned\":", options: .backwards))
                text.replaceSubrange(range, with: "\"opener\":{\(compact)},\"pinned\":")
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: dir.file("bad")))
            let target = dir.file("target.sqlite")
            #expect(try binary.run(["demo", "--db", target, "--browsers", "1", "--tabs", "2"], in: dir.path).status == 0)
            let before = try export(target, in: dir)
            let environment = ["SESSIONSTORE_TEST_STREAM_IMPORT_ABOVE": "0"]
            let refused = try binary.run(["import", "--replace", dir.file("bad"), "--db", target], in: dir.path, environment: environment)
            #expect(refused.status == 65, "\(refused)")
            #expect(refused.stderrLines.count == 1 && refused.stderr.contains("Invalid document at $.closed_entries"), "\(refused)")
            #expect(try export(target, in: dir) == before)
            let fresh = dir.file("fresh.sqlite")
            let none = try binary.run(["import", dir.file("bad"), "--db", fresh], in: dir.path, environment: environment)
            #expect(none.status == 65, "\(none)")
            #expect(!FileManager.default.fileExists(atPath: fresh))
        }
    }

    /// Progress goes to stderr on a terminal (here a pseudo-terminal made by
    /// `script`), never into a pipe or a file, and not with --quiet.
    @Test func progress_showsOnATerminal_only() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let piped = try binary.run(["export", "--db", path, "--output", dir.file("a.json")], in: dir.path)
            #expect(piped.status == 0 && piped.stderr.isEmpty && piped.stdout.isEmpty, "\(piped)")
            func onTerminal(_ arguments: String) throws -> RunResult {
                try runTool(
                    ["-qec", "\(binary.path) \(arguments) 2>&1 >/dev/null", "/dev/null"], in: dir.path,
                    binary: "/usr/bin/script")
            }
            let shown = try onTerminal("export --db '\(path)'")
            #expect(shown.status == 0, "\(shown)")
            #expect(shown.stdout.contains("export: ") && shown.stdout.contains(" tabs"), "\(shown)")
            // The line is erased at the end: nothing of it is left on the screen.
            #expect(shown.stdout.hasSuffix("\r\u{1B}[K"), "\(shown.stdout.debugDescription)")
            let imported = try onTerminal("import '\(dir.file("a.json"))' --db '\(dir.file("b.sqlite"))'")
            #expect(imported.stdout.contains("import: ") && imported.stdout.contains("MiB"), "\(imported)")
            let quiet = try onTerminal("export --quiet --db '\(path)'")
            #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet.stdout.debugDescription)")
        }
    }

    /// Ctrl-C in the middle of a streamed import: the store is exactly as before.
    @Test func interruptedImport_leavesTheStoreAsItWas() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir, tabs: 1500, history: 6)
            let lines = try binary.run(["export", "--format", "jsonl", "--output", dir.file("big.jsonl"), "--db", path], in: dir.path)
            try #require(lines.status == 0, "\(lines)")
            let target = dir.file("target.sqlite")
            #expect(try binary.run(["demo", "--db", target, "--browsers", "1", "--tabs", "2"], in: dir.path).status == 0)
            var interrupted = 0
            for delay in [0.3, 0.6, 1.0] {
                let before = try export(target, in: dir)
                let process = Process()
                // The test runner may ignore SIGINT, and a child inherits that: `env` restores it.
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [
                    "--default-signal=INT", binary.path, "import", "--replace", dir.file("big.jsonl"), "--db", target,
                ]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                Thread.sleep(forTimeInterval: delay)
                kill(process.processIdentifier, SIGINT)
                process.waitUntilExit()
                guard process.terminationReason == .uncaughtSignal else { continue }  // it finished first
                interrupted += 1
                #expect(try export(target, in: dir) == before, "after SIGINT at \(delay) s")
                let check = try binary.run(["check", "--db", target], in: dir.path)
                #expect(check.status == 0, "\(check)")
            }
            #expect(interrupted > 0, "every import finished before its SIGINT")
        }
    }
}
