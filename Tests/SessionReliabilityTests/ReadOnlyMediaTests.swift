import Foundation
import SessionStorage
import SessionTestSupport
import Testing

/// A folder shown read-only at another path, as a backup disk or a file system
/// snapshot is: `mount --bind`, then `mount -o remount,bind,ro`. Needs root and
/// a mount namespace that allows it. A folder of mode 0555 would not do: it stops
/// no root process, and these tests run as root.
struct ReadOnlyMount {
    let path: String

    /// Whether this machine lets the tests mount (probed once, with a mount of an empty folder).
    static let isPermitted: Bool = {
        guard getuid() == 0, let directory = try? TemporaryDirectory() else { return false }
        defer { directory.remove() }
        try? FileManager.default.createDirectory(atPath: directory.file("source"), withIntermediateDirectories: false)
        guard let mount = try? ReadOnlyMount(of: directory.file("source"), at: directory.file("mounted")) else { return false }
        mount.unmount()
        return true
    }()

    /// Mounts `source` read-only at `target` (made if missing).
    init(of source: String, at target: String) throws {
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        path = target
        guard Self.run(["mount", "--bind", source, target]) else { throw MountFailure() }
        guard Self.run(["mount", "-o", "remount,bind,ro", target]) else {
            unmount()
            throw MountFailure()
        }
    }

    func unmount() {
        _ = Self.run(["umount", path])
    }

    private struct MountFailure: Error {}

    private static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// Every read command works on a store on a read-only medium (issue 35, part 5),
/// in both states SQLite can read there: no `-wal` and no `-shm` (opened
/// `immutable`), and `-wal` with `-shm` (a plain read-only open that sees the WAL's
/// commits); a `-wal` without `-shm` is read from a private copy.
@Suite(.serialized, .enabled(if: ReadOnlyMount.isPermitted, "needs root and permission to bind-mount (mount --bind)"))
struct ReadOnlyMediaTests {
    /// A store in `folder` whose writer was SIGKILLed after acknowledging tabs: its
    /// last commits are in the `-wal`, beside a `-shm`. Returns the last tab's id and URL.
    private func storeKilledMidWrite(in folder: String) throws -> (tab: String, url: String) {
        let path = folder + "/s.sqlite"
        let database = try SessionDatabase.open(atPath: path, configuration: CrashWorkload.configuration)
        try CrashWorkload(seed: 1).setUp(database)
        try database.close()
        let writer = try RunningWriter(["writer", "--db", path, "--name", "ro", "--count", "100000"])
        writer.wait { lines in lines.filter { $0 != "open" }.count >= 5 }
        writer.kill()
        let last = try #require(writer.lines.recorded.last { $0 != "open" && !$0.hasPrefix("busy ") })
        let fields = last.split(separator: " ")
        return (String(fields[1]), "https://ro.example/\(fields[0])")
    }

    /// Runs every read command on the store at `path` from `directory`; each must exit 0.
    /// Returns what they printed, joined.
    private func runEveryReadCommand(on path: String, tab: String, query: String, in directory: String) throws -> String {
        let commands: [[String]] = [
            ["status"], ["check"], ["ls"], ["ls", "--all", "--json"], ["show", tab], ["closed"],
            ["search", query], ["export"], ["export", "--format", "urls"], ["snapshots"], ["devices"],
            ["migrate", "--dry-run"],
        ]
        var printed = ""
        for command in commands {
            let result = try runTool(command + ["--db", path], in: directory)
            #expect(result.status == 0, "\(command.joined(separator: " ")): \(result)")
            printed += result.stdout
        }
        return printed
    }

    /// The files in `folder`, its snapshot folder left out.
    private func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasSuffix(".snapshots") }.sorted()
    }

    private func leftoverCopies() -> [String] {
        files(in: NSTemporaryDirectory()).filter { $0.hasPrefix("sessionstore-readonly-") }
    }

    @Test func walAndShm_everyReadCommandSucceeds_andShowsTheWALsLastCommit() throws {
        try TemporaryDirectory.with { directory in
            let source = directory.file("disk")
            try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: false)
            let (tab, url) = try storeKilledMidWrite(in: source)
            #expect(files(in: source).contains("s.sqlite-shm"))
            #expect(DatabaseFileSize.of(source + "/s.sqlite-wal") > 0)
            let mount = try ReadOnlyMount(of: source, at: directory.file("mounted"))
            defer { mount.unmount() }
            let before = files(in: source)
            let printed = try runEveryReadCommand(
                on: mount.path + "/s.sqlite", tab: tab, query: "example", in: directory.path)
            #expect(printed.contains(url), "the WAL's last commit (\(url)) is not shown")
            #expect(files(in: source) == before)
        }
    }

    @Test func noWALNoShm_everyReadCommandSucceeds_openedImmutable() throws {
        try TemporaryDirectory.with { directory in
            let source = directory.file("disk")
            try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: false)
            let (tab, url) = try storeKilledMidWrite(in: source)
            // The last connection to close folds the WAL in and removes both files.
            try PlainSQLite.execute("PRAGMA user_version", atPath: source + "/s.sqlite")
            #expect(files(in: source) == ["s.sqlite"])
            // The URI's path is percent-escaped: a folder named with `?`, `#`, `%` and a space.
            let mount = try ReadOnlyMount(of: source, at: directory.file("mounted ?#%25"))
            defer { mount.unmount() }
            let printed = try runEveryReadCommand(
                on: mount.path + "/s.sqlite", tab: tab, query: "example", in: directory.path)
            #expect(printed.contains(url))
            #expect(printed.contains("journal mode:    wal"))
            #expect(files(in: source) == ["s.sqlite"])
        }
    }

    @Test func walWithoutShm_isReadFromAPrivateCopy_thatGoesAfterwards() throws {
        try TemporaryDirectory.with { directory in
            let source = directory.file("disk")
            try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: false)
            let (tab, url) = try storeKilledMidWrite(in: source)
            // A backup that left the -shm out (the writer is dead: no lock of anyone's to drop).
            unlink(source + "/s.sqlite-shm")
            let mount = try ReadOnlyMount(of: source, at: directory.file("mounted"))
            defer { mount.unmount() }
            let copiesBefore = leftoverCopies()
            let printed = try runEveryReadCommand(
                on: mount.path + "/s.sqlite", tab: tab, query: "example", in: directory.path)
            #expect(printed.contains(url), "the WAL's last commit (\(url)) is not shown")
            #expect(files(in: source) == ["s.sqlite", "s.sqlite-wal"])
            #expect(leftoverCopies() == copiesBefore)
        }
    }
}

/// A file's size in bytes, 0 when there is none.
enum DatabaseFileSize {
    static func of(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }
}
