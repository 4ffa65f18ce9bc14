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

    /// `export --output` and `recover --output` on a full disk: one line that says so
    /// and names the output, exit 74, and nothing left behind. A 64 KiB tmpfs is the
    /// full disk (mounting needs root, as CI runs).
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func exportAndRecover_onAFullDisk_sayDiskFull_exit74_andLeaveNothing() throws {
        try TemporaryDirectory.with { dir in
            #expect(try runTool(["demo", "--db", "big.sqlite", "--browsers", "3", "--tabs", "300"], in: dir.path).status == 0)
            let tiny = dir.file("tiny")
            try FileManager.default.createDirectory(atPath: tiny, withIntermediateDirectories: true)
            let mount = try runTool(["-t", "tmpfs", "-o", "size=64k", "tmpfs", tiny], in: dir.path, binary: "/bin/mount")
            try #require(mount.status == 0, "\(mount)")
            defer { _ = try? runTool([tiny], in: dir.path, binary: "/bin/umount") }
            for (arguments, output) in [
                (["export", "--db", "big.sqlite", "--output", "tiny/out.json"], "tiny/out.json"),
                (["recover", "--db", "big.sqlite", "--output", "tiny/r.sqlite"], "tiny/r.sqlite"),
            ] {
                let result = try runTool(arguments, in: dir.path)
                #expect(result.status == 74, "\(arguments[0]): \(result)")
                #expect(result.stderr == "sessionstore: \(output): the disk is full; nothing was written. Free some space and try again.\n",
                        "\(arguments[0]): \(result)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: tiny).isEmpty, "\(arguments[0]) left files behind")
            }
        }
    }
}
