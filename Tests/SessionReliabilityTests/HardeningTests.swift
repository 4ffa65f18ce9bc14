import Foundation
import GRDB
import SessionModel
@testable import SessionStorage
import SessionTestSupport
import Testing

/// Items of the hostile run against `sessionstore` (issue 13), one test each,
/// numbered as the issue numbers them. Each failed before its fix.
@Suite struct HardeningTests {
    /// Item 1: a committed import is reported as done at once, even while another
    /// process holds a read transaction (the final checkpoint is best effort and brief).
    @Test func item1_committedImport_besideAReader_exitsZeroAtOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.file("s.sqlite")
        #expect(try runTool(["demo", "--db", directory.file("a.sqlite"), "--seed", "11", "--browsers", "1", "--tabs", "3"], in: directory.path).status == 0)
        #expect(try runTool(["export", "--db", directory.file("a.sqlite"), "--output", directory.file("other.json")], in: directory.path).status == 0)
        #expect(try runTool(["demo", "--db", store, "--seed", "12", "--browsers", "1", "--tabs", "3"], in: directory.path).status == 0)

        let reader = try SQLiteShellReader(store: store)
        // The reader's transaction stays open until the import has returned: an import that
        // waited for it would fail with `busy` after its busy timeout.
        let result = try runTool(["import", directory.file("other.json"), "--db", store], in: directory.path)
        reader.end()
        #expect(result.status == 0, "\(result)")
        let status = try SessionStoreFile.status(atPath: store)
        #expect(status.counts?.browsers == 2)  // the demo's window and the imported one
    }

    /// Item 2: `export --output` refuses the store itself, writes through a FIFO
    /// or a device without replacing it, and replaces only regular files.
    @Test func item2_exportOutput_refusesTheStore_andWritesThroughSpecialFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.file("s.sqlite")
        #expect(try runTool(["demo", "--db", store, "--browsers", "1", "--tabs", "3"], in: directory.path).status == 0)
        let before = fileBytes(store)
        for target in [store, store + "-wal", "./s.sqlite"] {
            let refused = try runTool(["export", "--db", store, "--output", target], in: directory.path)
            #expect(refused.status == 64, "\(target): \(refused)")
        }
        #expect(fileBytes(store) == before)

        let fifo = directory.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = ValueRecorder<Data>()
        Thread.detachNewThread {
            let handle = FileHandle(forReadingAtPath: fifo)
            received.record(handle?.readDataToEndOfFile() ?? Data())
        }
        let throughFIFO = try runTool(["export", "--db", store, "--output", fifo], in: directory.path, timeout: 30)
        #expect(throughFIFO.status == 0, "\(throughFIFO)")
        #expect(received.wait(timeout: 10) { !$0.isEmpty })
        #expect(try SessionArchive.decode(from: received.recorded.first ?? Data()).browsers.count == 1)
        var info = stat()
        #expect(stat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)

        let full = try runTool(["export", "--db", store, "--output", "/dev/full"], in: directory.path)
        #expect(full.status == 74 && full.stderrLines.count == 1, "\(full)")
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    /// Item 3: damage that other commands trip over makes `check` exit 1, naming the
    /// table, row and column (or the schema object, browser or entry).
    @Test(arguments: [
        ("UPDATE tabs SET created_at = 'not a date' WHERE rowid = 1", "value tabs row 1: created_at holds 'not a date', not a time"),
        ("UPDATE tabs SET last_active_at = '10000-01-01 00:00:00.000' WHERE rowid = 2", "value tabs row 2: last_active_at holds"),
        ("PRAGMA ignore_check_constraints = ON; UPDATE navigation_entries SET title = printf('%.600c', 'x') WHERE id = 1",
         "value navigation_entries row 1: title is 600 characters long, over the limit of 512."),
        ("UPDATE navigation_entries SET url = 'https://a.example/' || char(0) || 'cut' WHERE id = 2",
         "value navigation_entries row 2: url holds a NUL character at byte 18"),
        ("UPDATE navigation_entries SET title = CAST(X'636166E9' AS TEXT) WHERE id = 3",
         "value navigation_entries row 3: title is not valid UTF-8."),
        ("UPDATE navigation_entries SET url = X'68747470' WHERE id = 1", "value navigation_entries row 1: url holds blob X'68747470' where text belongs."),
        ("UPDATE tabs SET sort_key = 'abc' WHERE rowid = 2", "value tabs row 2: sort_key holds text 'abc' where an integer belongs."),
        ("UPDATE tabs SET history_start = 1.5 WHERE rowid = 3", "value tabs row 3: history_start holds real 1.5 where an integer belongs."),
        ("PRAGMA ignore_check_constraints = ON; UPDATE tabs SET is_pinned = 2 WHERE rowid = 1", "value tabs row 1: is_pinned holds 2, outside 0...1."),
        ("DROP INDEX tabs_by_browser_order; UPDATE tabs SET sort_key = (SELECT sort_key FROM tabs WHERE rowid = 1) WHERE rowid = 2",
         "share the sort key"),
        ("DROP VIEW open_tabs", "schema view open_tabs: is missing; the migrations made it."),
        ("DELETE FROM tabs WHERE closed_entry_id IS NOT NULL", "a closed tab entry must hold one tab; it holds 0."),
        ("INSERT INTO closed_entries (id, kind, closed_at) VALUES ('00000000-0000-4000-8000-000000000001', 'window', '2026-01-01 00:00:00.000')",
         "closed closed entry 00000000-0000-4000-8000-000000000001: a closed window entry must be one browser's; 0 browsers name it."),
    ])
    func item3_damageOtherCommandsTripOver_failsCheck_namingTheRow(damage: String, expected: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(try runTool(["demo", "--db", "s.sqlite", "--seed", "3", "--browsers", "1", "--tabs", "4"], in: directory.path).status == 0)
        #expect(try runTool(["check", "--db", "s.sqlite"], in: directory.path).status == 0)
        try DatabaseQueue(path: directory.file("s.sqlite")).writeWithoutTransaction { try $0.execute(sql: damage) }

        let check = try runTool(["check", "--db", "s.sqlite"], in: directory.path)
        #expect(check.status == 1, "\(damage): \(check)")
        #expect(check.stdout.contains(expected), "\(damage): \(check)")
        // `status` counts rows without the views, so it still answers.
        #expect(try runTool(["status", "--db", "s.sqlite"], in: directory.path).status == 0)
        // What `check` reports is what the store's own export and import would trip over.
        let export = try runTool(["export", "--db", "s.sqlite", "--output", "e.json"], in: directory.path)
        if export.status == 0, damage.contains("closed_entries") || damage.contains("closed_entry_id") {
            let reimport = try runTool(["import", "e.json", "--db", "n.sqlite"], in: directory.path)
            #expect(reimport.status == 65, "\(reimport)")
        }
    }

    /// Item 4: import and export accept the same times: a year past 9999 (which the
    /// store could not give back) is refused at import, with where it is.
    @Test func item4_timeTheStoreCannotGiveBack_isRefusedAtImport() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var text = try Self.exportedDemo(in: directory)
        let range = try #require(text.range(of: #""created_at" : "20"#))
        text.replaceSubrange(range, with: #""created_at" : "100"#)
        try text.write(toFile: directory.file("e.json"), atomically: true, encoding: .utf8)
        let result = try runTool(["import", "e.json", "--db", "n.sqlite"], in: directory.path)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("$.browsers[0].created_at") && result.stderr.contains("9999"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("n.sqlite")))
        #expect(ArchiveTime.date(from: "9999-12-31T23:59:59.999Z") != nil)
        #expect(ArchiveTime.date(from: "10000-01-01T00:00:00.000Z") == nil)
        #expect(ArchiveTime.date(from: "0000-01-01T00:00:00.000Z") == nil)
    }

    /// Item 13: numbers no integer field can hold, a lone surrogate escape and
    /// text that is not UTF-8 are refused with a JSON path or a line and column.
    @Test func item13_badNumbersAndEncodings_areLocated() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let exported = try Self.exportedDemo(in: directory)
        func replacing(_ pattern: String, with replacement: String) -> Data {
            Data(exported.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression).utf8)
        }
        let cases: [(String, Data, String)] = [
            ("huge version", replacing(#""version" : 1"#, with: #""version" : 18446744073709551617"#), "$.version: expected an integer"),
            ("fractional version", replacing(#""version" : 1"#, with: #""version" : 1.5"#), "$.version: expected an integer"),
            ("out of range", replacing(#""version" : 1"#, with: #""version" : 1e400"#), "the number 1e400 is out of range"),
            ("huge index", replacing(#""current_index" : [0-9]+"#, with: #""current_index" : 99999999999999999999"#), "current_index: expected an integer"),
            ("lone surrogate", Data(exported.replacingOccurrences(of: #""title" : ""#, with: #""title" : "\ud800"#).utf8), "surrogate"),
            ("UTF-32", exported.data(using: .utf32LittleEndian)!, "not UTF-8 text"),
            ("stray byte", Data(#"{"format": ""#.utf8) + Data([0xFF]) + Data(#""}"#.utf8), "not UTF-8 text"),
        ]
        for (name, document, expected) in cases {
            try document.write(to: URL(fileURLWithPath: directory.file("bad.json")))
            let result = try runTool(["import", "bad.json", "--db", "n.sqlite"], in: directory.path)
            #expect(result.status == 65, "\(name): \(result)")
            #expect(result.stderr.contains(expected), "\(name): \(result)")
            #expect(!result.stderr.contains("at the document:"), "\(name): \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("n.sqlite")))
    }

    /// Item 5: `ls --all` beside a looping `import --replace` reads one state each
    /// time: never "No browser" for a browser the replace removed mid-read.
    @Test func item5_lsBesideALoopingReplace_alwaysReadsOneState() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.exportedDemo(in: directory)
        #expect(try runTool(["demo", "--db", "other.sqlite", "--seed", "9", "--browsers", "3", "--tabs", "5"], in: directory.path).status == 0)
        #expect(try runTool(["export", "--db", "other.sqlite", "--output", "o.json"], in: directory.path).status == 0)
        let stop = Protected(false)
        let failures = Protected<[String]>([])
        let replacer = Thread {
            var step = 0
            while !stop.withLock({ $0 }) {
                let document = step % 2 == 0 ? "o.json" : "e.json"
                if let result = try? runTool(["import", document, "--replace", "--db", "s.sqlite"], in: directory.path),
                   result.status != 0 {
                    failures.withLock { $0.append("import: \(result)") }
                }
                step += 1
            }
        }
        replacer.start()
        // The run that found it failed 26 of 1,280 reads (2%): 150 reads would see about 3.
        for _ in 0..<150 {
            let result = try runTool(["ls", "--all", "--db", "s.sqlite"], in: directory.path)
            if result.status != 0 { failures.withLock { $0.append("ls: \(result)") } }
        }
        stop.withLock { $0 = true }
        while !replacer.isFinished { usleep(10_000) }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
    }

    /// Item 6: a full stdout is a failure with one line (74), never a trap or a silent exit 0.
    @Test(arguments: [["export"], ["ls"], ["status"], ["check"], ["closed", "--json"]])
    func item6_fullStandardOutput_failsWithOneLine(arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.file("s.sqlite")
        #expect(try runTool(["demo", "--db", store, "--browsers", "1", "--tabs", "3"], in: directory.path).status == 0)
        let result = try runTool(arguments + ["--db", store], in: directory.path, stdoutPath: "/dev/full")
        #expect(result.status == 74, "\(arguments): \(result)")
        #expect(result.stderrLines.count == 1 && result.stderr.contains("standard output"), "\(result)")
    }

    /// Item 7: a busy timeout that GRDB cannot hold is a usage error, not a trap.
    @Test(arguments: ["3000000", "1e308", "nan", "-1"])
    func item7_hugeBusyTimeout_isAUsageError(value: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try runTool(["status", "--busy-timeout", value], in: directory.path)
        #expect(result.status == 64, "\(value): \(result)")
    }

    /// Item 8: a symbolic link to no file yet: the store is made where it points, mode 0600,
    /// and every command then reads it through the link.
    @Test func item8_symbolicLink_isFollowed_andTheStoreIsPrivate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createSymbolicLink(atPath: directory.file("l.sqlite"), withDestinationPath: "t.sqlite")
        let migrate = try runTool(["migrate", "--db", "l.sqlite"], in: directory.path, timeout: 30)
        #expect(migrate.status == 0, "\(migrate)")
        let mode = try FileManager.default.attributesOfItem(atPath: directory.file("t.sqlite"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        for arguments in [["status"], ["check"], ["ls"], ["demo", "--browsers", "1", "--tabs", "2"]] {
            let result = try runTool(arguments + ["--db", "l.sqlite"], in: directory.path)
            #expect(result.status == 0, "\(arguments): \(result)")
        }
        #expect(try filesBelow(directory.path).filter { $0.contains(".creating-") }.isEmpty)
    }

    /// Item 9: read-only commands on a copied store leave no `-wal` or `-shm` behind
    /// and the file byte-identical; beside a process that has the store open, the
    /// files it needs stay and it keeps writing.
    @Test func item9_readOnlyCommands_leaveNoFilesBesideACopiedStore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(try runTool(["demo", "--db", "made.sqlite", "--browsers", "1", "--tabs", "3"], in: directory.path).status == 0)
        try FileManager.default.createDirectory(atPath: directory.file("copy"), withIntermediateDirectories: false)
        let store = directory.file("copy/s.sqlite")
        try FileManager.default.copyItem(atPath: directory.file("made.sqlite"), toPath: store)
        let bytes = fileBytes(store)
        let reader = try SessionDatabase.openReadOnly(atPath: store)
        let tab = try #require(try reader.exportArchive().browsers.first?.tabs.first?.id)
        try reader.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("copy")) == ["s.sqlite"])
        let commands: [[String]] = [
            ["status"], ["check"], ["ls", "--all"], ["show", tab.uuidString], ["closed"], ["export"], ["snapshots"],
            ["restore", "00000000-0000-4000-8000-000000000001"],
        ]
        for arguments in commands {
            let result = try runTool(arguments + ["--db", store], in: directory.path)
            #expect([0, 65].contains(result.status), "\(arguments): \(result)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("copy")) == ["s.sqlite"], "\(arguments)")
            #expect(fileBytes(store) == bytes, "\(arguments)")
        }

        // Beside an open store: its files stay, and it writes after the command as before.
        let database = try SessionDatabase.open(atPath: store)
        let browser = try SQLiteBrowserRepository(database: database).createBrowser()
        #expect(try runTool(["ls", "--db", store], in: directory.path).status == 0)
        #expect(FileManager.default.fileExists(atPath: store + "-wal") && FileManager.default.fileExists(atPath: store + "-shm"))
        try SQLiteWebStateListRepository(database: database).insert(WebState(), in: browser.id, params: .automatic().activate())
        try database.close()
        #expect(try SessionStoreFile.check(atPath: store) == [])
    }

    /// Item 10: control characters in a path are escaped in messages: one line, no terminal control.
    @Test func item10_controlCharactersInAPath_areEscaped() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try runTool(["ls", "--db", "nl\nmissing\u{1B}[2J.sqlite"], in: directory.path)
        #expect(result.status == 66)
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains("nl\\nmissing\\u{1B}[2J.sqlite"), "\(result)")
        #expect(!result.stderr.contains("\u{1B}"))
    }

    /// Item 11: a path too long for SQLite is reported as too long (64), not as a permission problem.
    @Test func item11_pathTooLong_isReportedAsSuch() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var folder = directory.path
        while folder.utf8.count < 600 { folder += "/" + String(repeating: "d", count: 100) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for arguments in [["migrate"], ["status"], ["demo", "--tabs", "1", "--browsers", "1"]] {
            let result = try runTool(arguments + ["--db", folder + "/s.sqlite"], in: directory.path)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stderr.contains("the path is too long"), "\(result)")
            #expect(!result.stderr.contains("permissions"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// Item 12: errors about the document to import name the document, not the store.
    @Test func item12_unreadableImportDocument_isNamedAsSuch() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = try runTool(["import", "no_such.json", "--db", "s.sqlite"], in: directory.path)
        #expect(missing.status == 66)
        #expect(missing.stderr == "sessionstore: no_such.json: no such document to import.\n", "\(missing)")
        let folder = try runTool(["import", ".", "--db", "s.sqlite"], in: directory.path)
        #expect(folder.status == 66 && folder.stderrLines.count == 1 && folder.stderr.contains("document"), "\(folder)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("s.sqlite")))
    }

    /// Item 14: `watch --browser ID` on a list that breaks a rule shows the list
    /// repaired in memory (the tab that broke the rule unpinned) and names the rule
    /// on stderr; the file is unchanged and `check` still reports it.
    @Test func item14_watchOnAListBreakingARule_showsItRepaired_andNamesTheRule() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.file("s.sqlite")
        let database = try SessionDatabase.open(atPath: store)
        let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        var last = WebStateID()
        for (index, title) in ["Pinned", "Regular", "Last"].enumerated() {
            let tab = WebState()
            try tabs.insert(tab, in: browser, params: index == 0 ? .automatic().pinned() : .automatic().activate())
            try histories.commit(NavigationItem(url: "https://\(index).example/", title: title), in: tab.id)
            last = tab.id
        }
        try database.close()
        try DatabaseQueue(path: store).write { db in
            try db.execute(sql: "UPDATE tabs SET is_pinned = 1 WHERE id = ?", arguments: [last.uuidString])
        }
        let bytes = fileBytes(store)

        let watch = try WatchProcess(arguments: ["--db", store, "--browser", browser.uuidString], in: directory.path)
        defer { if watch.process.isRunning { watch.process.terminate() } }
        #expect(watch.waitForLines { !$0.isEmpty }, "stderr: \(watch.errorText)")
        #expect(watch.lines.first == #"3 tabs: "Pinned" | "Regular" "Last"*"#)
        #expect(watch.stderr.wait(timeout: 10) { String(decoding: $0.reduce(Data(), +), as: UTF8.self).contains("note:") })
        watch.process.interrupt()
        #expect(watch.waitForExit() == 0)
        #expect(watch.errorText.contains("read around damage: tabUnpinned in browser \(browser) (\(last)): pinned after an unpinned tab."),
                "\(watch.errorText)")
        #expect(fileBytes(store) == bytes)
        let check = try runTool(["check", "--db", store], in: directory.path)
        #expect(check.status == 1 && check.stdout.contains("follows a regular tab"), "\(check)")
    }

    /// A small demo store (`s.sqlite`) and its export (`e.json`) in `directory`; the export's text.
    private static func exportedDemo(in directory: TemporaryDirectory) throws -> String {
        String(decoding: try demoStoreAndExport(in: directory), as: UTF8.self)
    }
}
