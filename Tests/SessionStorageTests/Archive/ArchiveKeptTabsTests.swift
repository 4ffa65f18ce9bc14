import Foundation
import GRDB
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Archived tabs and saved groups in the export format: `archived_tabs` and
/// `saved_groups`, written only when present and never as windows, read back by every
/// reader into the archive's and each saved group's rows, and each broken rule refused
/// at its place with the store left as it was.
@Suite struct ArchiveKeptTabsTests {
    // MARK: - Stores and documents

    /// A store with a window, archived tabs (with a former opener and a former group), two
    /// saved groups (one renamed and collapsed), an engine state on an archived tab and on a
    /// saved group's tab, a second window and a closed window.
    private static func storeWithKeptTabs() throws -> (store: TemporaryStore, window: BrowserID, names: WebStateListNotation) {
        let store = try TemporaryStore.onDisk()
        let (window, names) = try store.seed(
            "p | a b* [ 0 c d ] [ 1 e f ] [ 2 k ] g h", openers: ["h": "a"],
            groups: ["0": TabGroupVisualData(title: "Trip", color: .cyan), "1": TabGroupVisualData(title: "Kept", color: .purple),
                     "2": TabGroupVisualData(title: "", color: .grey)])
        for webState in try store.tabs.webStateList(in: window).webStates {
            let name = names.name(of: webState.id) ?? "_"
            try store.histories.commit(NavigationItem(url: "https://example.org/\(name)", title: "Page \(name)"), in: webState.id)
            try store.histories.commit(NavigationItem(url: "https://example.org/\(name)/2", title: "Next \(name)"), in: webState.id)
        }
        _ = try store.histories.setEngineState(Data([1, 2, 3]), for: names.webStateID("e"))
        _ = try store.histories.setEngineState(Data([4, 5]), for: names.webStateID("g"))
        let saved = SQLiteSavedTabGroupRepository(database: store.database)
        try saved.saveAndClose(names.groupID("1"), in: window)
        try saved.saveAndClose(names.groupID("2"), in: window)
        try saved.update(names.groupID("2"), visualData: TabGroupVisualData(title: "Later", color: .orange, isCollapsed: true))
        try SQLiteTabArchiveRepository(database: store.database)
            .archive(olderThan: Date(), in: window, exempting: ArchiveExemptions(grouped: false))
        #expect(try store.format(window, names) == "p | b*")
        _ = try store.seed("| x y*", scope: 2)
        let (closed, _) = try store.seed("| z*", scope: 3)
        try store.browsers.closeBrowser(closed)
        return (store, window, names)
    }

    private static func export(_ database: SessionDatabase, _ layout: SessionArchive.Layout) throws -> Data {
        var text = Data()
        let writer = SessionArchive.Writer(layout: layout) { text.append($0) }
        try database.exportArchive { try writer.write($0) }
        try writer.finish()
        return text
    }

    /// The archive's and saved groups' rows as the repositories list them.
    private static func kept(_ store: TemporaryStore) throws -> ([ArchivedTab], [SavedTabGroup]) {
        (try SQLiteTabArchiveRepository(database: store.database).archivedTabs(),
         try SQLiteSavedTabGroupRepository(database: store.database).savedGroups())
    }

    // MARK: - Round trip

    @Test(arguments: SessionArchive.Layout.allCases)
    func storeWithKeptTabs_exportsImportsAndExportsAgain_byteForByte(_ layout: SessionArchive.Layout) throws {
        let (store, window, names) = try Self.storeWithKeptTabs()
        let text = try Self.export(store.database, layout)
        let archive = try store.database.exportArchive()
        // The archive and the saved groups are not windows.
        #expect(archive.browsers.count == 3)
        #expect(archive.archivedTabs.map(\.tab.id) == ["a", "c", "d", "g", "h"].map(names.webStateID))
        #expect(archive.archivedTabs.map(\.formerIndex) == [1, 3, 4, 5, 6])
        #expect(archive.archivedTabs[4].formerOpener == names.webStateID("a"))
        #expect(archive.archivedTabs[1].formerGroup == SessionArchive.FormerGroup(id: names.groupID("0"), title: "Trip", color: .cyan))
        #expect(archive.archivedTabs.allSatisfy { $0.formerBrowser == window && $0.tab.history.entries.count == 2 })
        #expect(archive.archivedTabs[3].tab.engineState == Data([4, 5]))
        #expect(Set(archive.savedGroups.map(\.id)) == Set(["2", "1"].map(names.groupID)))
        let later = try #require(archive.savedGroups.first { $0.id == names.groupID("2") })
        #expect(later.title == "Later" && later.color == .orange && later.collapsed && later.tabs.map(\.id) == [names.webStateID("k")])
        let kept = try #require(archive.savedGroups.first { $0.id == names.groupID("1") })
        #expect(kept.title == "Kept" && kept.color == .purple && !kept.collapsed)
        #expect(kept.tabs.map(\.id) == ["e", "f"].map(names.webStateID))
        #expect(kept.tabs[0].engineState == Data([1, 2, 3]))
        #expect(archive.savedGroups.allSatisfy { $0.sourceBrowser == window })
        try archive.check()

        var targets: [(String, TemporaryStore)] = []
        let streamed = try TemporaryStore.onDisk()
        try streamed.database.importArchive(from: ArchiveStreamingTests.reader(text, largest: 61))
        targets.append(("streamed", streamed))
        if layout == .document {
            let whole = try TemporaryStore.onDisk()
            try whole.database.importArchive(try SessionArchive.decode(from: text))
            targets.append(("whole", whole))
        }
        let (archivedBefore, savedBefore) = try Self.kept(store)
        for (name, target) in targets {
            #expect(try Self.export(target.database, layout) == text, "\(name)")
            let (archived, saved) = try Self.kept(target)
            #expect(archived == archivedBefore, "\(name)")
            #expect(saved == savedBefore, "\(name)")
            #expect(try target.browsers.browsers().count == 2, "\(name)")
            // What was imported restores and reopens as what was stored.
            let archive = SQLiteTabArchiveRepository(database: target.database)
            try archive.restore(["c", "d"].map(names.webStateID), to: nil, placement: .formerPosition)
            #expect(try target.format(window, names) == "p | b* [ 0 c d ]", "\(name)")
            #expect(try target.tabs.webStateList(in: window).groups[names.groupID("0")]?.visualData.title == "Trip")
            try SQLiteSavedTabGroupRepository(database: target.database).reopen(names.groupID("1"), in: window)
            #expect(try target.format(window, names) == "p | b* [ 0 c d ] [ 1 e f ]", "\(name)")
            #expect(try target.histories.engineState(of: names.webStateID("e")) == Data([1, 2, 3]))
            let path = try #require(target.path)
            try target.database.close()
            #expect(try SessionStoreFile.check(atPath: path) == [], "\(name)")
        }
    }

    /// The writer's document is what the encoder makes of the whole document, with either
    /// section, both or neither.
    @Test func writer_matchesTheEncoder_withEitherSection() throws {
        let valid = Self.validArchive()
        for (archived, saved) in [(false, false), (true, false), (false, true), (true, true)] {
            var archive = valid
            if !archived { archive.archivedTabs = [] }
            if !saved { archive.savedGroups = [] }
            var expected = try SessionArchive.encoder().encode(archive)
            expected.append(UInt8(ascii: "\n"))
            let text = try ArchiveStreamingTests.text(archive, layout: .document)
            #expect(text == expected, "\(archived) \(saved)")
            #expect(try SessionArchive.decode(from: text) == archive)
            let written = String(decoding: text, as: UTF8.self)
            #expect(written.contains("\"archived_tabs\"") == archived)
            #expect(written.contains("\"saved_groups\"") == saved)
            let lines = String(decoding: try ArchiveStreamingTests.text(archive, layout: .lines), as: UTF8.self)
            #expect(lines.components(separatedBy: "\n{\"archived_tab\":").count - 1 == archive.archivedTabs.count)
            #expect(lines.components(separatedBy: "\n{\"saved_group\":").count - 1 == archive.savedGroups.count)
        }
    }

    @Test func theValidArchive_isValid_andKeepsItsKeptTabsThroughEveryReader() throws {
        let archive = Self.validArchive()
        try archive.check()
        for layout in SessionArchive.Layout.allCases {
            let store = try TemporaryStore.inMemory()
            let counts = try store.database.importArchive(
                from: SessionArchive.Reader(data: try ArchiveStreamingTests.text(archive, layout: layout)))
            #expect(counts.archivedTabs == 2 && counts.savedGroups == 2 && counts.savedGroupTabs == 3)
            #expect(try store.database.exportArchive() == archive, "\(layout)")
        }
    }

    /// Merging appends the document's archived tabs after the archive's own, and adds its
    /// saved groups beside the store's.
    @Test func merging_appendsToTheStoresArchive() throws {
        let (store, _, names) = try Self.storeWithKeptTabs()
        let (archivedBefore, savedBefore) = try Self.kept(store)
        let archive = Self.validArchive()
        try store.database.checkImport(archive)
        try store.database.importArchive(archive)
        let (archived, saved) = try Self.kept(store)
        #expect(archived.map(\.id) == archivedBefore.map(\.id) + archive.archivedTabs.map(\.tab.id))
        #expect(Set(saved.map(\.id)) == Set(savedBefore.map(\.id) + archive.savedGroups.map(\.id)))
        #expect(try store.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM tab_archives") } == 1)
        // Merging again refuses what the store now holds.
        #expect(throws: StorageError.invalidArchive(
            location: "$.archived_tabs[0].tab.id",
            reason: "the store already has tab \(archive.archivedTabs[0].tab.id) (use --replace to swap the store's content)")
        ) { try store.database.checkImport(archive) }
        var group = Self.validArchive()
        group.archivedTabs = []
        group.savedGroups[0].id = names.groupID("1")
        for layout in SessionArchive.Layout.allCases {
            #expect(throws: StorageError.invalidArchive(
                location: layout == .document ? "$.saved_groups[0].id" : "line 5: $.saved_group.id",
                reason: "the store already has group \(names.groupID("1")) (use --replace to swap the store's content)")
            ) { try store.database.importArchive(from: SessionArchive.Reader(data: try ArchiveStreamingTests.text(group, layout: layout))) }
        }
        try store.reopen()
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
    }

    // MARK: - Refusals

    /// One browser `| [ g a ] b`, two archived tabs (the first with a former group, opener
    /// and browser; the second with none, `purple` nowhere else), and two saved groups (the
    /// first `orange`, two tabs; the second one tab). As JSON Lines: line 2 and 3 the
    /// archived tabs, 4 the browser, 5 and 6 its tabs, 7 and 8 the saved groups.
    static func validArchive() -> SessionArchive {
        let time = Date(timeIntervalSince1970: 1_790_000_000)
        func tab(_ url: String? = nil) -> SessionArchive.Tab {
            let entries = url.map { [SessionArchive.Entry(url: $0, title: $0, timestamp: time)] } ?? []
            return SessionArchive.Tab(createdAt: time, history: .init(currentIndex: url == nil ? nil : 0, entries: entries))
        }
        let group = SessionArchive.Group(title: "g", color: .green)
        var grouped = tab("https://example.com/a")
        grouped.group = group.id
        let browser = SessionArchive.Browser(createdAt: time, groups: [group], tabs: [grouped, tab()])
        let archived = [
            SessionArchive.ArchivedTab(
                tab: tab("https://example.com/old"), formerBrowser: browser.id, formerIndex: 2, formerOpener: browser.tabs[1].id,
                formerGroup: SessionArchive.FormerGroup(id: TabGroupID(), title: "gone", color: .purple), archivedAt: time),
            SessionArchive.ArchivedTab(tab: tab(), formerBrowser: nil, formerIndex: 0, archivedAt: time.addingTimeInterval(1)),
        ]
        let saved = [
            SessionArchive.SavedGroup(
                title: "Saved", color: .orange, collapsed: true, sourceBrowser: browser.id, savedAt: time,
                tabs: [tab("https://example.com/s1"), tab("https://example.com/s2")]),
            SessionArchive.SavedGroup(title: "", color: .blue, savedAt: time.addingTimeInterval(-1), tabs: [tab()]),
        ]
        return SessionArchive(browsers: [browser], closedEntries: [], archivedTabs: archived, savedGroups: saved)
    }

    typealias Refusal = ArchiveSplitTests.Refusal

    static let refusals: [Refusal] = [
        Refusal(name: "an archived tab twice", location: "$.archived_tabs[1].tab.id",
                linesLocation: "line 3: $.archived_tab.tab.id", reason: "appears twice",
                breakArchive: { $0.archivedTabs[1].tab.id = $0.archivedTabs[0].tab.id }),
        Refusal(name: "an archived tab also in a window", location: "$.browsers[0].tabs[1].id",
                linesLocation: "line 6: $.tab.id", reason: "appears twice",
                breakArchive: { $0.browsers[0].tabs[1].id = $0.archivedTabs[1].tab.id }),
        Refusal(name: "an archived tab also in a saved group", location: "$.saved_groups[0].tabs[1].id",
                linesLocation: "line 7: $.saved_group.tabs[1].id", reason: "appears twice",
                breakArchive: { $0.savedGroups[0].tabs[1].id = $0.archivedTabs[1].tab.id }),
        Refusal(name: "a saved group with a window's group id", location: "$.saved_groups[1].id",
                linesLocation: "line 8: $.saved_group.id", reason: "appears twice",
                breakArchive: { $0.savedGroups[1].id = $0.browsers[0].groups[0].id }),
        Refusal(name: "a saved group id twice", location: "$.saved_groups[1].id",
                linesLocation: "line 8: $.saved_group.id", reason: "appears twice",
                breakArchive: { $0.savedGroups[1].id = $0.savedGroups[0].id }),
        Refusal(name: "a negative former index", location: "$.archived_tabs[0].former_index",
                linesLocation: "line 2: $.archived_tab.former_index", reason: "must be 0 or more",
                breakArchive: { $0.archivedTabs[0].formerIndex = -1 }),
        Refusal(name: "a tab its own former opener", location: "$.archived_tabs[1].former_opener",
                linesLocation: "line 3: $.archived_tab.former_opener", reason: "its own opener",
                breakArchive: { $0.archivedTabs[1].formerOpener = $0.archivedTabs[1].tab.id }),
        Refusal(name: "a pinned archived tab", location: "$.archived_tabs[1].tab.pinned",
                linesLocation: "line 3: $.archived_tab.tab.pinned", reason: "an archived tab is not pinned",
                breakArchive: { $0.archivedTabs[1].tab.pinned = true }),
        Refusal(name: "an archived tab in a group", location: "$.archived_tabs[0].tab.group",
                linesLocation: "line 2: $.archived_tab.tab.group", reason: "has no group of its own",
                breakArchive: { $0.archivedTabs[0].tab.group = $0.archivedTabs[0].formerGroup?.id }),
        Refusal(name: "an archived tab in a split", location: "$.archived_tabs[0].tab.split",
                linesLocation: "line 2: $.archived_tab.tab.split", reason: "keeps no split view",
                breakArchive: { $0.archivedTabs[0].tab.split = TabSplitID() }),
        Refusal(name: "a saved group's tab with an opener", location: "$.saved_groups[0].tabs[1].opener",
                linesLocation: "line 7: $.saved_group.tabs[1].opener", reason: "a saved group's tab has no opener",
                breakArchive: { $0.savedGroups[0].tabs[1].opener = .init(tab: $0.savedGroups[0].tabs[0].id, navigationIndex: nil) }),
        Refusal(name: "a saved group's tab naming its group", location: "$.saved_groups[0].tabs[0].group",
                linesLocation: "line 7: $.saved_group.tabs[0].group", reason: "has no group of its own",
                breakArchive: { $0.savedGroups[0].tabs[0].group = $0.savedGroups[0].id }),
        Refusal(name: "an empty saved group", location: "$.saved_groups[1].tabs",
                linesLocation: "line 8: $.saved_group.tabs", reason: "holds at least one tab",
                breakArchive: { $0.savedGroups[1].tabs = [] }),
        Refusal(name: "an unknown former group colour", location: "$.archived_tabs[0].former_group.color",
                linesLocation: "line 2: $.archived_tab.former_group.color", reason: "violet",
                breakText: { $0.replacingOccurrences(of: "\"purple\"", with: "\"violet\"") }),
        Refusal(name: "an unknown saved group colour", location: "$.saved_groups[0].color",
                linesLocation: "line 7: $.saved_group.color", reason: "brown",
                breakText: { $0.replacingOccurrences(of: "\"orange\"", with: "\"brown\"") }),
        Refusal(name: "a former index that is not a number", location: "$.archived_tabs[0].former_index",
                linesLocation: "line 2: $.archived_tab.former_index", reason: "expected an integer",
                breakText: { $0.replacingOccurrences(of: #""former_index" : 2"#, with: #""former_index" : "2""#)
                    .replacingOccurrences(of: #""former_index":2"#, with: #""former_index":"2""#) }),
        Refusal(name: "a saved group without saved_at", location: "$.saved_groups[1].saved_at",
                linesLocation: "line 8: $.saved_group.saved_at", reason: "a required field is missing",
                breakText: { $0.replacingOccurrences(of: #""saved_at" : "2026-09-21T14:13:19.000Z","#, with: "")
                    .replacingOccurrences(of: #""saved_at":"2026-09-21T14:13:19.000Z","#, with: "") }),
    ]

    @Test(arguments: refusals)
    func brokenRule_isRefusedAtItsPlace_byEveryReader_andChangesNothing(_ refusal: Refusal) throws {
        var archive = Self.validArchive()
        refusal.breakArchive(&archive)
        // A store with an archive and a saved group of its own, which no refused import may change.
        let (store, _, _) = try Self.storeWithKeptTabs()
        let before = try Self.export(store.database, .document)

        try ArchiveSplitTests.expectRefusedByEveryReader(refusal, archive, store: store) { (reader: String) throws in
            #expect(try Self.export(store.database, .document) == before, "\(reader)")
        }
    }

    /// A part this reader does not know: in the document, a top-level key is read and
    /// ignored (so a binary from before `archived_tabs` and `saved_groups` imports the
    /// windows without them); in JSON Lines, a line of another kind is refused at its
    /// number and nothing changes (so such a binary refuses the whole document).
    @Test func aPartOfAnotherKind_isIgnoredInTheDocument_andRefusedInLines() throws {
        let archive = Self.validArchive()
        let document = String(decoding: try ArchiveStreamingTests.text(archive, layout: .document), as: UTF8.self)
            .replacingOccurrences(of: "\"archived_tabs\" : [", with: "\"later_parts\" : [")
        var windowsOnly = archive
        windowsOnly.archivedTabs = []
        let store = try TemporaryStore.inMemory()
        try store.database.importArchive(from: SessionArchive.Reader(data: Data(document.utf8)))
        #expect(try store.database.exportArchive() == windowsOnly)

        let lines = String(decoding: try ArchiveStreamingTests.text(archive, layout: .lines), as: UTF8.self)
            .replacingOccurrences(of: "{\"saved_group\":", with: "{\"later_part\":")
        let other = try TemporaryStore.inMemory()
        #expect(throws: StorageError.invalidArchive(
            location: "line 7",
            reason: #"expected one of "archived_tab", "browser", "tab", "closed_entry" or "saved_group""#)
        ) { try other.database.importArchive(from: SessionArchive.Reader(data: Data(lines.utf8))) }
        #expect(try other.database.exportArchive() == SessionArchive(browsers: []))
    }

    // MARK: - Stores written by a binary that knows no archive

    /// A binary that knows no archive shows it as a window and may add a tab to it: that tab
    /// is not an archived tab, so the export leaves it out and says so.
    @Test func aTabAddedToTheArchiveAsAWindow_isLeftOutWithARepair() throws {
        let (store, _, _) = try Self.storeWithKeptTabs()
        let before = try store.database.exportArchive()
        let stray = WebStateID()
        try store.database.mutate { db in
            let archive = try String.fetchOne(db, sql: "SELECT browser_id FROM tab_archives")!
            try db.execute(sql: """
                INSERT INTO tabs (id, browser_id, sort_key, is_pinned, created_at, last_active_at)
                VALUES (?, ?, ?, 0, '2026-11-23T09:30:00.000Z', '2026-11-23T09:30:00.000Z')
                """, arguments: [stray.uuidString, archive, Int64(1) << 60])
        }
        #expect(try store.database.exportArchive() == before)
        #expect(store.database.repairs().contains { $0.kind == .tabSkipped && $0.subject == stray.uuidString })
    }
}
