import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Faults under a store: read-only files and directories, a file deleted or
/// replaced while it is open, a full disk.
///
/// A migration that fails halfway is covered by
/// `SchemaMigratorTests.migrate_failingMigration_namesItAndLeavesFileByteIdentical`
/// (SessionStorageTests): the file stays byte-identical and the error names the migration.
@Suite(.serialized) struct FaultTests {
    /// A store with one browser and `tabs` tabs, each with one navigation; returns its path.
    private func makeStore(at path: String, tabs count: Int = 3) throws -> SessionDigest {
        let database = try SessionDatabase.open(atPath: path)
        let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        for index in 0..<count {
            let tab = WebState()
            try tabs.insert(tab, in: browser, params: .automatic().activate())
            try histories.commit(NavigationItem(url: "https://before.example/\(index)", title: "before \(index)"), in: tab.id)
        }
        let digest = try SessionDigest(database)
        try database.close()
        return digest
    }

    /// A tmpfs of `size` mounted on a fresh directory, or nil when this machine does not allow mounting.
    private func mountTmpfs(size: String) -> TemporaryDirectory? {
        guard let directory = try? TemporaryDirectory() else { return nil }
        let result = try? runTool(["-t", "tmpfs", "-o", "size=\(size),mode=0777", "tmpfs", directory.path],
                                  in: "/", binary: "/bin/mount")
        guard result?.status == 0 else {
            directory.remove()
            return nil
        }
        return directory
    }

    private func unmount(_ directory: TemporaryDirectory) {
        _ = try? runTool(["-l", directory.path], in: "/", binary: "/bin/umount")
        directory.remove()
    }

    // MARK: - Read-only

    @Test func readOnlyFilesystem_writesFailWith73_readsWork_stateIntact() throws {
        guard let mount = mountTmpfs(size: "4m") else {
            print("skipped: cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)")
            return
        }
        defer { unmount(mount) }
        let path = mount.file("ro.sqlite")
        let digest = try makeStore(at: path)
        let before = fingerprint(path)
        let remount = try runTool(["-o", "remount,ro", mount.path], in: "/", binary: "/bin/mount")
        try #require(remount.status == 0, "\(remount)")

        for arguments in [["prune"], ["demo"], ["import", "-"], ["restore", UUID().uuidString.lowercased()]] {
            let result = try runTool(arguments + ["--db", path], in: "/", stdin: arguments == ["import", "-"] ? CrashWorkload.setUpDocument : nil)
            #expect([73, 65].contains(result.status), "\(arguments): \(result)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result)")
        }
        #expect(throws: StorageError.self) { try SessionDatabase.open(atPath: path) }
        #expect(throws: StorageError.self) { try SessionDatabase.open(atPath: mount.file("new.sqlite")) }
        for subcommand in ["status", "check", "ls", "export"] {
            let result = try runTool([subcommand, "--db", path], in: "/")
            #expect(result.status == 0, "\(subcommand) on a read-only filesystem: \(result)")
        }
        #expect(fingerprint(path) == before)
        _ = try runTool(["-o", "remount,rw", mount.path], in: "/", binary: "/bin/mount")
        let database = try SessionDatabase.openReadOnly(atPath: path)
        #expect(try SessionDigest(database) == digest)
        try database.close()
    }

    /// The binary run as `nobody` (root ignores file permissions).
    @Test func readOnlyFile_forAnOrdinaryUser_readsWork_writesFailWith73_fileUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let digest = try makeStore(at: path)
        chmod(directory.path, 0o777)  // nobody may create -wal and -shm beside it
        chmod(path, 0o644)  // but not write the store
        let before = fingerprint(path)
        // Finding: a WAL store the user may read but not write cannot be opened even read-only
        // (SQLite refuses: "unable to open database file"), so the read-only subcommands exit 73.
        for subcommand in ["status", "check", "ls", "export"] {
            let result = try runTool([subcommand, "--db", path], in: "/", user: 65534)
            #expect(result.stderrLines.count <= 1, "\(subcommand): \(result)")
            withKnownIssue("read-only subcommands cannot open a WAL store the user cannot write (exit 73)") {
                #expect(result.status == 0, "\(subcommand) on a read-only file: \(result)")
            }
        }
        for arguments in [["prune"], ["restore", UUID().uuidString.lowercased()], ["demo"], ["import", "-"]] {
            let result = try runTool(arguments + ["--db", path], in: "/",
                                     stdin: arguments == ["import", "-"] ? CrashWorkload.setUpDocument : nil, user: 65534)
            #expect(result.status == 73, "\(arguments): \(result)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result)")
        }
        #expect(fingerprint(path) == before)
        let database = try SessionDatabase.openReadOnly(atPath: path)
        #expect(try SessionDigest(database) == digest)
        try database.close()
    }

    @Test func readOnlyDirectory_forAnOrdinaryUser_creatingAStoreFailsWith73_leavesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        chmod(directory.path, 0o755)
        for arguments in [["migrate"], ["demo"], ["import", "-"]] {
            let result = try runTool(arguments + ["--db", directory.file("new.sqlite")], in: "/",
                                     stdin: arguments == ["import", "-"] ? CrashWorkload.setUpDocument : nil, user: 65534)
            #expect(result.status == 73 && result.stderrLines.count == 1, "\(arguments): \(result)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        // A store in a directory the user cannot write cannot even be read: SQLite needs its
        // -shm file for a WAL database. The message says so (exit 73).
        let path = directory.file("store.sqlite")
        _ = try makeStore(at: path)
        chmod(path, 0o644)
        let status = try runTool(["status", "--db", path], in: "/", user: 65534)
        #expect(status.status == 73 && status.stderrLines.count == 1, "\(status)")
    }

    // MARK: - Deleted or replaced under a running store

    @Test func fileDeletedUnderARunningStore_failsClearlyOrKeepsWritingTheOpenFile_neverCorrupts() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        _ = try makeStore(at: path)
        let database = try SessionDatabase.open(atPath: path)
        let browser = try SQLiteBrowserRepository(database: database).browsers()[0].id
        let tabs = SQLiteWebStateListRepository(database: database)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var outcome = "writes kept going to the unlinked file"
        var failed = false
        do {
            try tabs.insert(in: browser, params: .automatic())
        } catch {
            outcome = "a write failed: \(error)"
            failed = true
            #expect(error is StorageError, "\(error)")
        }
        try? database.close()
        #expect(failed, "\(outcome)")
        print("deleted under a running store: \(outcome); path exists afterwards: \(FileManager.default.fileExists(atPath: path))")
        // Nothing half-made appears at the path: either nothing, or a store that checks clean.
        if FileManager.default.fileExists(atPath: path) {
            #expect(try SessionStoreFile.check(atPath: path).isEmpty)
        }
        let status = try runTool(["status", "--db", path], in: directory.path)
        #expect([0, 66].contains(status.status), "\(status)")
    }

    @Test func fileReplacedUnderARunningStore_theReplacementStaysIntact() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        _ = try makeStore(at: path)
        let replacementPath = directory.file("replacement.sqlite")
        let replacementDigest = try makeStore(at: replacementPath, tabs: 5)
        let database = try SessionDatabase.open(atPath: path)
        let browser = try SQLiteBrowserRepository(database: database).browsers()[0].id
        let tabs = SQLiteWebStateListRepository(database: database)
        try tabs.insert(in: browser, params: .automatic())
        // What an installer or a sync tool does: rename a new file over the old one.
        #expect(rename(replacementPath, path) == 0)
        var errors: [String] = []
        for _ in 0..<20 {
            do { try tabs.insert(in: browser, params: .automatic().activate()) } catch { errors.append("\(error)") }
        }
        do { try database.close() } catch { errors.append("close: \(error)") }
        #expect(errors.count == 20 && errors.allSatisfy { $0.contains("deleted or replaced") }, "\(errors)")
        print("replaced under a running store: \(errors.isEmpty ? "the running store kept writing its old (unlinked) file" : errors.joined(separator: "; "))")
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
        let reopened = try SessionDatabase.openReadOnly(atPath: path)
        #expect(try SessionDigest(reopened) == replacementDigest)
        try reopened.close()
    }

    // MARK: - Full disk

    @Test func fullDisk_failsClearly_keepsEveryAcknowledgedWrite_andChecksClean() throws {
        guard let mount = mountTmpfs(size: "2m") else {
            print("skipped: cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)")
            return
        }
        defer { unmount(mount) }
        let path = mount.file("full.sqlite")
        let database = try SessionDatabase.open(atPath: path)
        let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        var acknowledged: [String] = []
        var failure: (any Error)?
        for index in 0..<10_000 {
            let url = "https://full.example/\(index)/" + String(repeating: "x", count: 20_000)
            do {
                let tab = WebState()
                try tabs.update(browser) { _ = try $0.insert(tab, params: .automatic()) }
                try histories.commit(NavigationItem(url: url, title: "full \(index)"), in: tab.id)
                acknowledged.append(url)
            } catch {
                failure = error
                break
            }
        }
        let error = try #require(failure, "the disk never filled")
        print("full disk: \(acknowledged.count) navigations stored, then: \(error)")
        #expect(error is StorageError, "\(error)")
        #expect("\(error)".contains("full"), "\(error)")
        try? database.close()
        // The command reports a full disk in one line.
        let demo = try runTool(["demo", "--db", path], in: mount.path)
        #expect(demo.status != 0 && demo.stderrLines.count == 1, "\(demo)")
        // The acknowledged writes are all there, and the file checks clean.
        let problems = try SessionStoreFile.check(atPath: path)
        #expect(problems.isEmpty, "\(problems)")
        let reopened = try SessionDatabase.openReadOnly(atPath: path)
        let reopenedHistories = SQLiteNavigationHistoryRepository(database: reopened)
        let stored = try Set(SQLiteWebStateListRepository(database: reopened).webStateList(in: browser).webStates
            .flatMap { try reopenedHistories.history(of: $0.id).items.map(\.url) })
        #expect(Set(acknowledged).subtracting(stored).isEmpty, "lost \(Set(acknowledged).subtracting(stored).count)")
        try reopened.close()
    }
}
