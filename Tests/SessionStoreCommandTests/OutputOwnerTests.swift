import Foundation
import SessionStorage
import SessionTestSupport
import Testing

/// `export --output` replaces an existing file only when the caller owns it, or
/// with `--force`: in a world-writable directory without the sticky bit anyone
/// may rename over another user's file (issue 32). Run with the built binary as
/// root, so `chown` can give files to `nobody` (65534) and the binary can run as it.
@Suite(.enabled(if: geteuid() == 0, "needs root to give files to another user"))
struct OutputOwnerTests {
    let binary = SessionStoreBinary()
    static let nobody: UInt32 = 65534

    /// A world-writable directory without the sticky bit, holding a store `nobody` may read and write.
    private func sharedDirectory(_ dir: TemporaryDirectory) throws -> String {
        let store = dir.file("s.sqlite")
        #expect(try binary.run(["demo", "--db", store, "--browsers", "1", "--tabs", "3"], in: dir.path).status == 0)
        chmod(dir.path, 0o777)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
            chown(store + suffix, Self.nobody, Self.nobody)
        }
        return store
    }

    /// A file at `path` holding `text`, mode 0644, of `owner`'s.
    private func makeFile(_ path: String, _ text: String, owner: UInt32) -> Data {
        let contents = Data(text.utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: contents, attributes: [.posixPermissions: 0o644]))
        #expect(chown(path, owner, owner) == 0)
        return contents
    }

    private func owner(_ path: String) -> uid_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_uid : nil
    }

    /// The files of the directory other than the store's, for finding leftovers.
    private func outputs(in dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix("s.sqlite") }.sorted()
    }

    @Test func anotherUsersFile_isNotReplaced_butForceReplacesIt() throws {
        try TemporaryDirectory.with { dir in
            let store = try sharedDirectory(dir)
            let output = dir.file("out.json")
            let theirs = makeFile(output, "nobody's file\n", owner: Self.nobody)

            // Root runs it: the caller does not own the file.
            let refused = try binary.run(["export", "--db", store, "--output", output], in: dir.path)
            #expect(refused.status == 73, "\(refused)")
            #expect(refused.stderrLines.count == 1, "\(refused)")
            #expect(refused.stderr.contains("out.json") && refused.stderr.contains("--force"), "\(refused)")
            #expect(FileManager.default.contents(atPath: output) == theirs)
            #expect(owner(output) == Self.nobody)
            #expect(try outputs(in: dir) == ["out.json"])  // no temporary file left beside it

            let forced = try binary.run(["export", "--db", store, "--output", output, "--force"], in: dir.path)
            #expect(forced.status == 0, "\(forced)")
            let archive = try SessionArchive.decode(from: try Data(contentsOf: URL(fileURLWithPath: output)))
            #expect(archive.browsers.count == 1)
            #expect(owner(output) == geteuid())
            let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            // The caller's own file is replaced without --force, as before.
            let again = try binary.run(["export", "--db", store, "--output", output, "--format", "urls"], in: dir.path)
            #expect(again.status == 0, "\(again)")
            #expect(try String(contentsOf: URL(fileURLWithPath: output), encoding: .utf8).contains("\t"))
        }
    }

    /// The case: another user exports over root's file in the shared directory.
    @Test func rootsFile_inAWorldWritableDirectory_isNotReplacedByAnotherUser() throws {
        try TemporaryDirectory.with { dir in
            let store = try sharedDirectory(dir)
            let output = dir.file("root.json")
            let roots = makeFile(output, "root's file\n", owner: 0)

            let refused = try runTool(["export", "--db", store, "--output", output], in: dir.path, user: Self.nobody)
            #expect(refused.status == 73, "\(refused)")
            #expect(refused.stderrLines.count == 1, "\(refused)")
            #expect(refused.stderr.contains("root"), "\(refused)")
            #expect(FileManager.default.contents(atPath: output) == roots)
            #expect(owner(output) == 0)
            #expect(try outputs(in: dir) == ["root.json"])

            // A new file, and a symbolic link of nobody's own to root's file (the link is
            // what export replaces), are written.
            let fresh = try runTool(["export", "--db", store, "--output", dir.file("mine.json")], in: dir.path, user: Self.nobody)
            #expect(fresh.status == 0, "\(fresh)")
            #expect(owner(dir.file("mine.json")) == Self.nobody)
            #expect(symlink(output, dir.file("link.json")) == 0)
            #expect(lchown(dir.file("link.json"), Self.nobody, Self.nobody) == 0)
            let throughLink = try runTool(["export", "--db", store, "--output", dir.file("link.json")], in: dir.path, user: Self.nobody)
            #expect(throughLink.status == 0, "\(throughLink)")
            #expect(FileManager.default.contents(atPath: output) == roots)
            #expect(owner(dir.file("link.json")) == Self.nobody)
        }
    }

    /// A FIFO of another user's is written through, never replaced: it is not refused.
    @Test func anotherUsersFIFO_isStillWrittenThrough() throws {
        try TemporaryDirectory.with { dir in
            let store = try sharedDirectory(dir)
            let fifo = dir.file("fifo")
            #expect(mkfifo(fifo, 0o666) == 0)
            #expect(chown(fifo, Self.nobody, Self.nobody) == 0)
            let received = ValueRecorder<Data>()
            Thread.detachNewThread {
                let handle = FileHandle(forReadingAtPath: fifo)
                received.record(handle?.readDataToEndOfFile() ?? Data())
            }
            let result = try binary.run(["export", "--db", store, "--output", fifo], in: dir.path)
            #expect(result.status == 0, "\(result)")
            #expect(received.wait(timeout: 10) { !$0.isEmpty })
            #expect(try SessionArchive.decode(from: received.recorded.first ?? Data()).browsers.count == 1)
            var info = stat()
            #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO && info.st_uid == Self.nobody)
        }
    }
}
