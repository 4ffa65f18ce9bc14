import Foundation
import SessionInterop
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Chromium's split views and saved groups: the files Chromium wrote for
/// `Scripts/fixtures/make-chromium-2026-fixtures.py` (`Fixtures/chromium-2026/`),
/// checked against its `expected.json`, then hand-built commands (each test
/// says so) for what the browser did not write: torn and malformed split
/// commands, a split of one tab, other visual data, a closed split view.
@Suite struct ChromiumSplitsAndSavedGroupsTests {
    typealias Frames = SNSSTestFrames

    // MARK: - Real fixtures

    @Test func read_directory_splitsMatchWhatTheScriptDid() throws {
        let result = try ChromiumSessionReader.read(at: Self.directory)
        try result.archive.check()
        #expect(result.skipped == [
            "\(Self.expected.files.tabs): left out 1 closed window that is an open window recorded again at exit",
        ])
        let open = result.archive.browsers.filter { $0.closedEntry == nil }
        try #require(open.count == Self.expected.windows.count)
        for (browser, window) in zip(open, Self.expected.windows) {
            Self.expectSplits(browser, match: window)
            #expect(browser.tabs.firstIndex { $0.id == browser.activeTab } == window.selectedIndex)
        }
    }

    @Test func read_directory_theClosedWindowKeepsItsSavedGroup() throws {
        let result = try ChromiumSessionReader.read(at: Self.directory)
        let closed = result.archive.browsers.filter { $0.closedEntry != nil }
        try #require(closed.count == Self.expected.closedWindowsByScript.count)
        for (browser, window) in zip(closed, Self.expected.closedWindowsByScript) {
            #expect(Self.currentURLs(browser) == window.tabs.map(\.url))
            for (tab, want) in zip(browser.tabs, window.tabs) {
                let group = tab.group.flatMap { id in browser.groups.first { $0.id == id } }
                #expect(group?.title == want.group?.title)
                #expect(group?.color.rawValue == want.group?.color)
            }
            #expect(browser.splits.isEmpty)
        }
    }

    /// Command 27 (and `Tabs_*` 10) end with is_saved and the saved GUID: every
    /// group Chromium 156 made is saved, under the GUID its saved-tab-group store uses.
    @Test(arguments: ["directory", "session", "tabs"])
    func read_fixture_keepsEachGroupsSavedID(which: String) throws {
        let path = switch which {
        case "session": "\(Self.directory)/\(Self.expected.files.session)"
        case "tabs": "\(Self.directory)/\(Self.expected.files.tabs)"
        default: Self.directory
        }
        let result = try ChromiumSessionReader.read(at: path)
        let groups = result.archive.browsers.flatMap(\.groups)
        #expect(!groups.isEmpty)
        // The closed window's group is gone from Session_*: its window was closed there.
        let titles = Set(groups.map(\.title))
        let stored = Self.expected.savedGroups.filter { titles.contains($0.title) }
        #expect(stored.count == (which == "session" ? 2 : 3))
        for group in groups {
            let want = try #require(Self.expected.savedGroups.first { $0.title == group.title })
            #expect(result.savedGroupIDs[group.id] == want.guid)
            #expect(group.color.rawValue == want.color)
        }
        #expect(Set(result.savedGroupIDs.keys) == Set(groups.map(\.id)))
    }

    /// At exit Chromium records the open window in `Tabs_*` with a 16 SetTabSplitData per split tab.
    @Test func read_tabsFixture_theWindowRecordedAtExitHasItsSplits() throws {
        let result = try ChromiumSessionReader.read(at: "\(Self.directory)/\(Self.expected.files.tabs)")
        #expect(result.skipped.isEmpty)
        let window = Self.expected.windows[0]
        let browser = try #require(result.archive.browsers.first {
            Self.currentURLs($0) == window.tabs.map(\.url)
        })
        Self.expectSplits(browser, match: window)
    }

    // MARK: - Hand-built commands

    @Test func read_handEditedSplitOfOneTab_isDroppedAndCounted() throws {
        // Hand-edited copy of the fixture: the second tab of the first split loses its split (has_split = 0).
        var bytes = try Self.sessionBytes()
        let second = try #require(Frames.frames(bytes).filter { $0.id == 36 }.dropFirst().first)
        bytes[second.payloadStart + 24] = 0
        let result = try Self.readSession(bytes)
        try result.archive.check()
        let browser = try #require(result.archive.browsers.first)
        #expect(browser.splits.count == 1)
        #expect(browser.tabs.indices.filter { browser.tabs[$0].split != nil } == Self.expected.windows[0].splits[1])
        #expect(result.skipped == [
            "\(Self.expected.files.session): dropped 1 split view that is not two neighbouring tabs, both pinned "
                + "or neither, in one group (the tabs kept as single tabs)",
        ])
    }

    @Test func read_handBuiltSplitData_setsRatioAndLayout() throws {
        // Hand-built 37 appended to the fixture: the first split's token, ratio 0.3, "Horizontal".
        let bytes = try Self.sessionBytes()
        let first = try #require(Frames.frames(bytes).first { $0.id == 36 })
        let token = Array(bytes[(first.payloadStart + 8)..<(first.payloadStart + 24)])
        let data = Frames.pickle([token, Frames.double(0.3), Frames.string("Horizontal")])
        let result = try Self.readSession(bytes + Frames.frame(id: 37, payload: data))
        let browser = try #require(result.archive.browsers.first)
        try #require(browser.splits.count == 2)
        #expect(browser.splits[0].ratio == 0.3 && browser.splits[0].layout == .horizontal)
        #expect(browser.splits[1].ratio == 0.5 && browser.splits[1].layout == .vertical)
        #expect(result.skipped.isEmpty)
    }

    @Test func read_handBuiltTornSplitCommands_keepWhatCameBefore() throws {
        let bytes = try Self.sessionBytes()
        let first = try #require(Frames.frames(bytes).first { $0.id == 36 })
        let token = Array(bytes[(first.payloadStart + 8)..<(first.payloadStart + 24)])
        // Hand-built: a 36 whose frame says 33 bytes but the file ends after 10 (a torn tail).
        let torn = bytes + [33, 0, 36] + [UInt8](repeating: 0, count: 7)
        let tornResult = try Self.readSession(torn)
        Self.expectSplits(try #require(tornResult.archive.browsers.first), match: Self.expected.windows[0])
        #expect(tornResult.skipped.count == 1)
        #expect(tornResult.skipped.first?.contains("the file ends in the middle of a command at byte \(bytes.count)") == true)

        // Hand-built: a 36 of 20 bytes and a 37 whose layout string runs past its end, before the last command.
        let shortSplit = Frames.frame(id: 36, payload: [UInt8](repeating: 1, count: 19))
        var data = Frames.pickle([token, Frames.double(0.7), Frames.string("Horizontal")])
        data.removeLast(4)
        data.replaceSubrange(0..<4, with: Frames.littleEndian(UInt32(data.count - 4)))
        let tornData = Frames.frame(id: 37, payload: data)
        let result = try Self.readSession(bytes + shortSplit + tornData)
        let browser = try #require(result.archive.browsers.first)
        Self.expectSplits(browser, match: Self.expected.windows[0])
        #expect(browser.splits.allSatisfy { $0.ratio == 0.5 && $0.layout == .vertical })
        #expect(result.skipped == [
            "\(Self.expected.files.session): skipped 2 malformed commands (id 36 at byte \(bytes.count): "
                + "19 bytes where the payload is 32; id 37 at byte \(bytes.count + shortSplit.count): "
                + "the split layout needs 10 bytes, 8 left)",
        ])
    }

    @Test func read_handBuiltClosedSplit_givesItsTabsAsClosedTabs() throws {
        // Hand-built Tabs_ file: a 15 CreateSplit (ratio 0.4, horizontal), then two closed tabs copied from
        // the fixture (each a 4 SelectedNavigationInTab and its 1 UpdateTabNavigation), then a 15 whose
        // ratio is 1.5 (malformed, so the tab after it is a closed tab of its own).
        let tabs = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(Self.directory)/\(Self.expected.files.tabs)")))
        let frames = Frames.frames(tabs)
        let copied = frames.indices.filter { frames[$0].id == 4 }.prefix(3).map { start in
            let navigation = frames[(start + 1)...].first { $0.id == 1 }!
            return Array(tabs[frames[start].offset..<(frames[start].offset + 2 + frames[start].size)])
                + Array(tabs[navigation.offset..<(navigation.offset + 2 + navigation.size)])
        }
        let token = [UInt8](repeating: 7, count: 16)
        func createSplit(id: Int32, ratio: Double) -> [UInt8] {
            Frames.frame(id: 15, payload: Frames.pickle([
                token, Frames.littleEndian(id), Frames.littleEndian(Int64(13_440_326_795_018_573)), Frames.double(ratio),
                Frames.littleEndian(Int32(1)),
            ]))
        }
        let bytes = Array(tabs[..<8]) + createSplit(id: 900, ratio: 0.4) + copied[0] + copied[1]
            + createSplit(id: 901, ratio: 1.5) + copied[2]
        let result = try TemporaryDirectory.with { directory in
            let path = directory.file(Self.expected.files.tabs)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return try ChromiumSessionReader.read(at: path)
        }
        try result.archive.check()
        #expect(result.archive.closedEntries.map(\.kind) == [.tab, .tab, .tab])
        #expect(result.archive.closedEntries.allSatisfy { $0.tabs.count == 1 && $0.tabs[0].split == nil })
        let splitStart = bytes.count - copied[2].count - (createSplit(id: 901, ratio: 1.5).count)
        #expect(result.skipped == [
            "\(Self.expected.files.tabs): skipped 1 malformed command (id 15 at byte \(splitStart): "
                + "the split ratio 1.5 is not from 0 to 1)",
            "\(Self.expected.files.tabs): kept the tabs of 1 closed split view as closed tabs "
                + "(the store keeps no closed split views)",
        ])
    }

    // MARK: - Expected state

    /// What the fixture script recorded (`expected.json`).
    struct Expected: Decodable {
        struct Group: Decodable {
            var title: String
            var color: String
        }

        struct Tab: Decodable {
            var url: String
            var group: Group?
            var split: Int?
        }

        struct Window: Decodable {
            var selectedIndex: Int
            var tabs: [Tab]
            var splits: [[Int]]
        }

        struct ClosedWindow: Decodable {
            var tabs: [Tab]
        }

        struct SavedGroup: Decodable {
            var guid: String
            var title: String
            var color: String
            var tabs: [Page]
        }

        struct Page: Decodable {
            var url: String
            var title: String
        }

        struct Files: Decodable {
            var session: String
            var tabs: String
        }

        var windows: [Window]
        var closedWindowsByScript: [ClosedWindow]
        var savedGroups: [SavedGroup]
        var files: Files
    }

    static let directory: String = {
        // The resource folder is declared in Package.swift (`.copy("Fixtures")`).
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("chromium-2026").path
    }()

    static let expected: Expected = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        // The file ships with the tests; a missing or changed one is a broken checkout.
        return try! decoder.decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: "\(directory)/expected.json")))
    }()

    static func currentURLs(_ browser: SessionArchive.Browser) -> [String] {
        browser.tabs.map { $0.history.entries[$0.history.currentIndex!].url }
    }

    /// Checks the browser's tabs, groups and splits against a window of expected.json.
    static func expectSplits(_ browser: SessionArchive.Browser, match window: Expected.Window) {
        #expect(currentURLs(browser) == window.tabs.map(\.url))
        #expect(browser.splits.count == window.splits.count)
        for (split, members) in zip(browser.splits, window.splits) {
            #expect(browser.tabs.indices.filter { browser.tabs[$0].split == split.id } == members)
        }
        for (tab, want) in zip(browser.tabs, window.tabs) {
            #expect(tab.split.flatMap { id in browser.splits.firstIndex { $0.id == id } } == want.split)
            #expect(tab.group.flatMap { id in browser.groups.first { $0.id == id }?.title } == want.group?.title)
        }
    }

    static func sessionBytes() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(expected.files.session)")))
    }

    /// Reads `bytes` as a `Session_*` file named like the fixture's.
    static func readSession(_ bytes: [UInt8]) throws -> BrowserImport {
        try TemporaryDirectory.with { directory in
            let path = directory.file(expected.files.session)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return try ChromiumSessionReader.read(at: path)
        }
    }
}
