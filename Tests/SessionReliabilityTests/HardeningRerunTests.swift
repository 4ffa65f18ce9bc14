import Foundation
import GRDB
import SessionModel
@testable import SessionStorage
import SessionTestSupport
import Testing

/// What the hostile run found when it was repeated on the fixes of issue 13: one
/// test per finding, each failing before its fix.
@Suite struct HardeningRerunTests {
    /// A demo store `s.sqlite` in `directory` and its export `e.json`, as JSON.
    private static func demo(in directory: TemporaryDirectory, tabs: Int = 4) throws -> [String: Any] {
        let data = try demoStoreAndExport(in: directory, arguments: ["--seed", "5", "--browsers", "2", "--tabs", "\(tabs)"])
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private static func write(_ document: [String: Any], to path: String) throws {
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
    }

    /// A closed window imported without its entry's `browser` lists its tabs and
    /// restores with them; before, the restore deleted the window and its tabs.
    @Test func closedWindow_withoutItsBrowserInTheEntry_restoresWithItsTabs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var document = try Self.demo(in: directory)
        var browsers = try #require(document["browsers"] as? [[String: Any]])
        let entry = "00000000-0000-4000-8000-0000000000cc"
        let tabs = (browsers[0]["tabs"] as? [Any])?.count ?? 0
        browsers[0]["closed_entry"] = entry
        document["browsers"] = browsers
        var closed = document["closed_entries"] as? [[String: Any]] ?? []
        closed.append(["id": entry, "kind": "window", "closed_at": "2026-11-24T04:06:00.000Z", "tabs": [Any]()])
        document["closed_entries"] = closed
        try Self.write(document, to: directory.file("w.json"))

        #expect(try runTool(["import", "w.json", "--db", "w.sqlite"], in: directory.path).status == 0)
        #expect(try runTool(["check", "--db", "w.sqlite"], in: directory.path).status == 0)
        let listed = try runTool(["closed", "--json", "--db", "w.sqlite"], in: directory.path)
        #expect(listed.stdout.contains(entry))
        let restored = try runTool(["restore", entry, "--db", "w.sqlite"], in: directory.path)
        #expect(restored.status == 0, "\(restored)")
        #expect(restored.stdout.contains(browsers[0]["id"] as? String ?? "?"), "\(restored)")
        let database = try SessionDatabase.openReadOnly(atPath: directory.file("w.sqlite"))
        defer { try? database.close() }
        let id = try #require(BrowserID(uuidString: browsers[0]["id"] as? String ?? ""))
        #expect(try SQLiteWebStateListRepository(database: database).webStateList(in: id).count == tabs)
    }

    /// An argument that is not UTF-8 is refused (64), not turned into another file's name.
    @Test func argumentNotUTF8_isAUsageError_andTouchesNoOtherFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.copyItem(atPath: try Self.demoStore(in: directory), toPath: directory.file("\u{FFFD}.sqlite"))
        let before = fileBytes(directory.file("\u{FFFD}.sqlite"))
        let result = try runTool(
            ["-c", #"exec "$0" import e.json --replace --db "$(printf '\376.sqlite')""#, BuiltBinary.sessionstore],
            in: directory.path, binary: "/bin/sh")
        #expect(result.status == 64 && result.stderrLines.count == 1, "\(result)")
        #expect(fileBytes(directory.file("\u{FFFD}.sqlite")) == before)
    }

    private static func demoStore(in directory: TemporaryDirectory) throws -> String {
        _ = try demo(in: directory)
        return directory.file("s.sqlite")
    }

    /// Output onto the store's companions (`-wal`, `-shm`, `-journal`) is refused by
    /// `export` and `recover` (64); a stray `-journal` is named in the error it causes.
    @Test func outputOntoTheStoresCompanions_isRefused_andAStrayJournalIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.demo(in: directory)
        for command in ["export", "recover"] {
            for suffix in ["-wal", "-shm", "-journal"] {
                let result = try runTool([command, "--db", "s.sqlite", "--output", "s.sqlite" + suffix], in: directory.path)
                #expect(result.status == 64, "\(command) \(suffix): \(result)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("s.sqlite-journal")))
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: directory.file("s.sqlite-journal")))
        let status = try runTool(["status", "--db", "s.sqlite"], in: directory.path)
        #expect(status.status != 0 && status.stderr.contains("rollback journal"), "\(status)")
    }

    /// A document whose tab is its own opener, or whose opener index is negative, is
    /// refused with its path (65) and the store is left as it was.
    @Test(arguments: ["self", "negative"])
    func openerTheSchemaRefuses_isRefusedWithItsPath(kind: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var document = try Self.demo(in: directory)
        var browsers = try #require(document["browsers"] as? [[String: Any]])
        var tabs = try #require(browsers[0]["tabs"] as? [[String: Any]])
        let id = try #require(tabs[1]["id"] as? String)
        tabs[1]["opener"] = kind == "self"
            ? ["tab": id, "navigation_index": 0] : ["tab": tabs[0]["id"] ?? "", "navigation_index": -1]
        browsers[0]["tabs"] = tabs
        document["browsers"] = browsers
        try Self.write(document, to: directory.file("o.json"))
        let before = fileBytes(directory.file("s.sqlite"))
        let result = try runTool(["import", "o.json", "--replace", "--db", "s.sqlite"], in: directory.path)
        #expect(result.status == 65 && result.stderr.contains("$.browsers[0].tabs[1].opener"), "\(result)")
        #expect(fileBytes(directory.file("s.sqlite")) == before)
    }

    /// `restore-snapshot` refuses garbage and a snapshot that `check` faults before
    /// opening the store for writing: the store byte-identical, no file left beside either.
    @Test func restoreSnapshot_ofGarbageOrADamagedSnapshot_changesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.demo(in: directory)
        for suffix in ["-wal", "-shm"] { unlink(directory.file("s.sqlite" + suffix)) }
        let folder = directory.file("s.sqlite.snapshots")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let garbage = "2026-11-24T05-00-00.000Z.sqlite", damaged = "2026-11-24T05-00-01.000Z.sqlite"
        try Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: folder + "/" + garbage))
        try FileManager.default.copyItem(atPath: directory.file("s.sqlite"), toPath: folder + "/" + damaged)
        try DatabaseQueue(path: folder + "/" + damaged).write { db in
            try db.execute(sql: """
                UPDATE tabs SET is_pinned = 1 WHERE rowid = (SELECT max(rowid) FROM tabs WHERE browser_id IS NOT NULL AND group_id IS NULL)
                """)
        }
        for suffix in ["-wal", "-shm"] { unlink(folder + "/" + damaged + suffix) }
        let before = fileBytes(directory.file("s.sqlite"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        for name in [garbage, damaged] {
            let result = try runTool(["restore-snapshot", name, "--db", "s.sqlite"], in: directory.path)
            #expect(result.status == 65 && result.stderrLines.count == 1, "\(name): \(result)")
            #expect(fileBytes(directory.file("s.sqlite")) == before, "\(name)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == files, "\(name)")
        }
    }

    /// `recover` salvages, into a store that passes `check`, damage that `check` names.
    @Test(arguments: [
        "UPDATE closed_entries SET closed_at = 'yesterday'",
        "UPDATE tabs SET created_at = '2026-11-24T04:05:26.297Z' WHERE rowid = 1",
        "UPDATE tabs SET created_at = '2026-11-24 04:05:26' WHERE rowid = 2",
        "UPDATE navigation_entries SET timestamp = 'zzz' WHERE id = 3",
        "UPDATE tabs SET history_start = 9223372036854775807 WHERE rowid = 1",
        "INSERT INTO closed_entries (id, kind, closed_at) VALUES ('00000000-0000-4000-8000-000000000002', 'window', '2026-11-24 04:05:27.000')",
        "INSERT INTO tab_openers SELECT t.id, (SELECT id FROM tabs WHERE browser_id IS NOT NULL LIMIT 1), 0 FROM tabs AS t WHERE closed_entry_id IS NOT NULL",
        "UPDATE tabs SET group_id = (SELECT id FROM tab_groups LIMIT 1) WHERE closed_entry_id IS NOT NULL",
    ])
    func recover_ofDamageCheckNames_givesAStoreThatPassesCheck(damage: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.demo(in: directory, tabs: 6)
        try DatabaseQueue(path: directory.file("s.sqlite")).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON; PRAGMA foreign_keys = OFF")
            try db.execute(sql: damage)
        }
        #expect(try runTool(["check", "--db", "s.sqlite"], in: directory.path).status == 1, "\(damage)")
        let recovered = try runTool(["recover", "--db", "s.sqlite", "--output", "r.sqlite"], in: directory.path)
        #expect(recovered.status == 0, "\(damage): \(recovered)")
        #expect(try runTool(["check", "--db", "r.sqlite"], in: directory.path).status == 0, "\(damage)")
    }

    /// A window naming a closed tab entry whose tab is lost comes back open with its
    /// tabs: recovery never drops a window for the entry it names.
    @Test func recover_keepsAWindowNamingALostTabEntry() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.demo(in: directory, tabs: 6)
        let (browser, tabs) = try DatabaseQueue(path: directory.file("s.sqlite")).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            let browser = try String.fetchOne(db, sql: "SELECT id FROM browsers ORDER BY rowid LIMIT 1") ?? ""
            let tabs = try Int.fetchOne(db, sql: "SELECT count(*) FROM tabs WHERE browser_id = ?", arguments: [browser]) ?? 0
            try db.execute(sql: """
                UPDATE browsers SET closed_entry_id = (SELECT id FROM closed_entries WHERE kind = 'tab' LIMIT 1) WHERE id = ?;
                DELETE FROM tabs WHERE closed_entry_id IS NOT NULL;
                """, arguments: [browser])
            return (browser, tabs)
        }
        #expect(tabs > 0)
        let recovered = try runTool(["recover", "--db", "s.sqlite", "--output", "r.sqlite"], in: directory.path)
        #expect(recovered.status == 0, "\(recovered)")
        let kept = try DatabaseQueue(path: directory.file("r.sqlite")).read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM tabs JOIN browsers ON browsers.id = tabs.browser_id
                WHERE browsers.id = ? AND browsers.closed_entry_id IS NULL
                """, arguments: [browser])
        }
        #expect(kept == tabs)
    }

    /// Exit statuses and messages: `watch` on a closed window prints `closed` (0); a
    /// change the tab-list rules refuse is 65 in one line; a table renamed by hand is
    /// damage (65), not an internal error; control characters of a document are escaped.
    @Test func statusesAndMessages_ofTheRerun() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var document = try Self.demo(in: directory)

        let closedWindow = try SessionDatabase.open(atPath: directory.file("s.sqlite"))
        let browser = try #require(try SQLiteBrowserRepository(database: closedWindow).browsers().last?.id)
        try SQLiteBrowserRepository(database: closedWindow).closeBrowser(browser)
        try closedWindow.close()
        let watch = try runTool(["watch", "--browser", browser.uuidString, "--db", "s.sqlite"], in: directory.path, timeout: 30)
        #expect(watch.status == 0 && watch.stdout == "closed\n", "\(watch)")

        try FileManager.default.copyItem(atPath: directory.file("s.sqlite"), toPath: directory.file("t.sqlite"))
        try DatabaseQueue(path: directory.file("t.sqlite")).write { db in
            try db.execute(sql: "ALTER TABLE tab_openers RENAME TO tab_openers_old")
        }
        for command in ["ls", "export"] {
            let renamed = try runTool([command, "--db", "t.sqlite"], in: directory.path)
            #expect(renamed.status == 65 && renamed.stderr.contains("schema"), "\(command): \(renamed)")
        }

        var browsers = try #require(document["browsers"] as? [[String: Any]])
        browsers[0]["id"] = "a\nb\u{1B}[2J"
        document["browsers"] = browsers
        try Self.write(document, to: directory.file("c.json"))
        let escaped = try runTool(["import", "c.json", "--db", "n.sqlite"], in: directory.path)
        #expect(escaped.status == 65 && escaped.stderrLines.count == 1 && !escaped.stderr.contains("\u{1B}"), "\(escaped)")
    }

    /// A read-only command on a store its user may read but not write (mode 0400)
    /// leaves no `-wal` or `-shm` behind, which would block the owner's next write.
    @Test func readOnlyCommand_onAStoreTheUserCannotWrite_leavesNoFiles() throws {
        guard getuid() == 0 else { return }  // needs root to run the tool as `nobody`
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.demo(in: directory)
        for suffix in ["-wal", "-shm"] { unlink(directory.file("s.sqlite" + suffix)) }
        chmod(directory.path, 0o777)
        chown(directory.file("s.sqlite"), 65534, 65534)
        chmod(directory.file("s.sqlite"), 0o400)
        let result = try runTool(["ls", "--db", directory.file("s.sqlite")], in: "/", user: 65534)
        #expect(result.status == 0, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("s.sqlite-wal")))
        #expect(!FileManager.default.fileExists(atPath: directory.file("s.sqlite-shm")))
    }

    /// Paths other than the store's: an empty or too long one is a usage error (64);
    /// a FIFO is a document like any other.
    @Test func otherPaths_emptyOrTooLong_areUsageErrors_andAFIFOIsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.demo(in: directory)
        let long = String(repeating: "n", count: 300)
        for arguments in [["export", "--output", ""], ["export", "--output", long], ["import", long],
                          ["recover", "--output", long], ["restore-snapshot", long]] {
            let result = try runTool(arguments + ["--db", "s.sqlite"], in: directory.path)
            #expect(result.status == 64, "\(arguments): \(result)")
        }
        let fifo = directory.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let document = try Data(contentsOf: URL(fileURLWithPath: directory.file("e.json")))
        Thread.detachNewThread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(document)
                try? handle.close()
            }
        }
        let imported = try runTool(["import", fifo, "--db", "f.sqlite"], in: directory.path, timeout: 30)
        #expect(imported.status == 0, "\(imported)")
        // The new store's missing directory is named as the path given, not the file built beside it.
        let recovered = try runTool(["recover", "--db", "s.sqlite", "--output", "nod/out.sqlite"], in: directory.path)
        #expect(recovered.status == 73 && recovered.stderr.contains("nod/out.sqlite:")
                && !recovered.stderr.contains("recovering-"), "\(recovered)")
    }

    /// A write that meets rows breaking the schema's rules (a negative revision set by
    /// hand) is reported as damage to check (65), not as an internal error (70).
    @Test func writeOnRowsBreakingTheSchema_isDamage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try Self.demo(in: directory)
        try DatabaseQueue(path: directory.file("s.sqlite")).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON; UPDATE browsers SET revision = -5")
        }
        let closed = try runTool(["closed", "--json", "--db", "s.sqlite"], in: directory.path)
        let entry = try #require(closed.stdout.split(separator: "\"").drop { $0 != "id" }.dropFirst(2).first)
        let result = try runTool(["restore", String(entry), "--db", "s.sqlite"], in: directory.path)
        #expect(result.status == 65 && result.stderrLines.count == 1 && result.stderr.contains("check"), "\(result)")
    }
}
