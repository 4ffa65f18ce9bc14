import Foundation
import GRDB
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Strings that look like SQL, NUL bytes, invalid UTF-8 and very long values;
/// and `import` of malformed, wrong-version, dangling and oversized documents.
@Suite struct HostileInputTests {
    static let strings = [
        "'); DROP TABLE tabs; --", "\" OR 1=1 --", "Robert'); DELETE FROM navigation_entries WHERE ('1'='1",
        "a\u{0}b", "\u{0}", "%s%n%x", "\u{202E}evil\u{FEFF}", "🏳️‍🌈 e\u{301}", String(repeating: "ü", count: 600),
    ]

    @Test func hostileTitlesAndURLs_roundTripThroughTheStoreAndExport_orAreRejectedAsDocumented() throws {
        let store = try TemporaryStore.onDisk()
        let browser = try store.browsers.createBrowser().id
        let tab = WebState()
        try store.tabs.insert(tab, in: browser, params: .automatic().activate())
        for text in Self.strings {
            if text.contains("\u{0}") {
                // SQLite would cut the text at the NUL: refused, as NavigationItem.validated() documents.
                #expect(throws: NavigationHistoryError.containsNUL(field: "url")) {
                    try store.histories.commit(NavigationItem(url: "https://x.example/?q=\(text)", title: text), in: tab.id)
                }
                continue
            }
            try store.histories.commit(NavigationItem(url: "https://x.example/?q=\(text)", title: text), in: tab.id)
            let stored = try #require(try store.histories.history(of: tab.id).currentItem)
            #expect(stored.url == "https://x.example/?q=\(text)")
            // Titles are cut to 512 Unicode scalars, at a Character boundary.
            let expectedTitle = text.unicodeScalars.count <= NavigationLimits.maximumTitleLength ? text : nil
            if let expectedTitle { #expect(stored.title == expectedTitle) } else { #expect(stored.title.unicodeScalars.count <= 512) }
        }
        let longest = "https://x.example/" + String(repeating: "a", count: NavigationLimits.maximumURLLength - 18)
        try store.histories.commit(NavigationItem(url: longest, title: "max"), in: tab.id)
        #expect(try store.histories.history(of: tab.id).currentItem?.url == longest)
        #expect(throws: NavigationHistoryError.self) {
            try store.histories.commit(NavigationItem(url: longest + "b", title: "over"), in: tab.id)
        }
        #expect(try SessionStoreFile.check(atPath: store.path!).isEmpty)
        #expect(try PlainSQLite.strings("SELECT count(*) FROM tabs", atPath: store.path!) == ["1"])
        // Export and import back: identical.
        let archive = try store.database.exportArchive()
        let copy = try SessionDatabase.inMemory()
        try copy.importArchive(archive)
        #expect(try copy.exportArchive() == archive)
        // The tables are all there: nothing was spliced into SQL.
        #expect(try PlainSQLite.strings("SELECT count(*) FROM navigation_entries", atPath: store.path!) != ["0"])
    }

    @Test func invalidUTF8PlantedInRows_isReadWithReplacementCharacters_neverCrashes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let tab = WebState()
        do {
            let database = try SessionDatabase.open(atPath: path)
            let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
            try SQLiteWebStateListRepository(database: database).insert(tab, in: browser, params: .automatic().activate())
            try SQLiteNavigationHistoryRepository(database: database).commit(NavigationItem(url: "https://x.example/", title: "t"), in: tab.id)
            try database.close()
        }
        try PlainSQLite.execute(
            "UPDATE navigation_entries SET title = CAST(X'61FF80C0AF62' AS TEXT), url = CAST(X'68747470733A2F2FFF2E6578' AS TEXT)",
            atPath: path)
        let database = try SessionDatabase.open(atPath: path)
        let item = try #require(try SQLiteNavigationHistoryRepository(database: database).history(of: tab.id).currentItem)
        #expect(item.title.hasPrefix("a") && item.title.hasSuffix("b") && item.title.contains("\u{FFFD}"))
        _ = try database.exportArchive()
        try database.close()
        for subcommand in ["ls", "export", "check"] {
            let result = try runTool([subcommand, "--db", path], in: "/")
            #expect([0, 1].contains(result.status), "\(subcommand): \(result)")
        }
    }

    /// `import` of bad documents: exit 65, one line, the store byte-identical.
    static let documents: [(String, String)] = [
        ("malformed", #"{"format":"sessionstore","version":1,"browsers":[{"#),
        ("wrong version", #"{"format":"sessionstore","version":2,"browsers":[],"closed_entries":[]}"#),
        ("wrong format", #"{"format":"chrome","version":1,"browsers":[],"closed_entries":[]}"#),
        ("dangling active tab", #"{"browsers":[{"active_tab":"00000000-0000-4000-8000-000000000001","created_at":"2026-01-01T00:00:00.000Z","groups":[],"id":"00000000-0000-4000-8000-0000000000aa","last_active_at":"2026-01-01T00:00:00.000Z","tabs":[]}],"closed_entries":[],"format":"sessionstore","version":1}"#),
        ("dangling closed entry", #"{"browsers":[{"closed_entry":"00000000-0000-4000-8000-000000000002","created_at":"2026-01-01T00:00:00.000Z","groups":[],"id":"00000000-0000-4000-8000-0000000000ab","last_active_at":"2026-01-01T00:00:00.000Z","tabs":[]}],"closed_entries":[],"format":"sessionstore","version":1}"#),
        ("oversized title", "TITLE"),
        ("oversized URL", "URL"),
    ]

    private func tabJSON(id: String, entries: Int, title: String = "t", url: String = "https://x.example/") -> String {
        let entry = #"{"post":false,"referrer_policy":"default","timestamp":"2026-01-01T00:00:00.000Z","title":"\#(title)","transition":"link","url":"\#(url)","user_agent":"automatic"}"#
        let history = entries == 0 ? #"{"entries":[]}"# : #"{"current_index":0,"entries":["# + Array(repeating: entry, count: entries).joined(separator: ",") + "]}"
        return #"{"created_at":"2026-01-01T00:00:00.000Z","history":\#(history),"id":"\#(id)","last_active_at":"2026-01-01T00:00:00.000Z","pinned":false}"#
    }

    private func document(_ body: String) -> Data {
        switch body {
        case "TITLE", "URL":
            let tab = body == "TITLE"
                ? tabJSON(id: "00000000-0000-4000-8000-000000000003", entries: 1,
                          title: String(repeating: "t", count: NavigationLimits.maximumTitleLength + 1))
                : tabJSON(id: "00000000-0000-4000-8000-000000000003", entries: 1,
                          url: "https://x.example/" + String(repeating: "x", count: NavigationLimits.maximumURLLength))
            return Data(#"{"browsers":[{"created_at":"2026-01-01T00:00:00.000Z","groups":[],"id":"00000000-0000-4000-8000-0000000000ac","last_active_at":"2026-01-01T00:00:00.000Z","tabs":[\#(tab)]}],"closed_entries":[],"format":"sessionstore","version":1}"#.utf8)
        default: return Data(body.utf8)
        }
    }

    @Test(arguments: documents)
    func import_badDocument_exits65_inOneLine_storeByteIdentical(_ name: String, _ body: String) throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            #expect(try runTool(["demo", "--db", path, "--browsers", "1", "--tabs", "2"], in: dir.path).status == 0)
            let before = fingerprint(path)
            try document(body).write(to: URL(fileURLWithPath: dir.file("bad.json")))
            for replace in [false, true] {
                let result = try runTool(["import", dir.file("bad.json"), "--db", path] + (replace ? ["--replace"] : []), in: dir.path)
                #expect(result.status == 65, "\(name): \(result)")
                #expect(result.stderrLines.count == 1 && result.stderr.contains("Invalid document at "), "\(name): \(result)")
                #expect(fingerprint(path) == before, "\(name) changed the store")
            }
        }
    }
}
