import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// `sessionstore saved-groups` (issue 39): lists, renames, deletes and reopens saved groups; a
/// bad argument changes nothing. Run with the built binary.
@Suite struct SavedGroupsCommandTests {
    let binary = SessionStoreBinary()

    /// A store with two saved groups, `Trip` (2 tabs) and `Work` (1 tab); returns their ids.
    private func store(at path: String) throws -> (trip: TabGroupID, work: TabGroupID) {
        let (initial, names) = try WebStateListNotation.parse(
            "| a* [ 0 b c ] [ 1 d ]",
            groups: ["0": TabGroupVisualData(title: "Trip", color: .cyan), "1": TabGroupVisualData(title: "Work", color: .red)])
        let database = try SessionDatabase.open(atPath: path)
        let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
        try SQLiteWebStateListRepository(database: database).update(browser) { $0 = initial }
        let histories = SQLiteNavigationHistoryRepository(database: database)
        try histories.commit(NavigationItem(url: "https://trip.example/b", title: "Bee"), in: names.webStateID("b"))
        try histories.commit(NavigationItem(url: "https://trip.example/c", title: "Sea"), in: names.webStateID("c"))
        let saved = SQLiteSavedTabGroupRepository(database: database)
        try saved.saveAndClose(names.groupID("0"), in: browser)
        try saved.saveAndClose(names.groupID("1"), in: browser)
        try database.close()
        return (names.groupID("0"), names.groupID("1"))
    }

    @Test func listRenameDeleteReopen() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let (trip, work) = try store(at: path)
            // The notation's ids share their first digits: the whole id names one.
            let short = String(trip.uuidString.prefix(8))

            let list = try binary.run(["saved-groups", "--db", path], in: dir.path)
            #expect(list.status == 0 && list.stdout.hasPrefix("2 saved groups\n"), "\(list)")
            #expect(list.stdout.contains("[Trip cyan]") && list.stdout.contains("Sea — https://trip.example/c"))
            let json = try binary.run(["saved-groups", "list", "--json", "--db", path], in: dir.path)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            #expect((object?["saved_groups"] as? [[String: Any]])?.count == 2)

            let rename = try binary.run(["saved-groups", "rename", trip.uuidString, "Lisbon", "--color", "green", "--db", path], in: dir.path)
            #expect(rename.status == 0 && rename.stdout == "Saved group \(short) is now [Lisbon green].\n", "\(rename)")
            #expect(try binary.run(["saved-groups", "--db", path], in: dir.path).stdout.contains("[Lisbon green]"))

            let delete = try binary.run(["saved-groups", "delete", work.uuidString.uppercased(), "--db", path], in: dir.path)
            #expect(delete.status == 0 && delete.stdout.hasPrefix("Deleted saved group"), "\(delete)")

            let reopen = try binary.run(["saved-groups", "reopen", trip.uuidString, "--db", path], in: dir.path)
            #expect(reopen.status == 0 && reopen.stdout.contains(": 2 tabs at 0..<2 of browser "), "\(reopen)")
            #expect(try binary.run(["saved-groups", "--db", path], in: dir.path).stdout == "0 saved groups\n")
            let ls = try binary.run(["ls", "--db", path], in: dir.path)
            #expect(ls.stdout.hasPrefix("2 browsers, 3 tabs\n") && ls.stdout.contains("Lisbon"), "\(ls.stdout)")
            #expect(try binary.run(["check", "--db", path], in: dir.path).status == 0)
        }
    }

    @Test func badArguments_changeNothing() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let (trip, _) = try store(at: path)
            let before = try binary.run(["saved-groups", "--json", "--db", path], in: dir.path).stdout
            let cases: [([String], Int32)] = [
                (["saved-groups", "rename", "zzzz", "T"], 64),
                (["saved-groups", "rename", "0000", "T"], 64),  // two groups begin with it
                (["saved-groups", "rename", "ffff", "T"], 65),
                (["saved-groups", "rename", trip.uuidString, "T", "--color", "mauve"], 64),
                (["saved-groups", "delete", "abc"], 64),
                (["saved-groups", "reopen", trip.uuidString, "--browser", "ffff"], 65),
            ]
            for (arguments, status) in cases {
                let result = try binary.run(arguments + ["--db", path], in: dir.path)
                #expect(result.status == status, "\(arguments): \(result)")
                #expect(!result.stderr.isEmpty)
            }
            #expect(try binary.run(["saved-groups", "--json", "--db", path], in: dir.path).stdout == before)
        }
    }
}
