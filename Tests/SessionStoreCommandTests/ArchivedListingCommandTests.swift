import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// `ls --archived` (issue 38): archived tabs, one line each, and in JSON; `ls` itself never
/// shows the archive as a window. Run with the built binary.
@Suite struct ArchivedListingCommandTests {
    let binary = SessionStoreBinary()

    @Test func lsArchived_listsArchivedTabs_andLsShowsNoArchiveWindow() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let (initial, names) = try WebStateListNotation.parse("| a b* c")
            do {
                let database = try SessionDatabase.open(atPath: path)
                let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
                try SQLiteWebStateListRepository(database: database).update(browser) { $0 = initial }
                try SQLiteNavigationHistoryRepository(database: database).commit(
                    NavigationItem(url: "https://example.org/c", title: "Sea"), in: names.webStateID("c"))
                let result = try SQLiteTabArchiveRepository(database: database).archive(
                    olderThan: Date(), in: nil, exempting: ArchiveExemptions())
                #expect(result.archived == 2)
                try database.close()
            }
            let ls = try binary.run(["ls", "--db", path], in: dir.path)
            #expect(ls.status == 0 && ls.stdout.hasPrefix("1 browser, 1 tab\n"), "\(ls)")
            let archived = try binary.run(["ls", "--archived", "--db", path], in: dir.path)
            #expect(archived.status == 0, "\(archived)")
            let lines = archived.stdout.split(separator: "\n")
            #expect(lines.first == "2 archived tabs")
            #expect(lines.last?.hasSuffix("Sea — https://example.org/c") == true, "\(archived.stdout)")
            let json = try binary.run(["ls", "--archived", "--json", "--db", path], in: dir.path)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let tabs = object?["archived_tabs"] as? [[String: Any]] ?? []
            #expect(tabs.map { $0["former_index"] as? Int } == [0, 2], "\(json.stdout)")
            #expect(try binary.run(["check", "--db", path], in: dir.path).status == 0)
        }
    }

    @Test func lsSavedGroups_listsGroupsWithTheirTabs() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let (initial, names) = try WebStateListNotation.parse(
                "| a* [ 0 b c ]", groups: ["0": TabGroupVisualData(title: "Trip", color: .cyan)])
            do {
                let database = try SessionDatabase.open(atPath: path)
                let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
                try SQLiteWebStateListRepository(database: database).update(browser) { $0 = initial }
                try SQLiteSavedTabGroupRepository(database: database).saveAndClose(names.groupID("0"), in: browser)
                try database.close()
            }
            let text = try binary.run(["ls", "--saved-groups", "--db", path], in: dir.path)
            let lines = text.stdout.split(separator: "\n")
            #expect(lines.first == "1 saved group", "\(text)")
            #expect(lines.dropFirst().first?.contains("[Trip cyan]") == true && lines.count == 4, "\(text.stdout)")
            let json = try binary.run(["ls", "--saved-groups", "--json", "--db", path], in: dir.path)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let groups = object?["saved_groups"] as? [[String: Any]] ?? []
            #expect(groups.first?["title"] as? String == "Trip")
            #expect((groups.first?["tabs"] as? [[String: Any]])?.count == 2)
            let both = try binary.run(["ls", "--saved-groups", "--archived", "--db", path], in: dir.path)
            #expect(both.status == 64, "\(both)")
            #expect(try binary.run(["ls", "--db", path], in: dir.path).stdout.hasPrefix("1 browser, 1 tab\n"))
        }
    }
}
