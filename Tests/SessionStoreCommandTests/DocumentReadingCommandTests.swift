import Foundation
import SessionTestSupport
import Testing

/// How `import` reads documents written by other programs, and the one order of
/// windows that `ls` and every `export` format share, run as the built binary (issue 32).
@Suite struct DocumentReadingCommandTests {
    let binary = SessionStoreBinary()

    private func demo(_ dir: TemporaryDirectory, browsers: Int = 2) throws -> String {
        let path = dir.file("s.sqlite")
        let made = try binary.run(
            ["demo", "--db", path, "--browsers", String(browsers), "--tabs", "4", "--seed", "3"], in: dir.path)
        #expect(made.status == 0, "\(made)")
        return path
    }

    /// The store's content as `export` writes it: equal for equal content.
    private func export(_ path: String, in dir: TemporaryDirectory) throws -> String {
        let result = try binary.run(["export", "--db", path], in: dir.path)
        #expect(result.status == 0, "\(result)")
        return result.stdout
    }

    /// Python's `json.dumps` writes `{"format": "sessionstore-lines", "version": 1}`,
    /// with spaces after ':' and ','; every line so written is read back.
    @Test func jsonLinesWrittenByPython_withSpaces_areImported() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let lines = try binary.run(["export", "--format", "jsonl", "--db", path], in: dir.path)
            #expect(lines.status == 0, "\(lines)")
            let spaced = try runTool(
                ["python3", "-c", "import json, sys\nfor line in sys.stdin: print(json.dumps(json.loads(line)))"],
                in: dir.path, binary: "/usr/bin/env", stdin: Data(lines.stdout.utf8))
            #expect(spaced.status == 0 && spaced.stdout.hasPrefix(#"{"format": "sessionstore-lines", "version": 1}"#), "\(spaced)")
            try Data(spaced.stdout.utf8).write(to: URL(fileURLWithPath: dir.file("spaced.jsonl")))

            let copy = dir.file("copy.sqlite")
            let imported = try binary.run(["import", dir.file("spaced.jsonl"), "--db", copy], in: dir.path)
            #expect(imported.status == 0, "\(imported)")
            #expect(try export(copy, in: dir) == export(path, in: dir))
        }
    }

    /// A key twice in one object is refused, naming the key, its path and where it is,
    /// in a document read whole, one read a part at a time, and JSON Lines; nothing changes.
    @Test func aKeyTwiceInAnObject_isRefusedWithItsPlace_storeUnchanged() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let before = try export(path, in: dir)
            let lines = try binary.run(["export", "--format", "jsonl", "--db", path], in: dir.path).stdout
            // The second line is the first browser's; the third its first tab's.
            // The first tab's "pinned" key, twice: on the third line, and in the document.
            var lineList = lines.components(separatedBy: "\n")
            lineList[2] = twice("\"pinned\":", in: lineList[2], first: "false,")
            try Data(lineList.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: dir.file("twice.jsonl")))
            try Data(twice("\"pinned\" : ", in: before, first: "false, ").utf8).write(to: URL(fileURLWithPath: dir.file("twice.json")))

            let cases: [(file: String, environment: [String: String], place: String)] = [
                ("twice.json", [:], "line "),
                ("twice.json", ["SESSIONSTORE_TEST_STREAM_IMPORT_ABOVE": "0"], "byte "),
                ("twice.jsonl", [:], "line 3, byte "),
            ]
            for (file, environment, place) in cases {
                // Into a new store, and over the demo's: neither is changed (nor the new one made).
                for arguments in [["--db", dir.file("new.sqlite")], ["--db", path, "--replace"]] {
                    let result = try binary.run(
                        ["import", dir.file(file)] + arguments, in: dir.path, environment: environment)
                    #expect(result.status == 65, "\(file): \(result)")
                    #expect(result.stderrLines.count == 1, "\(file): \(result)")
                    #expect(result.stderr.contains("Invalid document at \(place)"), "\(file): \(result)")
                    #expect(result.stderr.contains(#"the key "pinned" appears twice"#), "\(file): \(result)")
                    #expect(result.stderr.contains("tabs[0].pinned") || result.stderr.contains("$.tab.pinned"), "\(file): \(result)")
                }
            }
            #expect(try export(path, in: dir) == before)
            #expect(!FileManager.default.fileExists(atPath: dir.file("new.sqlite")))
        }
    }

    /// `text` with its first `key` written twice, the first time with the value `value`.
    private func twice(_ key: String, in text: String, first value: String) -> String {
        guard let range = text.range(of: key) else { return text }
        return text.replacingCharacters(in: range, with: key + value + key)
    }

    /// `ls`, `export` (JSON) and `export --format urls` list windows in one order:
    /// most recently active first, whatever the order they were made in.
    @Test func lsAndEveryExport_listWindowsMostRecentlyActiveFirst() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir, browsers: 3)
            // The window made first becomes the most recently active one.
            let planted = try runTool(
                ["sqlite3", path, """
                    UPDATE browsers SET last_active_at = '2099-01-01 00:00:00.000'
                    WHERE id = (SELECT id FROM browsers WHERE closed_entry_id IS NULL ORDER BY created_at, id LIMIT 1);
                    """],
                in: dir.path, binary: "/usr/bin/env")
            #expect(planted.status == 0, "\(planted)")
            let firstMade = try runTool(
                ["sqlite3", path, "SELECT id FROM browsers WHERE closed_entry_id IS NULL ORDER BY created_at, id LIMIT 1"],
                in: dir.path, binary: "/usr/bin/env").stdout.trimmingCharacters(in: .whitespacesAndNewlines)

            let ls = try binary.run(["ls", "--json", "--db", path], in: dir.path)
            #expect(ls.status == 0, "\(ls)")
            let listed = try JSONSerialization.jsonObject(with: Data(ls.stdout.utf8)) as? [String: Any]
            let lsBrowsers = listed?["browsers"] as? [[String: Any]] ?? []
            let lsOrder = lsBrowsers.compactMap { $0["id"] as? String }
            #expect(lsOrder.count == 3 && lsOrder.first == firstMade, "\(lsOrder) \(firstMade)")

            let document = try JSONSerialization.jsonObject(with: Data(try export(path, in: dir).utf8)) as? [String: Any]
            let exported = (document?["browsers"] as? [[String: Any]] ?? []).filter { $0["closed_entry"] == nil }
            #expect(exported.compactMap { $0["id"] as? String } == lsOrder)

            let urls = try binary.run(["export", "--format", "urls", "--db", path], in: dir.path)
            #expect(urls.status == 0, "\(urls)")
            let blocks = urls.stdout.dropLast().components(separatedBy: "\n\n").map { block in
                block.split(separator: "\n").map { String($0.split(separator: "\t", omittingEmptySubsequences: false).last ?? "") }
            }
            let lsURLs = lsBrowsers.map { ($0["tabs"] as? [[String: Any]] ?? []).map { $0["url"] as? String ?? "about:blank" } }
            #expect(blocks == lsURLs)
        }
    }
}
