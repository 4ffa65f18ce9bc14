import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// `ls`, `show`, `closed`, `restore`, `prune`, `export`, `import` and `demo`, run as the built binary.
@Suite struct InspectionCommandTests {
    let binary = SessionStoreBinary()

    /// A known store: one browser "a | [ 0 b* ] c" with histories, and one closed tab.
    private func knownStore(_ dir: TemporaryDirectory) throws -> (path: String, browser: BrowserID, names: WebStateListNotation) {
        let path = dir.file("known.sqlite")
        let database = try SessionDatabase.open(atPath: path)
        let store = (
            browsers: SQLiteBrowserRepository(database: database),
            tabs: SQLiteWebStateListRepository(database: database),
            histories: SQLiteNavigationHistoryRepository(database: database))
        let (list, names) = try WebStateListNotation.parse(
            "a | [ 0 b* ] c d", groups: ["0": TabGroupVisualData(title: "Work", color: .blue)])
        let browser = try store.browsers.createBrowser().id
        try store.tabs.update(browser) { $0 = list }
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        for (name, pages) in [("a", ["alpha"]), ("b", ["beta", "gamma"]), ("c", ["delta"]), ("d", ["epsilon"])] {
            for page in pages {
                try store.histories.commit(
                    NavigationItem(url: "https://\(page).example/", title: page.capitalized, timestamp: time),
                    in: names.webStateID(name))
            }
        }
        try store.tabs.close(in: browser, at: 3)
        try database.close()
        return (path, browser, names)
    }

    @Test func ls_printsTheTree_andJSON() throws {
        try TemporaryDirectory.with { dir in
            let (path, browser, names) = try knownStore(dir)
            let result = try binary.run(["ls", "--db", path], in: dir.path)
            // Short identifiers: a UUID's first 8 characters, as few identifiers as these share none.
            func short(_ name: String) -> String { String(names.webStateID(name).uuidString.prefix(8)) }
            #expect(result == .init(status: 0, stdout: """
                1 browser, 3 tabs
                browser \(browser.uuidString.prefix(8))  (3 tabs)
                     0  \(short("a"))  pinned            Alpha — https://alpha.example/
                  *  1  \(short("b"))  [Work blue]       Gamma — https://gamma.example/
                     2  \(short("c"))                    Delta — https://delta.example/

                """, stderr: ""))
            let all = try binary.run(["ls", "--all", "--db", path], in: dir.path)
            #expect(all.stdout.contains("recently closed: 1\n"))
            #expect(all.stdout.contains("tab     2")) // kind column, then the closing time
            #expect(all.stdout.hasSuffix("Epsilon — https://epsilon.example/\n"))
            let json = try binary.run(["ls", "--json", "--db", path], in: dir.path)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let tabs = (object?["browsers"] as? [[String: Any]])?.first?["tabs"] as? [[String: Any]]
            #expect(tabs?.map { $0["title"] as? String } == ["Alpha", "Gamma", "Delta"])
            // The export's dialect: `pinned`, the browser's `active_tab` and `groups`, a tab's group by id,
            // and ISO 8601 times.
            let listed = (object?["browsers"] as? [[String: Any]])?.first
            #expect(listed?["active_tab"] as? String == names.webStateID("b").uuidString)
            #expect(tabs?.map { $0["pinned"] as? Bool } == [true, false, false])
            let group = (listed?["groups"] as? [[String: Any]])?.first
            #expect(group?["title"] as? String == "Work" && group?["collapsed"] as? Bool == false)
            #expect(tabs?[1]["group"] as? String == group?["id"] as? String)
            #expect((listed?["last_active_at"] as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil,
                    "\(json.stdout)")
        }
    }

    /// `ls --browser ID` lists that browser alone (beside another one); an unknown one is
    /// a data error naming it, a malformed one a usage error.
    @Test func lsBrowser_listsThatBrowserAlone() throws {
        try TemporaryDirectory.with { dir in
            let (path, browser, _) = try knownStore(dir)
            let whole = try binary.run(["ls", "--db", path], in: dir.path)
            let other = try binary.run(["demo", "--db", path, "--browsers", "1", "--tabs", "2"], in: dir.path)
            #expect(other.status == 0, "\(other)")
            let one = try binary.run(["ls", "--browser", browser.uuidString, "--db", path], in: dir.path)
            #expect(one == whole, "\(one)")
            let unknown = UUID().uuidString.lowercased()
            let missing = try binary.run(["ls", "--browser", unknown, "--db", path], in: dir.path)
            #expect(missing.status == 65 && missing.stderr.contains(unknown) && missing.stdout.isEmpty, "\(missing)")
            let malformed = try binary.run(["ls", "--browser", "nope", "--db", path], in: dir.path)
            #expect(malformed.status == 64, "\(malformed)")
        }
    }

    /// `ls --limit N` prints each browser's first N lines as the whole listing does, then how
    /// many more there are; the active marker stays where the tab is listed.
    @Test(arguments: [0, 2, 3, 10])
    func lsLimit_listsTheFirstTabsAsTheWholeListingDoes_andCountsTheRest(limit: Int) throws {
        try TemporaryDirectory.with { dir in
            let (path, _, _) = try knownStore(dir)
            let whole = try binary.run(["ls", "--db", path], in: dir.path)
            let limited = try binary.run(["ls", "--limit", "\(limit)", "--db", path], in: dir.path)
            #expect(limited.status == 0, "\(limited)")
            var lines = whole.stdout.split(separator: "\n").map(String.init)
            let tabs = lines.count - 2
            if limit < tabs {
                lines = Array(lines.prefix(2 + limit)) + ["  … \(tabs - limit) more tab\(tabs - limit == 1 ? "" : "s")"]
            }
            #expect(limited.stdout == lines.joined(separator: "\n") + "\n", "\(limited)")
            let json = try binary.run(["ls", "--json", "--limit", "\(limit)", "--db", path], in: dir.path)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let listed = (object?["browsers"] as? [[String: Any]])?.first?["tabs"] as? [Any]
            #expect(listed?.count == min(limit, tabs), "\(json)")
            #expect(try binary.run(["ls", "--limit", "-1", "--db", path], in: dir.path).status == 64)
        }
    }

    @Test func show_printsTheHistory_currentMarked() throws {
        try TemporaryDirectory.with { dir in
            let (path, browser, names) = try knownStore(dir)
            let tab = names.webStateID("b")
            let result = try binary.run(["show", tab.uuidString, "--db", path], in: dir.path)
            #expect(result == .init(status: 0, stdout: """
                tab \(tab) in browser \(browser.uuidString.prefix(8)) at index 1 (group "Work", active)
                   0  2027-01-15 08:00:00Z  link          Beta — https://beta.example/
                *  1  2027-01-15 08:00:00Z  link          Gamma — https://gamma.example/

                """, stderr: ""))
            let unknown = try binary.run(["show", UUID().uuidString, "--db", path], in: dir.path)
            #expect(unknown.status == 65)
            let malformed = try binary.run(["show", "not-a-uuid", "--db", path], in: dir.path)
            #expect(malformed.status == 64)
        }
    }

    /// `ls`, `show` and `closed` with `--json` speak the export's dialect: the same
    /// values under the same keys (a tab's `history`, a closed entry's `closed_at`,
    /// a browser's `last_active_at` and `active_tab`), times in ISO 8601.
    @Test func json_saysWhatTheExportSays_inItsWords() throws {
        try TemporaryDirectory.with { dir in
            let (path, _, names) = try knownStore(dir)
            func object(_ arguments: [String]) throws -> Any {
                let result = try binary.run(arguments + ["--db", path], in: dir.path)
                #expect(result.status == 0, "\(result)")
                return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            }
            let export = try #require(try object(["export"]) as? [String: Any])
            let exported = try #require((export["browsers"] as? [[String: Any]])?.first)
            let exportedTab = try #require((exported["tabs"] as? [[String: Any]])?.first {
                $0["id"] as? String == names.webStateID("b").uuidString
            })
            let show = try #require(try object(["show", names.webStateID("b").uuidString, "--json"]) as? [String: Any])
            #expect(show["history"] as? NSDictionary == exportedTab["history"] as? NSDictionary, "\(show)")
            let listed = try #require(((try object(["ls", "--json"]) as? [String: Any])?["browsers"] as? [[String: Any]])?.first)
            for key in ["id", "last_active_at", "active_tab"] {
                #expect(listed[key] as? String == exported[key] as? String, "\(key): \(listed[key] ?? "-")")
            }
            let closed = try #require((try object(["closed", "--json"]) as? [[String: Any]])?.first)
            let exportedClosed = try #require((export["closed_entries"] as? [[String: Any]])?.first)
            for key in ["id", "kind", "closed_at", "browser"] {
                #expect(closed[key] as? String == exportedClosed[key] as? String, "\(key): \(closed[key] ?? "-")")
            }
            #expect((closed["closed_at"] as? String)?.hasSuffix("Z") == true)
        }
    }

    @Test func closedRestoreAndPrune_bringTheTabBack_andCompact() throws {
        try TemporaryDirectory.with { dir in
            let (path, browser, names) = try knownStore(dir)
            let closed = try binary.run(["closed", "--json", "--db", path], in: dir.path)
            let entries = try JSONSerialization.jsonObject(with: Data(closed.stdout.utf8)) as? [[String: Any]]
            let id = try #require(entries?.first?["id"] as? String)
            let restore = try binary.run(["restore", id, "--db", path], in: dir.path)
            #expect(restore == .init(status: 0, stdout: "Restored \(id) into browser \(browser).\n", stderr: ""))
            let back = "*  3  \(names.webStateID("d").uuidString.prefix(8))                    Epsilon"
            #expect(try binary.run(["ls", "--db", path], in: dir.path).stdout.contains(back))
            let again = try binary.run(["restore", id, "--db", path], in: dir.path)
            #expect(again.status == 65)
            let prune = try binary.run(["prune", "--db", path], in: dir.path)
            #expect(prune.status == 0)
            #expect(prune.stdout.hasPrefix("Removed 0 expired closed entries; reclaimed "))
            #expect(try binary.run(["check", "--db", path], in: dir.path).status == 0)
        }
    }

    @Test func export_importIntoEmpty_exportAgain_isByteIdentical() throws {
        try TemporaryDirectory.with { dir in
            let (path, _, _) = try knownStore(dir)
            let first = try binary.run(["export", "--db", path, "--output", dir.file("a.json")], in: dir.path)
            #expect(first == .init(status: 0, stdout: "", stderr: ""))
            let imported = try binary.run(["import", dir.file("a.json"), "--db", dir.file("copy.sqlite")], in: dir.path)
            #expect(imported.stdout == "Imported 1 browser(s), 3 tab(s) and 1 closed entry.\n")
            let second = try binary.run(["export", "--db", dir.file("copy.sqlite")], in: dir.path)
            #expect(second.stdout == String(decoding: try #require(fileBytes(dir.file("a.json"))), as: UTF8.self))
            let third = try binary.run(["export", "--db", path], in: dir.path)
            #expect(third.stdout == second.stdout)
            #expect(try binary.run(["check", "--db", dir.file("copy.sqlite")], in: dir.path).status == 0)
            // --replace swaps the content: importing the same document again works only with it.
            #expect(try binary.run(["import", dir.file("a.json"), "--db", dir.file("copy.sqlite")], in: dir.path).status == 65)
            #expect(try binary.run(["import", "--replace", dir.file("a.json"), "--db", dir.file("copy.sqlite")], in: dir.path).status == 0)
            #expect(try binary.run(["export", "--db", dir.file("copy.sqlite")], in: dir.path).stdout == second.stdout)
        }
    }

    /// Each bad document, the mutation that makes it from a good export, and where the error must point.
    static let badDocuments: [(String, String)] = [
        ("malformed JSON", "line "),
        ("unknown version", "$.version"),
        ("dangling opener", "$.browsers[0].tabs[2].opener.tab"),
        ("dangling group", "$.browsers[0].tabs[2].group"),
        ("duplicate tab id", "$.browsers[0].tabs[1].id"),
        ("current index out of range", "$.browsers[0].tabs[0].history.current_index"),
        ("pinned and grouped", "$.browsers[0].tabs"),
        ("title over the limit", "$.browsers[0].tabs[0].history.entries[0].title"),
        ("URL over the limit", "$.browsers[0].tabs[0].history.entries[0]"),
        ("missing field", "$.browsers[0].tabs[0].created_at"),
    ]

    private func corrupt(_ document: inout [String: Any], _ name: String) -> Data? {
        var browser = (document["browsers"] as! [[String: Any]])[0]
        var tabs = browser["tabs"] as! [[String: Any]]
        switch name {
        case "malformed JSON": return Data("{\"format\": \"sessionstore\",\n \"version\": 1,\n \"browsers\": [ oops".utf8)
        case "unknown version": document["version"] = 99
        case "dangling opener": tabs[2]["opener"] = ["tab": UUID().uuidString.lowercased()]
        case "dangling group": tabs[2]["group"] = UUID().uuidString.lowercased()
        case "duplicate tab id": tabs[1]["id"] = tabs[0]["id"]
        case "current index out of range":
            var history = tabs[0]["history"] as! [String: Any]
            history["current_index"] = 7
            tabs[0]["history"] = history
        case "pinned and grouped": tabs[1]["pinned"] = true
        case "title over the limit", "URL over the limit":
            var history = tabs[0]["history"] as! [String: Any]
            var entries = history["entries"] as! [[String: Any]]
            if name.hasPrefix("title") {
                entries[0]["title"] = String(repeating: "t", count: 513)
            } else {
                entries[0]["url"] = "https://x.example/" + String(repeating: "x", count: NavigationLimits.maximumURLLength)
            }
            history["entries"] = entries
            tabs[0]["history"] = history
        case "missing field": tabs[0]["created_at"] = nil
        default: break
        }
        browser["tabs"] = tabs
        document["browsers"] = [browser]
        return nil
    }

    @Test(arguments: badDocuments)
    func import_badDocument_exits65_saysWhere_andChangesNothing(name: String, location: String) throws {
        try TemporaryDirectory.with { dir in
            let (path, _, _) = try knownStore(dir)
            let export = try binary.run(["export", "--db", path], in: dir.path)
            var document = try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as! [String: Any]
            let target = dir.file("target.sqlite")
            try SessionStoreFile.migrate(atPath: target)
            let before = try #require(fileBytes(target))
            let data = try corrupt(&document, name) ?? JSONSerialization.data(withJSONObject: document)
            try data.write(to: URL(fileURLWithPath: dir.file("bad.json")))
            let result = try binary.run(["import", dir.file("bad.json"), "--db", target], in: dir.path)
            #expect(result.status == 65, "\(name): \(result)")
            #expect(result.stderr.hasPrefix("sessionstore: \(dir.file("bad.json")): Invalid document at \(location)"), "\(name): \(result.stderr)")
            #expect(result.stderr.hasSuffix("the store was not changed.\n"))
            #expect(fileBytes(target) == before, "\(name) changed the store")
        }
    }

    @Test func demo_fillsTheStore_reproducibly_andCheckFindsNothing() throws {
        try TemporaryDirectory.with { dir in
            let first = try binary.run(["demo", "--db", dir.file("one.sqlite"), "--tabs", "9", "--seed", "7"], in: dir.path)
            #expect(first.status == 0, "\(first)")
            #expect(first.stdout.hasPrefix("2 browsers, 17 tabs\n"))  // one tab closed
            #expect(first.stdout.contains("[Research blue]"))
            #expect(first.stderr.isEmpty)  // no progress when stderr is not a terminal
            #expect(try binary.run(["check", "--db", dir.file("one.sqlite")], in: dir.path).status == 0)
            let second = try binary.run(["demo", "--db", dir.file("two.sqlite"), "--tabs", "9", "--seed", "7"], in: dir.path)
            // The tree, before the epilogue's blank line (the closed entry's identifier is new each time).
            func tabLines(_ text: String) -> [String] {
                text.components(separatedBy: "\n\n")[0].split(separator: "\n").filter { !$0.hasPrefix("browser ") }.map(String.init)
            }
            #expect(tabLines(first.stdout) == tabLines(second.stdout))
            let closed = try binary.run(["closed", "--db", dir.file("one.sqlite")], in: dir.path)
            #expect(closed.stdout.hasPrefix("recently closed: 1\n"))
            // The epilogue names the closed tab (restorable by the command it gives), the
            // off-the-record window, and what to try next.
            let epilogue = first.stdout.components(separatedBy: "\n\n").last ?? ""
            let restoreLine = try #require(epilogue.split(separator: "\n").first { $0.hasPrefix("closed: ") })
            let id = try #require(restoreLine.split(separator: "`").dropFirst().first?.split(separator: " ").dropFirst(2).first)
            #expect(epilogue.contains("off the record: a window that visited https://private.example.com/"))
            #expect(epilogue.contains("next: `sessionstore ls --all --db "))
            let restored = try binary.run(["restore", String(id), "--db", dir.file("one.sqlite")], in: dir.path)
            #expect(restored.status == 0, "\(restored)")
            for file in try filesBelow(dir.path) {
                let bytes = try #require(fileBytes(dir.file(file)))
                #expect(bytes.range(of: Data("private.example.com".utf8)) == nil, "\(file) holds off-the-record data")
            }
        }
    }
}
