import Foundation
import SessionTestSupport
import Testing
@testable import SessionStoreCommand
@testable import SessionStorage

@Suite struct SessionStoreCommandTests {
    let binary = SessionStoreBinary()

    // MARK: - Parsing in process

    @Test func parse_migrateFlags_areRead() throws {
        let command = try SessionStore.parseAsRoot(["migrate", "--db", "x.sqlite", "--dry-run", "--no-backup"])
        let migrate = try #require(command as? SessionStore.Migrate)
        #expect(migrate.options.path == "x.sqlite")
        #expect(migrate.dryRun)
        #expect(migrate.noBackup)
    }

    @Test func parse_negativeBusyTimeout_isAUsageError() {
        #expect(throws: (any Error).self) {
            try SessionStore.parseAsRoot(["status", "--busy-timeout", "-1"])
        }
    }

    // MARK: - The built binary

    /// The README's main job, run twice in one directory: the second demo adds a session of new tabs.
    @Test func demo_twiceInOneStore_addsASecondSession_andChecksClean() throws {
        try TemporaryDirectory.with { dir in
            #expect(try binary.run(["demo", "--browsers", "1", "--tabs", "3"], in: dir.path).status == 0)
            let again = try binary.run(["demo", "--browsers", "1", "--tabs", "3"], in: dir.path)
            #expect(again.status == 0, "\(again)")
            #expect(try binary.run(["check"], in: dir.path) == .init(status: 0, stdout: "sessionstore.sqlite: ok\n", stderr: ""))
            let counts = try SessionStoreFile.status(atPath: dir.file("sessionstore.sqlite"))
            #expect(counts.counts?.browsers == 2)
        }
    }

    @Test func migrate_thenStatusAndCheck_onDefaultFileInCurrentDirectory() throws {
        try TemporaryDirectory.with { dir in
            let migrate = try binary.run(["migrate"], in: dir.path)
            #expect(migrate == .init(status: 0, stdout: """
                sessionstore.sqlite: created; applied 12 migration(s):
                  0001_create_session_schema
                  0002_tab_search
                  0003_tab_pages
                  0004_sync
                  0005_sync_commands
                  0006_browser_sources
                  0007_sync_record_floors
                  0008_tab_splits
                  0009_tab_archive
                  0010_saved_tab_groups
                  0011_sync_archived_tabs
                  0012_sync_saved_groups

                """, stderr: ""))
            let again = try binary.run(["migrate"], in: dir.path)
            #expect(again == .init(status: 0, stdout: "sessionstore.sqlite: up to date; nothing to apply.\n", stderr: ""))
            let check = try binary.run(["check"], in: dir.path)
            #expect(check == .init(status: 0, stdout: "sessionstore.sqlite: ok\n", stderr: ""))
            let status = try binary.run(["status"], in: dir.path)
            #expect(status.status == 0)
            #expect(status.stdout.contains("schema version:  0012_sync_saved_groups\n"))
            #expect(status.stdout.contains("application id:  1397052243\n"))
            #expect(status.stdout.contains("pending:         none\n"))
        }
    }

    @Test func statusJSON_isParseable_andNamesTheSchema() throws {
        try TemporaryDirectory.with { dir in
            _ = try binary.run(["migrate", "--db", "s.sqlite"], in: dir.path)
            let result = try binary.run(["status", "--json", "--db", "s.sqlite"], in: dir.path)
            #expect(result.status == 0)
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(object?["schema_version"] as? String == "0012_sync_saved_groups")
            #expect(object?["journal_mode"] as? String == "wal")
            #expect((object?["counts"] as? [String: Int])?["tabs"] == 0)
        }
    }

    @Test func environmentVariable_choosesTheFile_andDbOverridesIt() throws {
        try TemporaryDirectory.with { dir in
            let viaEnvironment = try binary.run(["migrate"], in: dir.path, environment: ["SESSIONSTORE_DB": "env.sqlite"])
            #expect(viaEnvironment.status == 0)
            #expect(FileManager.default.fileExists(atPath: dir.file("env.sqlite")))
            let viaFlag = try binary.run(
                ["migrate", "--db", "flag.sqlite"], in: dir.path, environment: ["SESSIONSTORE_DB": "env.sqlite"])
            #expect(viaFlag.status == 0)
            #expect(FileManager.default.fileExists(atPath: dir.file("flag.sqlite")))
            #expect(!FileManager.default.fileExists(atPath: dir.file("sessionstore.sqlite")))
        }
    }

    @Test func migrateDryRun_onMissingFile_createsNothing() throws {
        try TemporaryDirectory.with { dir in
            let result = try binary.run(["migrate", "--dry-run"], in: dir.path)
            #expect(result == .init(status: 0, stdout: """
                sessionstore.sqlite: would be created; 12 migration(s) pending:
                  0001_create_session_schema
                  0002_tab_search
                  0003_tab_pages
                  0004_sync
                  0005_sync_commands
                  0006_browser_sources
                  0007_sync_record_floors
                  0008_tab_splits
                  0009_tab_archive
                  0010_saved_tab_groups
                  0011_sync_archived_tabs
                  0012_sync_saved_groups

                """, stderr: ""))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        }
    }

    /// A copy of the binary in a directory of its own, run far from the source
    /// tree and `.build`, still migrates: the SQL is compiled in.
    @Test func installedCopy_elsewhere_stillMigrates() throws {
        try TemporaryDirectory.with { dir in
            let bin = dir.file("bin")
            let work = dir.file("work")
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            // Copied by cp, not FileManager: the copy's write descriptor must never be this
            // process's, or a child that another test spawns meanwhile inherits it (it is not
            // close-on-exec), and running the copy fails with ETXTBSY ("Text file busy").
            let copy = try runTool([binary.path, "\(bin)/sessionstore"], in: dir.path, binary: "/bin/cp")
            #expect(copy.status == 0, "\(copy)")
            let installed = SessionStoreBinary(path: "\(bin)/sessionstore")
            let result = try installed.run(["migrate"], in: work)
            #expect(result.status == 0, "\(result)")
            let check = try installed.run(["check"], in: work)
            #expect(check == .init(status: 0, stdout: "sessionstore.sqlite: ok\n", stderr: ""))
        }
    }

    @Test func usageError_exits64() throws {
        try TemporaryDirectory.with { dir in
            let result = try binary.run(["status", "--busy-timeout=-1"], in: dir.path)
            #expect(result.status == 64)
            #expect(result.stderr.contains("--busy-timeout must be a number of seconds from 0 to 86400."))
            let unknown = try binary.run(["frobnicate"], in: dir.path)
            #expect(unknown.status == 64)
        }
    }

    @Test func help_listsSubcommandsAndExitCodes() throws {
        try TemporaryDirectory.with { dir in
            let result = try binary.run(["--help"], in: dir.path)
            #expect(result.status == 0)
            for line in ["  migrate ", "  status ", "  check ", "  65  not a session store, corrupt, or malformed input",
                         "  66  the database file does not exist", "  78  the database is newer than this tool"] {
                #expect(result.stdout.contains(line), "help lacks \(line)")
            }
        }
    }

    // MARK: - Bad files: exit codes, one line, file unchanged

    enum BadFile: String, CaseIterable, CustomStringConvertible {
        case missing, directory, garbage, truncated, empty, foreign, newer
        var description: String { rawValue }
    }

    private func plant(_ bad: BadFile, at path: String) throws {
        switch bad {
        case .missing:
            break
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .garbage:
            try Data(repeating: 0x5A, count: 10_000).write(to: URL(fileURLWithPath: path))
        case .truncated:
            try SessionStoreFile.migrate(atPath: path)
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.truncate(atOffset: 4096 * 3)
            try handle.close()
        case .empty:
            _ = FileManager.default.createFile(atPath: path, contents: Data())
        case .foreign:
            try PlainSQLite.execute("CREATE TABLE contacts(name TEXT)", atPath: path)
        case .newer:
            try SessionStoreFile.migrate(atPath: path)
            try PlainSQLite.execute("INSERT INTO grdb_migrations VALUES ('9999_future')", atPath: path)
        }
    }

    /// Expected exit status of `subcommand` on each bad file.
    static let cases: [(String, BadFile, Int32)] = [
        ("status", .missing, 66), ("check", .missing, 66),
        ("status", .directory, 65), ("check", .directory, 65), ("migrate", .directory, 65),
        ("status", .garbage, 65), ("check", .garbage, 65), ("migrate", .garbage, 65),
        ("status", .truncated, 65), ("check", .truncated, 65), ("migrate", .truncated, 65),
        ("check", .empty, 65),
        ("status", .foreign, 65), ("check", .foreign, 65), ("migrate", .foreign, 65),
        // A newer binary's migration not recorded as additive: readable, never written.
        ("status", .newer, 0), ("check", .newer, 78), ("migrate", .newer, 78),
    ]

    @Test(arguments: cases)
    func badFile_exitsWithDocumentedStatus_oneLine_fileUnchanged(subcommand: String, bad: BadFile, expected: Int32) throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            try plant(bad, at: path)
            let before = fileBytes(path)
            let result = try binary.run([subcommand, "--db", path], in: dir.path)
            #expect(result.status == expected, "\(result)")
            if expected == 0 {
                // A newer store read, not written: status says so, check checks what it knows.
                #expect(result.stderr.isEmpty)
                if subcommand == "status" { #expect(result.stdout.contains("newer:           9999_future (unknown to this binary, which may only read it)")) }
            } else {
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.hasPrefix("sessionstore: \(path): "))
                #expect(result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(result.stderr)")
            }
            #expect(fileBytes(path) == before)
            if bad == .missing { #expect(!FileManager.default.fileExists(atPath: path)) }
        }
    }
}
