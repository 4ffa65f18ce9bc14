import Foundation
import SessionTestSupport
import Testing

/// `export --format urls|html` and `search`, run as the built binary on the demo session.
@Suite struct ExportFormatAndSearchCommandTests {
    let binary = SessionStoreBinary()

    /// The demo store's open tabs, per browser, as `export` (JSON) gives them: (title, url).
    private func openTabs(_ path: String, in dir: TemporaryDirectory) throws -> [[(String, String)]] {
        let export = try binary.run(["export", "--db", path], in: dir.path)
        let object = try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any]
        let browsers = (object?["browsers"] as? [[String: Any]] ?? []).filter { $0["closed_entry"] == nil }
        return browsers.map { browser in
            (browser["tabs"] as? [[String: Any]] ?? []).map { tab in
                let history = tab["history"] as? [String: Any]
                let entries = history?["entries"] as? [[String: Any]] ?? []
                guard let index = history?["current_index"] as? Int else { return ("", "about:blank") }
                return (entries[index]["title"] as? String ?? "", entries[index]["url"] as? String ?? "")
            }
        }
    }

    private func demo(_ dir: TemporaryDirectory) throws -> String {
        let path = dir.file("demo.sqlite")
        let made = try binary.run(["demo", "--db", path, "--browsers", "3", "--tabs", "12"], in: dir.path)
        #expect(made.status == 0, "\(made)")
        return path
    }

    @Test func exportURLs_isOneLinePerOpenTab_browsersSeparatedByABlankLine() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let expected = try openTabs(path, in: dir)
            let result = try binary.run(["export", "--format", "urls", "--db", path], in: dir.path)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            let blocks = result.stdout.dropLast().components(separatedBy: "\n\n")
            #expect(blocks.count == expected.count)
            for (block, tabs) in zip(blocks, expected) {
                let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                    return (String(fields.first ?? ""), String(fields.dropFirst().first ?? ""))
                }
                #expect(lines.map(\.0) == tabs.map(\.0))
                #expect(lines.map(\.1) == tabs.map(\.1))
            }
        }
    }

    /// Python's `html.parser` (a standard parser, as browsers' importers are) reads the
    /// bookmarks file and finds every open tab, in order, under a folder per window.
    @Test func exportHTML_isABookmarkFileAStandardParserReads_findingEveryTab() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let expected = try openTabs(path, in: dir)
            let output = dir.file("tabs.html")
            let result = try binary.run(["export", "--format", "html", "--db", path, "--output", output], in: dir.path)
            #expect(result.status == 0, "\(result)")
            let script = """
                import html.parser, json, sys
                class Reader(html.parser.HTMLParser):
                    def __init__(self):
                        super().__init__(); self.links = []; self.folders = []; self.inside = None; self.text = ""
                    def handle_starttag(self, tag, attrs):
                        if tag in ("a", "h3"): self.inside = (tag, dict(attrs)); self.text = ""
                    def handle_data(self, data):
                        if self.inside: self.text += data
                    def handle_endtag(self, tag):
                        if self.inside and tag == self.inside[0]:
                            if tag == "a": self.links.append([self.text, self.inside[1]["href"]])
                            else: self.folders.append(self.text)
                            self.inside = None
                reader = Reader(); reader.feed(open(sys.argv[1], encoding="utf-8").read())
                print(json.dumps({"links": reader.links, "folders": reader.folders}))
                """
            let parsed = try runTool(["-c", script, output], in: dir.path, binary: "/usr/bin/python3")
            #expect(parsed.status == 0, "\(parsed)")
            let object = try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any]
            let links = (object?["links"] as? [[String]] ?? []).map { ($0[0], $0[1]) }
            let all = expected.flatMap { $0 }
            #expect(links.map(\.1) == all.map(\.1))
            #expect(links.map(\.0) == all.map { $0.0.isEmpty ? $0.1 : $0.0 })
            let folders = object?["folders"] as? [String] ?? []
            #expect(folders.filter { $0.hasPrefix("Window ") }.count == expected.count)
            #expect(folders.contains("Research"))  // the demo's tab group
        }
    }

    @Test func search_findsATabByAWordOfItsTitle_closedOnlyWhenAsked_exitsOneOnNoMatch() throws {
        try TemporaryDirectory.with { dir in
            let path = try demo(dir)
            let expected = try openTabs(path, in: dir)
            let title = try #require(expected.first?.first?.0)
            let word = String(try #require(title.split(separator: " ").first)).lowercased()
            let found = try binary.run(["search", word, "--db", path], in: dir.path)
            #expect(found.status == 0, "\(found)")
            #expect(found.stdout.split(separator: "\n").allSatisfy { $0.lowercased().contains(word) })
            #expect(found.stdout.contains("\t\(title)\t\(expected[0][0].1)\n"))
            let json = try binary.run(["search", word, "--json", "--db", path], in: dir.path)
            let matches = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            #expect(matches?.contains { $0["index"] as? Int == 0 && $0["title"] as? String == title } == true)

            let none = try binary.run(["search", "qqqzzznothing", "--db", path], in: dir.path)
            #expect(none == .init(status: 1, stdout: "", stderr: ""))
            let usage = try binary.run(["search", "--db", path, "--", "---"], in: dir.path)
            #expect(usage.status == 64 && usage.stderr.contains("the query has no word"), "\(usage)")
            // The demo's closed tab: found with --closed only.
            let closed = try binary.run(["closed", "--json", "--db", path], in: dir.path)
            let entries = try JSONSerialization.jsonObject(with: Data(closed.stdout.utf8)) as? [[String: Any]]
            let closedTitle = try #require(((entries?.first?["tabs"] as? [[String: Any]])?.first?["title"] as? String))
            let closedWord = String(try #require(closedTitle.split(separator: " ").first))
            let withClosed = try binary.run(["search", closedWord, "--closed", "--db", path], in: dir.path)
            #expect(withClosed.stdout.contains("closed:"), "\(withClosed)")
        }
    }
}
