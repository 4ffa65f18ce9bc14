import Foundation
import GRDB
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Split views in the export format: written only when present, read back into
/// `tab_splits` rows by every reader, and each broken rule refused at its place
/// with the store left as it was.
@Suite struct ArchiveSplitTests {
    // MARK: - Stores and documents

    /// A store with splits: pinned, plain and grouped ones with their own visual data in
    /// an open window, and one in a closed window.
    private static func storeWithSplits() throws -> (TemporaryStore, [(BrowserID, WebStateListNotation, String)]) {
        let store = try TemporaryStore.onDisk()
        let open = "{ 0 a b } c | { 1 d e* } [ 2 { 3 f g } h ] i"
        let (window, names) = try store.seed(open, scope: 1)
        try store.tabs.update(window) {
            _ = try $0.updateSplit(names.splitID("1"), visualData: TabSplitVisualData(ratio: 0.3, layout: .horizontal))
            _ = try $0.updateSplit(names.splitID("3"), visualData: TabSplitVisualData(ratio: 1.0 / 3))
            _ = try $0.updateSplit(names.splitID("0"), visualData: TabSplitVisualData(ratio: 1, layout: .horizontal))
        }
        let closedText = "| x { 4 y* z }"
        let (closed, closedNames) = try store.seed(closedText, scope: 2)
        try store.tabs.update(closed) {
            _ = try $0.updateSplit(closedNames.splitID("4"), visualData: TabSplitVisualData(ratio: 0.000_1))
        }
        try store.browsers.closeBrowser(closed)
        let (plain, plainNames) = try store.seed("a | b* c", scope: 3)
        return (store, [(window, names, open), (closed, closedNames, closedText), (plain, plainNames, "a | b* c")])
    }

    private static func export(_ database: SessionDatabase, _ layout: SessionArchive.Layout) throws -> Data {
        var text = Data()
        let writer = SessionArchive.Writer(layout: layout) { text.append($0) }
        try database.exportArchive { try writer.write($0) }
        try writer.finish()
        return text
    }

    private static func tabSplitRows(_ store: TemporaryStore) throws -> [Row] {
        try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM tab_splits ORDER BY id")
        }
    }

    // MARK: - Round trip

    @Test(arguments: SessionArchive.Layout.allCases)
    func storeWithSplits_exportsImportsAndExportsAgain_byteForByte(_ layout: SessionArchive.Layout) throws {
        let (store, browsers) = try Self.storeWithSplits()
        let text = try Self.export(store.database, layout)
        let written = String(decoding: text, as: UTF8.self)
        #expect(written.components(separatedBy: "\"splits\"").count - 1 == 2)
        #expect(written.components(separatedBy: "\"split\"").count - 1 == 8)

        // The streaming reader (either layout), and for a document the whole-document one too.
        var targets: [(String, TemporaryStore)] = []
        let streamed = try TemporaryStore.onDisk()
        try streamed.database.importArchive(from: SessionArchive.Reader(data: text))
        targets.append(("streamed", streamed))
        if layout == .document {
            let whole = try TemporaryStore.onDisk()
            try whole.database.importArchive(try SessionArchive.decode(from: text))
            targets.append(("whole", whole))
        }
        for (name, target) in targets {
            #expect(try Self.export(target.database, layout) == text, "\(name)")
            #expect(try Self.tabSplitRows(target) == (try Self.tabSplitRows(store)), "\(name)")
            // The closed window's splits are in the export and the rows compared above.
            for (browser, names, notation) in browsers where browser != browsers[1].0 {
                let list = try target.tabs.webStateList(in: browser)
                #expect(names.format(list) == notation, "\(name)")
                #expect(list.splits == (try store.tabs.webStateList(in: browser)).splits, "\(name)")
            }
            let path = try #require(target.path)
            try target.database.close()
            #expect(try SessionStoreFile.check(atPath: path) == [], "\(name)")
        }
    }

    @Test func splits_comeInTheOrderOfTheirFirstTabs_andTheirTabsNameThem() throws {
        let (store, browsers) = try Self.storeWithSplits()
        let archive = try store.database.exportArchive()
        let (window, names, _) = browsers[0]
        let browser = try #require(archive.browsers.first { $0.id == window })
        #expect(browser.splits.map(\.id) == ["0", "1", "3"].map(names.splitID))
        #expect(browser.splits[0] == SessionArchive.Split(id: names.splitID("0"), ratio: 1, layout: .horizontal))
        #expect(browser.splits[1] == SessionArchive.Split(id: names.splitID("1"), ratio: 0.3, layout: .horizontal))
        #expect(browser.splits[2] == SessionArchive.Split(id: names.splitID("3"), ratio: 1.0 / 3, layout: .vertical))
        #expect(browser.tabs.map(\.split) == ["0", "0", nil, "1", "1", "3", "3", nil, nil].map { $0.map(names.splitID) })
        let closed = try #require(archive.browsers.first { $0.id == browsers[1].0 })
        #expect(closed.closedEntry != nil)
        #expect(closed.splits.map(\.ratio) == [0.000_1])
    }

    /// A split's ratio is written as the encoder writes a `Double`, whatever its digits.
    @Test func ratios_areTheEncodersText_byteForByte() throws {
        var rng = SplitMix64(seed: 38)
        var ratios: [Double] = [0, 1, 0.5, 0.1, 1.0 / 3, 2.0 / 3, 1e-7, 0.000_1, Double.leastNonzeroMagnitude, 0.999_999_999_999_999_9, 0.1 + 0.2]
        for _ in 0..<500 { ratios.append(Double.random(in: 0...1, using: &rng)) }
        for ratio in ratios {
            let split = SessionArchive.Split(ratio: ratio, layout: .horizontal)
            let first = SessionArchive.Tab(createdAt: Date(timeIntervalSince1970: 0), history: .init(currentIndex: nil, entries: []), split: split.id)
            var second = first
            second.id = WebStateID()
            let archive = SessionArchive(browsers: [
                SessionArchive.Browser(createdAt: Date(timeIntervalSince1970: 0), splits: [split], tabs: [first, second]),
            ])
            var expected = try SessionArchive.encoder().encode(archive)
            expected.append(UInt8(ascii: "\n"))
            let text = try ArchiveStreamingTests.text(archive, layout: .document)
            try #require(text == expected, "\(ratio)")
            try #require(try SessionArchive.decode(from: text) == archive, "\(ratio)")
        }
    }

    // MARK: - Documents without splits

    /// Hand-built: the text version 1 wrote before splits, for a fixed archive. A store
    /// without splits exports it unchanged: no `splits` or `split` key.
    private static let documentWithoutSplits = """
        {
          "browsers" : [
            {
              "active_tab" : "00000000-0000-4000-8000-000000000002",
              "created_at" : "2026-11-23T09:30:00.000Z",
              "groups" : [
                {
                  "collapsed" : false,
                  "color" : "blue",
                  "id" : "00000000-0000-4000-8000-000000000003",
                  "title" : "g"
                }
              ],
              "id" : "00000000-0000-4000-8000-000000000001",
              "last_active_at" : "2026-11-23T09:30:00.000Z",
              "tabs" : [
                {
                  "created_at" : "2026-11-23T09:30:00.000Z",
                  "history" : {
                    "entries" : [

                    ]
                  },
                  "id" : "00000000-0000-4000-8000-000000000004",
                  "last_active_at" : "2026-11-23T09:30:00.000Z",
                  "pinned" : true
                },
                {
                  "created_at" : "2026-11-23T09:30:00.000Z",
                  "group" : "00000000-0000-4000-8000-000000000003",
                  "history" : {
                    "current_index" : 0,
                    "entries" : [
                      {
                        "post" : false,
                        "referrer_policy" : "default",
                        "timestamp" : "2026-11-23T09:30:00.000Z",
                        "title" : "t",
                        "transition" : "link",
                        "url" : "https://example.com/",
                        "user_agent" : "automatic"
                      }
                    ]
                  },
                  "id" : "00000000-0000-4000-8000-000000000002",
                  "last_active_at" : "2026-11-23T09:30:00.000Z",
                  "pinned" : false
                }
              ]
            }
          ],
          "closed_entries" : [

          ],
          "format" : "sessionstore",
          "version" : 1
        }

        """

    /// Hand-built: the same content as JSON Lines, as version 1 wrote it before splits.
    private static let linesWithoutSplits = """
        {"format":"sessionstore-lines","version":1}
        {"browser":{"active_tab":"00000000-0000-4000-8000-000000000002","created_at":"2026-11-23T09:30:00.000Z","groups":[{"collapsed":false,"color":"blue","id":"00000000-0000-4000-8000-000000000003","title":"g"}],"id":"00000000-0000-4000-8000-000000000001","last_active_at":"2026-11-23T09:30:00.000Z"}}
        {"tab":{"created_at":"2026-11-23T09:30:00.000Z","history":{"entries":[]},"id":"00000000-0000-4000-8000-000000000004","last_active_at":"2026-11-23T09:30:00.000Z","pinned":true}}
        {"tab":{"created_at":"2026-11-23T09:30:00.000Z","group":"00000000-0000-4000-8000-000000000003","history":{"current_index":0,"entries":[{"post":false,"referrer_policy":"default","timestamp":"2026-11-23T09:30:00.000Z","title":"t","transition":"link","url":"https://example.com/","user_agent":"automatic"}]},"id":"00000000-0000-4000-8000-000000000002","last_active_at":"2026-11-23T09:30:00.000Z","pinned":false}}

        """

    @Test(arguments: [false, true])
    func documentWithoutSplits_importsByEveryReader_andExportsTheSameBytes(_ lines: Bool) throws {
        let text = Data((lines ? Self.linesWithoutSplits : Self.documentWithoutSplits).utf8)
        var stores: [TemporaryStore] = []
        let streamed = try TemporaryStore.inMemory()
        try streamed.database.importArchive(from: SessionArchive.Reader(data: text))
        stores.append(streamed)
        if !lines {
            let whole = try TemporaryStore.inMemory()
            let archive = try SessionArchive.decode(from: text)
            #expect(archive.browsers[0].splits.isEmpty)
            #expect(archive.browsers[0].tabs.allSatisfy { $0.split == nil })
            try whole.database.importArchive(archive)
            stores.append(whole)
        }
        for store in stores {
            #expect(try Self.export(store.database, lines ? .lines : .document) == text)
            let browser = try #require(BrowserID(uuidString: "00000000-0000-4000-8000-000000000001"))
            let list = try store.tabs.webStateList(in: browser)
            #expect(list.count == 2)
            #expect(list.splits.isEmpty)
            #expect(try Self.tabSplitRows(store).isEmpty)
        }
    }

    /// Keys a reader does not know are ignored, in every object and both layouts: how a
    /// binary from before splits reads a document with them (it imports the tabs, not the
    /// splits), and how this one will read keys added after it.
    @Test(arguments: SessionArchive.Layout.allCases)
    func unknownKeys_areIgnoredByEveryReader(_ layout: SessionArchive.Layout) throws {
        let archive = Self.validArchive()
        let separator = layout == .document ? " : " : ":"
        let text = String(decoding: try ArchiveStreamingTests.text(archive, layout: layout), as: UTF8.self)
            .replacingOccurrences(of: "\"layout\"\(separator)", with: "\"later_split\"\(separator)[1, {}],\"layout\"\(separator)")
            .replacingOccurrences(of: "\"pinned\"\(separator)", with: "\"later_tab\"\(separator){\"x\": null},\"pinned\"\(separator)")
            .replacingOccurrences(of: "\"last_active_at\"\(separator)", with: "\"later_any\"\(separator)\"\",\"last_active_at\"\(separator)")
        #expect(text.components(separatedBy: "\"later_").count > 20)
        let store = try TemporaryStore.inMemory()
        try store.database.importArchive(from: SessionArchive.Reader(data: Data(text.utf8)))
        #expect(try store.database.exportArchive() == archive)
        if layout == .document { #expect(try SessionArchive.decode(from: Data(text.utf8)) == archive) }
    }

    // MARK: - Refusals

    /// One browser `{ p0 p1 } p2 | t1 [ g1 { g2 g3 } g4 ] t2 t3` (splits S0 and S1, S1
    /// horizontal), one `{ u1 u2 }` (S2), and a closed tab entry.
    private static func validArchive() -> SessionArchive {
        let time = Date(timeIntervalSince1970: 1_790_000_000)
        func tab(pinned: Bool = false, group: TabGroupID? = nil, split: TabSplitID? = nil) -> SessionArchive.Tab {
            SessionArchive.Tab(pinned: pinned, group: group, createdAt: time, history: .init(currentIndex: nil, entries: []), split: split)
        }
        let group = SessionArchive.Group(title: "g", color: .green)
        let splits = [
            SessionArchive.Split(ratio: 0.25), SessionArchive.Split(ratio: 0.5, layout: .horizontal), SessionArchive.Split(),
        ]
        let first = SessionArchive.Browser(
            createdAt: time, groups: [group], splits: [splits[0], splits[1]],
            tabs: [
                tab(pinned: true, split: splits[0].id), tab(pinned: true, split: splits[0].id), tab(pinned: true),
                tab(), tab(group: group.id), tab(group: group.id, split: splits[1].id),
                tab(group: group.id, split: splits[1].id), tab(group: group.id), tab(), tab(),
            ])
        let second = SessionArchive.Browser(
            createdAt: time.addingTimeInterval(-1), splits: [splits[2]],
            tabs: [tab(split: splits[2].id), tab(split: splits[2].id)])
        let closed = SessionArchive.ClosedEntry(kind: .tab, closedAt: time, browser: first.id, tabIndex: 1, tabs: [tab()])
        return SessionArchive(browsers: [first, second], closedEntries: [closed])
    }

    /// A broken rule: how to break it, and where each reader says it is broken.
    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var location: String
        /// Where the JSON Lines reader says it, when not at `location`.
        var linesLocation: String?
        var reason: String
        var breakArchive: @Sendable (inout SessionArchive) -> Void = { _ in }
        var breakText: @Sendable (String) -> String = { $0 }
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = {
        let extra = SessionArchive.Split()
        func withExtraSplit(on offsets: [Int]) -> @Sendable (inout SessionArchive) -> Void {
            { archive in
                archive.browsers[0].splits.append(extra)
                for offset in offsets { archive.browsers[0].tabs[offset].split = extra.id }
            }
        }
        return [
            Refusal(name: "a tab's split is not one of its browser's", location: "$.browsers[0].tabs[9].split",
                    reason: "is not one of this browser's splits", breakArchive: { $0.browsers[0].tabs[9].split = TabSplitID() }),
            Refusal(name: "a tab names another browser's split", location: "$.browsers[0].tabs[9].split",
                    reason: "is not one of this browser's splits",
                    breakArchive: { $0.browsers[0].tabs[9].split = $0.browsers[1].splits[0].id }),
            Refusal(name: "a split with no tab", location: "$.browsers[0].splits[2]", reason: "has 0 tabs",
                    breakArchive: withExtraSplit(on: [])),
            Refusal(name: "a split with one tab", location: "$.browsers[0].splits[0]", reason: "has 1 tab;",
                    breakArchive: { $0.browsers[0].tabs[1].split = nil }),
            Refusal(name: "a split with three tabs", location: "$.browsers[0].splits[2]", reason: "has 3 tabs",
                    breakArchive: withExtraSplit(on: [3, 8, 9])),
            Refusal(name: "a split whose tabs are not neighbours", location: "$.browsers[0].splits[2]",
                    reason: "tabs[3] and tabs[8], are not neighbours", breakArchive: withExtraSplit(on: [3, 8])),
            Refusal(name: "a split of a pinned and a regular tab", location: "$.browsers[0].splits[2]",
                    reason: "is pinned and the other is not", breakArchive: withExtraSplit(on: [2, 3])),
            Refusal(name: "a split of a grouped and an ungrouped tab", location: "$.browsers[0].splits[2]",
                    reason: "are not in the same group", breakArchive: withExtraSplit(on: [7, 8])),
            Refusal(name: "a split id twice in one browser", location: "$.browsers[0].splits[2].id", reason: "appears twice",
                    breakArchive: { $0.browsers[0].splits.append($0.browsers[0].splits[0]) }),
            Refusal(name: "a split id in two browsers", location: "$.browsers[1].splits[0].id", reason: "appears twice",
                    breakArchive: { archive in
                        let id = archive.browsers[0].splits[0].id
                        archive.browsers[1].splits[0].id = id
                        for offset in 0..<2 { archive.browsers[1].tabs[offset].split = id }
                    }),
            Refusal(name: "a ratio over 1", location: "$.browsers[0].splits[1].ratio", reason: "is not from 0 to 1",
                    breakArchive: { $0.browsers[0].splits[1].ratio = 1.5 }),
            Refusal(name: "a negative ratio", location: "$.browsers[0].splits[0].ratio", reason: "is not from 0 to 1",
                    breakArchive: { $0.browsers[0].splits[0].ratio = -0.25 }),
            Refusal(name: "an unknown layout", location: "$.browsers[0].splits[1].layout",
                    linesLocation: "line 2: $.browser.splits[1].layout",
                    reason: #"expected "vertical" or "horizontal", found "diagonal""#,
                    breakText: { $0.replacingOccurrences(of: "\"horizontal\"", with: "\"diagonal\"") }),
            Refusal(name: "a ratio that is not a number", location: "$.browsers[0].splits[1].ratio",
                    linesLocation: "line 2: $.browser.splits[1].ratio", reason: "expected a number",
                    breakText: { $0.replacingOccurrences(of: #""ratio" : 0.5"#, with: #""ratio" : "0.5""#)
                        .replacingOccurrences(of: #""ratio":0.5"#, with: #""ratio":"0.5""#) }),
            Refusal(name: "a recently closed tab in a split", location: "$.closed_entries[0].tabs[0].split",
                    reason: "keeps no split view",
                    breakArchive: { $0.closedEntries[0].tabs[0].split = $0.browsers[0].splits[0].id }),
        ]
    }()

    @Test func theValidArchive_isValid_andKeepsItsSplitsThroughEveryReader() throws {
        let archive = Self.validArchive()
        try archive.check()
        for layout in SessionArchive.Layout.allCases {
            let store = try TemporaryStore.inMemory()
            try store.database.importArchive(from: SessionArchive.Reader(data: try ArchiveStreamingTests.text(archive, layout: layout)))
            #expect(try store.database.exportArchive() == archive, "\(layout)")
            #expect(try Self.tabSplitRows(store).count == 3)
        }
    }

    @Test(arguments: refusals)
    func brokenSplitRule_isRefusedAtItsPlace_byEveryReader_andChangesNothing(_ refusal: Refusal) throws {
        var archive = Self.validArchive()
        refusal.breakArchive(&archive)
        // A store with content (and a split) of its own, which no refused import may change.
        let store = try TemporaryStore.onDisk()
        _ = try store.seed("| a { 0 b c* }", scope: 9)
        let before = try Self.export(store.database, .document)
        let rowsBefore = try Self.tabSplitRows(store)

        try Self.expectRefusedByEveryReader(refusal, archive, store: store) { (reader: String) throws in
            #expect(try Self.export(store.database, .document) == before, "\(reader)")
            #expect(try Self.tabSplitRows(store) == rowsBefore, "\(reader)")
        }
    }

    /// Runs every reader over `archive` broken by `refusal` (its text in both layouts, into
    /// `store` merging and replacing, and for a document decoded whole, checked, checked
    /// against the store and imported): each must refuse it at the refusal's place, and
    /// `unchanged` (given the reader's name) checks the store after each.
    static func expectRefusedByEveryReader(
        _ refusal: Refusal, _ archive: SessionArchive, store: TemporaryStore, unchanged: (String) throws -> Void
    ) throws {
        func expectRefused(_ reader: String, _ location: String, _ body: () throws -> Void) throws {
            do {
                try body()
                Issue.record("\(reader): accepted")
            } catch StorageError.invalidArchive(let found, let reason) {
                #expect(found == location, "\(reader): \(reason)")
                #expect(reason.contains(refusal.reason), "\(reader): \(found): \(reason)")
            }
            try unchanged(reader)
        }
        for layout in SessionArchive.Layout.allCases {
            let text = Data(refusal.breakText(String(decoding: try ArchiveStreamingTests.text(archive, layout: layout), as: UTF8.self)).utf8)
            let location = layout == .lines ? refusal.linesLocation ?? refusal.location : refusal.location
            for replacing in [false, true] {
                try expectRefused("streamed \(layout), replacing \(replacing)", location) {
                    try store.database.importArchive(
                        from: ArchiveStreamingTests.reader(text, largest: 97), replacing: replacing)
                }
            }
            guard layout == .document else { continue }
            try expectRefused("decode and check", location) {
                try SessionArchive.decode(from: text).check()
            }
            try expectRefused("checkImport", location) {
                try store.database.checkImport(try SessionArchive.decode(from: text))
            }
            for replacing in [false, true] {
                try expectRefused("whole document, replacing \(replacing)", location) {
                    try store.database.importArchive(try SessionArchive.decode(from: text), replacing: replacing)
                }
            }
        }
    }

    @Test func merging_refusesASplitIdTheStoreHolds_andChangesNothing() throws {
        let store = try TemporaryStore.inMemory()
        let (_, names) = try store.seed("| a { 0 b c* }", scope: 9)
        let before = try store.database.exportArchive()
        var archive = Self.validArchive()
        let id = names.splitID("0")
        archive.browsers[0].splits[1].id = id
        for offset in [5, 6] { archive.browsers[0].tabs[offset].split = id }
        try archive.check()
        for layout in SessionArchive.Layout.allCases {
            let text = try ArchiveStreamingTests.text(archive, layout: layout)
            #expect(throws: StorageError.invalidArchive(
                location: "$.browsers[0].splits[1].id",
                reason: "the store already has split \(id) (use --replace to swap the store's content)")
            ) {
                try store.database.importArchive(from: SessionArchive.Reader(data: text))
            }
            #expect(try store.database.exportArchive() == before)
        }
        #expect(throws: StorageError.invalidArchive(
            location: "$.browsers[0].splits[1].id",
            reason: "the store already has split \(id) (use --replace to swap the store's content)")
        ) {
            try store.database.checkImport(archive)
        }
        #expect(throws: StorageError.self) { try store.database.importArchive(archive) }
        #expect(try store.database.exportArchive() == before)
        // Replacing the store's content frees the id.
        try store.database.importArchive(archive, replacing: true)
        #expect(try store.database.exportArchive() == archive)
    }

    /// A non-integer in an integer field is named there, not at a split's ratio that comes first.
    @Test func aFractionInAnIntegerField_isNamedThere_notAtARatio() throws {
        var archive = Self.validArchive()
        archive.closedEntries[0].tabIndex = 7
        let text = String(decoding: try ArchiveStreamingTests.text(archive, layout: .document), as: UTF8.self)
            .replacingOccurrences(of: #""tab_index" : 7"#, with: #""tab_index" : 7.5"#)
        #expect {
            try SessionArchive.decode(from: Data(text.utf8))
        } throws: { error in
            guard case .invalidArchive(let location, _) = error as? StorageError else { return false }
            return location == "$.closed_entries[0].tab_index"
        }
    }
}
