import Foundation
import GRDB
import SessionModel
import SessionTestSupport
import Testing

@testable import SessionStorage

/// Saved tab groups (issue 38, migration 0010): closed and kept with their tabs and histories,
/// listed, renamed, deleted and reopened; never a window, never a recently closed entry.
@Suite struct SavedTabGroupTests {
    private func seeded(_ text: String, groups: [String: TabGroupVisualData] = [:]) throws
        -> (TemporaryStore, BrowserID, WebStateListNotation)
    {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed(text, groups: groups)
        for webState in try store.tabs.webStateList(in: browser).webStates {
            let name = names.name(of: webState.id) ?? "_"
            try store.histories.commit(NavigationItem(url: "https://example.org/\(name)", title: "Page \(name)"), in: webState.id)
        }
        return (store, browser, names)
    }

    @Test func saveAndClose_keepsTheGroupWithItsTabs_andNoRecentlyClosedEntry() throws {
        let look = TabGroupVisualData(title: "Trip", color: .cyan)
        let (store, browser, names) = try seeded("| a* [ 0 b c ] d", groups: ["0": look])
        let saved = SQLiteSavedTabGroupRepository(database: store.database)
        let group = try saved.saveAndClose(names.groupID("0"), in: browser)
        #expect(try store.format(browser, names) == "| a* d")
        #expect(group.id == names.groupID("0") && group.visualData == look && group.sourceBrowser == browser)
        #expect(group.tabs.map(\.title) == ["Page b", "Page c"])
        #expect(try saved.savedGroups() == [group])
        #expect(try SQLiteRecentlyClosedRepository(database: store.database).entries().isEmpty)
        #expect(try store.browsers.browsers().map(\.id) == [browser])
        try store.reopen()
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
    }

    @Test func renameDeleteAndReopen() throws {
        let (store, browser, names) = try seeded("| a* [ 0 b c ] [ 1 d ]")
        let saved = SQLiteSavedTabGroupRepository(database: store.database)
        try saved.saveAndClose(names.groupID("0"), in: browser)
        try saved.saveAndClose(names.groupID("1"), in: browser)
        let renamed = TabGroupVisualData(title: "Later", color: .orange)
        try saved.update(names.groupID("0"), visualData: renamed)
        try saved.delete(names.groupID("1"))
        #expect(try saved.savedGroups().map(\.id) == [names.groupID("0")])
        #expect(try store.database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM tabs WHERE id = ?", arguments: [names.webStateID("d").uuidString])
        } == 0)

        let other = try store.browsers.createBrowser().id
        let range = try saved.reopen(names.groupID("0"), in: other)
        let list = try store.tabs.webStateList(in: other)
        #expect(range == 0..<2)
        #expect(names.format(list) == "| [ 0 b c ]")
        #expect(list.groups[names.groupID("0")]?.visualData == renamed)
        #expect(try saved.savedGroups().isEmpty)
        #expect(try store.histories.history(of: names.webStateID("c")).items.map(\.title) == ["Page c"])
        #expect(throws: WebStateListError.unknownGroup(names.groupID("0"))) {
            try saved.reopen(names.groupID("0"), in: other)
        }
        try store.reopen()
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
    }
}
