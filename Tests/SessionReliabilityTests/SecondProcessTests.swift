import Foundation
import SessionStorage
import SessionTestSupport
import Testing

/// A second process that opens and closes the store while an app has it open
/// must never make that app's later commits vanish (issue 29).
///
/// Closing any descriptor on a database file drops all of the process's locks
/// on it; a process that later closes its own connection then believes it is
/// the last, checkpoints, and deletes the `-wal` and `-shm` under the app.
@Suite(.serialized) struct SecondProcessTests {
    /// Tests that the reported sequence loses nothing: an app commits a tab, takes
    /// a snapshot and reads its status (the paths that once opened the file with a
    /// descriptor of their own), the real `sqlite3` and the real command open and
    /// close the store, the app commits five more tabs and is SIGKILLed: all six are there.
    @Test func secondProcessOpeningAndClosing_losesNoCommitOfTheApp() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("sessionstore.sqlite")
        let app = try RunningWriter(["app", "--db", path], interactive: true)
        defer { if app.process.isRunning { app.kill() } }
        #expect(app.send("insert") == "ok 1")
        #expect(app.send("snapshot") == "ok")
        #expect(app.send("status") == "ok 1")

        let sqlite = try runTool(["-bail", path, "BEGIN IMMEDIATE; COMMIT;"], in: directory.path, binary: "/usr/bin/sqlite3")
        #expect(sqlite.status == 0, "\(sqlite)")
        for command in [["snapshot", "--db", path], ["status", "--db", path], ["ls", "--db", path]] {
            let result = try runTool(command, in: directory.path)
            #expect(result.status == 0, "\(command): \(result)")
        }
        // The app's WAL is still the file's: nobody deleted it from under the app.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(deletedFiles(openBy: app.process.processIdentifier).isEmpty)

        for sequence in 2...6 { #expect(app.send("insert") == "ok \(sequence)") }
        #expect(app.send("count") == "count 6")
        // Another process sees all six before the kill, too.
        let seen = try runTool([path, "SELECT count(*) FROM tabs"], in: directory.path, binary: "/usr/bin/sqlite3")
        #expect(seen.stdout == "6\n", "\(seen)")
        app.kill()

        let after = try runTool([path, "SELECT count(*) FROM tabs"], in: directory.path, binary: "/usr/bin/sqlite3")
        #expect(after.stdout == "6\n", "\(after)")
        let check = try runTool(["check", "--db", path], in: directory.path)
        #expect(check.status == 0, "\(check)")
    }

    /// Tests that `import` refuses the store (or its `-wal`) as its document: reading
    /// it with a descriptor of its own, beside its SQLite connection, would drop the locks.
    @Test func import_ofTheStoreItself_isRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(try runTool(["demo", "--db", "s.sqlite", "--browsers", "1", "--tabs", "2"], in: directory.path).status == 0)
        let before = fileBytes(directory.file("s.sqlite"))
        for document in ["s.sqlite", "./s.sqlite", "s.sqlite-wal"] {
            let result = try runTool(["import", "--db", "s.sqlite", document], in: directory.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("the document is the store"), "\(result)")
        }
        #expect(fileBytes(directory.file("s.sqlite")) == before)
    }
}

/// The files a process holds open that were deleted since (`/proc/PID/fd` shows "(deleted)").
func deletedFiles(openBy pid: Int32) -> [String] {
    let directory = "/proc/\(pid)/fd"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
    return names.compactMap { name in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name),
              target.hasSuffix(" (deleted)")
        else { return nil }
        return target
    }
}
