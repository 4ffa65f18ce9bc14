import Foundation
import SessionTestSupport
import Testing

/// `check`, `export` and `import` agree on stores planted with `sqlite3`: what
/// `check` passes, export writes and import reads back; what export cannot write
/// is named in a `note:` line. Run as the built binary (issue 32).
@Suite struct ExportCheckAgreementTests {
    let binary = SessionStoreBinary()

    private func demo(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.file("s.sqlite")
        let made = try binary.run(["demo", "--db", path, "--browsers", "2", "--tabs", "4", "--seed", "3"], in: dir.path)
        #expect(made.status == 0, "\(made)")
        return path
    }

    /// Runs SQL on the store with the `sqlite3` shell (foreign keys off, as it opens).
    private func sqlite(_ path: String, _ sql: String, in dir: TemporaryDirectory) throws -> String {
        let result = try runTool(["sqlite3", path, sql], in: dir.path, binary: "/usr/bin/env")
        #expect(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Exports the store to `name`, imports that into a new store, and returns both exports.
    private func roundTrip(
        _ path: String, through name: String, in dir: TemporaryDirectory
    ) throws -> (export: RunResult, imported: RunResult, again: String) {
        let export = try binary.run(["export", "--db", path, "--output", dir.file(name)], in: dir.path)
        let copy = dir.file("copy-\(name).sqlite")
        let imported = try binary.run(["import", dir.file(name), "--db", copy], in: dir.path)
        let again = try binary.run(["export", "--db", copy], in: dir.path).stdout
        return (export, imported, again)
    }

    /// `check` passes the store; its export, with no note, is imported whole by the
    /// reader of a whole document and by the streaming one, and exports the same again.
    private func expectCheckExportAndImportAgree(_ path: String, in dir: TemporaryDirectory) throws {
        let check = try binary.run(["check", "--db", path], in: dir.path)
        #expect(check.status == 0, "\(check)")
        let original = try binary.run(["export", "--db", path], in: dir.path).stdout
        let (export, imported, again) = try roundTrip(path, through: "export.json", in: dir)
        #expect(export.status == 0 && export.stderr.isEmpty, "\(export)")
        #expect(imported.status == 0, "\(imported)")
        #expect(again == original)
        for (name, limit) in [("whole", Int.max), ("streamed", 0)] {
            let result = try binary.run(
                ["import", dir.file("export.json"), "--db", dir.file("\(name).sqlite")], in: dir.path,
                environment: ["SESSIONSTORE_TEST_STREAM_IMPORT_ABOVE": String(limit)])
            #expect(result.status == 0, "\(name): \(result)")
        }
    }

    /// A history of 80 entries (an app may keep more than 75) passes `check`; its
    /// export is imported whole, where import refused it as over the limit of 75.
    @Test func anEightyEntryHistory_passesCheck_andItsExportImportsWhole() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let tab = try sqlite(path, "SELECT id FROM tabs WHERE browser_id IS NOT NULL ORDER BY rowid LIMIT 1", in: dir)
            _ = try sqlite(path, """
                DELETE FROM navigation_entries WHERE tab_id = '\(tab)';
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 79)
                INSERT INTO navigation_entries (tab_id, sequence, url, title, timestamp)
                SELECT '\(tab)', (SELECT history_start FROM tabs WHERE id = '\(tab)') + i,
                       'https://example.com/page/' || i, 'Page ' || i, '2026-11-01 10:00:00.000' FROM n;
                UPDATE tabs SET current_entry_index = 79 WHERE id = '\(tab)';
                """, in: dir)
            let exported = try binary.run(["export", "--db", path], in: dir.path).stdout
            #expect(exported.components(separatedBy: "https://example.com/page/").count == 81)
            try expectCheckExportAndImportAgree(path, in: dir)
        }
    }

    /// An engine state of 6 MiB (an app may keep more than 5 MiB) passes `check`;
    /// its export is imported whole, where import refused it as over the limit.
    @Test func aSixMiBEngineState_passesCheck_andItsExportImportsWhole() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            _ = try sqlite(path, """
                INSERT OR REPLACE INTO tab_engine_states (tab_id, data, updated_at)
                SELECT id, randomblob(6 * 1024 * 1024), '2026-11-01 10:00:00.000' FROM tabs
                WHERE browser_id IS NOT NULL ORDER BY rowid LIMIT 1;
                """, in: dir)
            #expect(try sqlite(path, "SELECT max(length(data)) FROM tab_engine_states", in: dir) == "6291456")
            try expectCheckExportAndImportAgree(path, in: dir)
        }
    }

    /// A tab whose window's row is missing (written with foreign keys off) fails
    /// `check`; export writes the rest and names the tab in a note pointing to `recover`.
    @Test func aTabOfAMissingWindow_isNamedInANote_theRestExports() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let orphan = "00000000-0000-4000-8000-0000000000f1"
            let missing = "00000000-0000-4000-8000-0000000000b1"
            _ = try sqlite(path, """
                INSERT INTO tabs (id, browser_id, sort_key, created_at, last_active_at)
                VALUES ('\(orphan)', '\(missing)', 0, '2026-11-01 10:00:00.000', '2026-11-01 10:00:00.000');
                """, in: dir)
            let check = try binary.run(["check", "--db", path], in: dir.path)
            #expect(check.status == 1 && check.stdout.contains("foreign_key"), "\(check)")

            let (export, imported, again) = try roundTrip(path, through: "orphan.json", in: dir)
            #expect(export.status == 0, "\(export)")
            #expect(export.stderrLines.count == 1, "\(export)")
            #expect(export.stderr.contains("note:") && export.stderr.contains(orphan)
                    && export.stderr.contains(missing) && export.stderr.contains("recover"), "\(export)")
            #expect(imported.status == 0, "\(imported)")
            #expect(!again.contains(orphan) && again.contains("\"browsers\""))
        }
    }

    /// A pinned tab after unpinned ones breaks a rule: `check` names it, `ls` shows
    /// the list repaired; export writes it repaired too, with the same note, and
    /// import reads it back, where export refused the store as corrupt.
    @Test func aListLsShowsRepaired_exportsRepaired_withANote() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let last = try sqlite(path, """
                SELECT id FROM tabs WHERE browser_id IS NOT NULL AND group_id IS NULL AND is_pinned = 0
                ORDER BY browser_id, sort_key DESC LIMIT 1
                """, in: dir)
            _ = try sqlite(path, "UPDATE tabs SET is_pinned = 1 WHERE id = '\(last)'", in: dir)
            let check = try binary.run(["check", "--db", path], in: dir.path)
            #expect(check.status == 1 && check.stdout.contains("tab_list"), "\(check)")
            let ls = try binary.run(["ls", "--db", path], in: dir.path)
            #expect(ls.status == 0 && ls.stderr.contains("tabUnpinned"), "\(ls)")

            let (export, imported, again) = try roundTrip(path, through: "repaired.json", in: dir)
            #expect(export.status == 0, "\(export)")
            #expect(export.stderr.contains("note:") && export.stderr.contains("tabUnpinned")
                    && export.stderr.contains(last), "\(export)")
            #expect(imported.status == 0, "\(imported)")
            #expect(again.contains(last))
            let recheck = try binary.run(["check", "--db", dir.file("copy-repaired.json.sqlite")], in: dir.path)
            #expect(recheck.status == 0, "\(recheck)")
        }
    }

    /// A recently closed entry no document can hold fails `check`; export refuses the
    /// store before writing anything, naming the entry and `recover`, where it wrote a
    /// document that import refused (or dropped the closed tab without a word).
    @Test(arguments: [
        ("DELETE FROM tabs WHERE closed_entry_id IS NOT NULL", "a closed tab entry must hold one tab; it holds 0"),
        ("DELETE FROM closed_entries WHERE kind = 'tab'", "its closed entry"),
    ])
    func aClosedEntryNoDocumentCanHold_isRefusedWithAPointerToRecover(damage: String, expected: String) throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            _ = try sqlite(path, damage, in: dir)
            let check = try binary.run(["check", "--db", path], in: dir.path)
            #expect(check.status == 1, "\(check)")

            let export = try binary.run(["export", "--db", path], in: dir.path)
            #expect(export.status == 65 && export.stdout.isEmpty, "\(export)")
            #expect(export.stderrLines.count == 1, "\(export)")
            #expect(export.stderr.contains(expected) && export.stderr.contains("sessionstore recover --db"), "\(export)")
            let toFile = try binary.run(["export", "--db", path, "--output", dir.file("e.json")], in: dir.path)
            #expect(toFile.status == 65, "\(toFile)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("e.json")))
        }
    }
}
