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
}
