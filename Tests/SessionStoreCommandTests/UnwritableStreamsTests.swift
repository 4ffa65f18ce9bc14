import Foundation
import SessionTestSupport
import Testing

/// A standard stream the command cannot write (closed, a full device) never
/// turns its exit status into a trap: `FileHandle.write` raised SIGILL (132).
@Suite struct UnwritableStreamsTests {
    /// Runs `sessionstore ARGUMENTS REDIRECTION` through `sh` in `directory`; its exit status.
    private static func status(_ arguments: String, _ redirection: String, in directory: String) throws -> (Int32, RunResult) {
        let script = "\"$0\" \(arguments) \(redirection); echo \"status=$?\""
        let result = try runTool(["-c", script, BuiltBinary.sessionstore], in: directory, binary: "/bin/sh")
        let line = result.stdout.split(separator: "\n").last { $0.hasPrefix("status=") }
        return (Int32(line?.dropFirst("status=".count) ?? "") ?? -1, result)
    }

    @Test(arguments: ["2>/dev/full", "2>&-"])
    func anError_withAnUnwritableStderr_exitsWithItsOwnCode(redirection: String) throws {
        try TemporaryDirectory.with { dir in
            for arguments in ["status --db missing/x.sqlite", "ls --db missing.sqlite", "export --db missing.sqlite"] {
                let (expected, plain) = try Self.status(arguments, "", in: dir.path)
                #expect(expected != 0 && expected < 128, "\(arguments): \(plain)")
                let (status, result) = try Self.status(arguments, redirection, in: dir.path)
                #expect(status == expected, "\(arguments) \(redirection): \(result)")
            }
        }
    }

    @Test func watch_withAFullStdout_stopsWithOneLine_andExit74() throws {
        try TemporaryDirectory.with { dir in
            #expect(try runTool(["demo", "--browsers", "1", "--tabs", "3"], in: dir.path).status == 0)
            let (status, result) = try Self.status("watch --db sessionstore.sqlite", ">/dev/full", in: dir.path)
            #expect(status == 74, "\(result)")
            #expect(result.stderr.contains("cannot write to standard output"), "\(result)")
        }
    }
}
