import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// `ls` shows split views (issue 38): `{` and `}` on a split's two tabs, and in JSON a
/// `split` on each tab and the browser's `splits`; run with the built binary.
@Suite struct SplitListingCommandTests {
    let binary = SessionStoreBinary()

    @Test func ls_marksSplitTabs_inTextAndJSON() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let (initial, names) = try WebStateListNotation.parse("| a b* c")
            do {
                let database = try SessionDatabase.open(atPath: path)
                let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
                try SQLiteWebStateListRepository(database: database).update(browser) { list in
                    list = initial
                    _ = try list.createSplit(
                        at: [1, 2], visualData: TabSplitVisualData(ratio: 0.25, layout: .horizontal),
                        id: names.splitID("0"))
                }
                try database.close()
            }
            let text = try binary.run(["ls", "--db", path], in: dir.path)
            #expect(text.status == 0, "\(text)")
            let marks = text.stdout.split(separator: "\n").dropFirst(2).map { line in
                line.split(separator: " ").dropFirst(line.hasPrefix("  *") ? 3 : 2).first.map(String.init) ?? ""
            }
            #expect(marks == ["(no", "{", "}"], "\(text.stdout)")

            let json = try binary.run(["ls", "--json", "--db", path], in: dir.path)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let browser = (object?["browsers"] as? [[String: Any]])?.first
            let splits = browser?["splits"] as? [[String: Any]]
            #expect(splits?.count == 1)
            #expect(splits?.first?["id"] as? String == names.splitID("0").uuidString)
            #expect(splits?.first?["ratio"] as? Double == 0.25)
            #expect(splits?.first?["layout"] as? String == "horizontal")
            let tabs = browser?["tabs"] as? [[String: Any]] ?? []
            #expect(tabs.map { $0["split"] as? String } == [nil, names.splitID("0").uuidString, names.splitID("0").uuidString])
        }
    }
}
