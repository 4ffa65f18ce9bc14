import Foundation
import SessionInterop
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Reads the fixtures that `Scripts/fixtures/make-chromium-fixtures.py` made
/// with the real Chromium (see `Fixtures/chromium/VERSIONS`), and damaged
/// copies of them in temporary directories.
@Suite struct ChromiumSessionReaderTests {
    // MARK: - Fixtures

    /// What the script recorded from the running browser (`expected.json`).
    struct Expected: Decodable {
        struct Window: Decodable {
            var selectedIndex: Int
            var tabs: [Tab]
        }

        struct Tab: Decodable {
            var url: String
            var title: String
            var pinned: Bool
            var group: Group?
            var currentIndex: Int
            var history: [Page]
        }

        struct Group: Decodable, Equatable {
            var title: String
            var color: String
            var collapsed: Bool
        }

        struct Page: Decodable {
            var url: String
            var title: String
        }

        struct ClosedTab: Decodable {
            var url: String
            var title: String
            var history: [String]
            var currentIndex: Int
        }

        struct Files: Decodable {
            var session: String
            var tabs: String
        }

        var windows: [Window]
        var closedTabs: [ClosedTab]
        var files: Files
    }

    static let directory: String = {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            fatalError("the test bundle has no Fixtures folder")
        }
        return url.appendingPathComponent("chromium").path
    }()

    static let expected: Expected = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/expected.json"))
            return try decoder.decode(Expected.self, from: data)
        } catch {
            fatalError("expected.json cannot be read: \(error)")
        }
    }()

    private var sessionPath: String { "\(Self.directory)/\(Self.expected.files.session)" }
    private var tabsPath: String { "\(Self.directory)/\(Self.expected.files.tabs)" }

    private func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The command frames of an SNSS file, walked here independently of the reader.
    private func frames(_ bytes: [UInt8]) -> [SNSSTestFrames.Frame] {
        SNSSTestFrames.frames(bytes)
    }

    private func frame(id: UInt8, size: Int, filler: UInt8) -> [UInt8] {
        [UInt8(size & 0xFF), UInt8(size >> 8), id] + [UInt8](repeating: filler, count: size - 1)
    }

    /// Writes `bytes` as a `Session_*` file named like the fixture in a new directory.
    private func write(_ bytes: [UInt8], in directory: TemporaryDirectory, name: String? = nil) throws -> String {
        let path = directory.file(name ?? Self.expected.files.session)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func openBrowsers(_ archive: SessionArchive) -> [SessionArchive.Browser] {
        archive.browsers.filter { $0.closedEntry == nil }
    }

    private func currentURLs(_ browser: SessionArchive.Browser) -> [String] {
        browser.tabs.map { $0.history.entries[$0.history.currentIndex!].url }
    }

    /// Checks the open windows against expected.json.
    ///
    /// Titles must match, except for Chromium's documented quirk: the current
    /// entry of a tab that never navigated away may be written before its title
    /// is known, so an empty title is accepted there and nowhere else.
    private func expectOpenWindowsMatch(_ archive: SessionArchive) {
        let browsers = openBrowsers(archive)
        let expected = Self.expected.windows
        #expect(browsers.count == expected.count)
        for (browser, window) in zip(browsers, expected) {
            #expect(browser.tabs.count == window.tabs.count)
            #expect(currentURLs(browser) == window.tabs.map(\.url))
            let selected = browser.tabs.firstIndex { $0.id == browser.activeTab }
            #expect(selected == window.selectedIndex)
            for (tab, expectedTab) in zip(browser.tabs, window.tabs) {
                #expect(tab.pinned == expectedTab.pinned)
                let group = tab.group.flatMap { id in browser.groups.first { $0.id == id } }
                let actualGroup = group.map { Expected.Group(title: $0.title, color: $0.color.rawValue, collapsed: $0.collapsed) }
                #expect(actualGroup == expectedTab.group)
                #expect(tab.history.currentIndex == expectedTab.currentIndex)
                #expect(tab.history.entries.map(\.url) == expectedTab.history.map(\.url))
                for (position, (entry, page)) in zip(tab.history.entries, expectedTab.history).enumerated() {
                    let quirk = entry.title.isEmpty && tab.history.entries.count == 1 && position == tab.history.currentIndex
                    #expect(entry.title == page.title || quirk, "title of \(entry.url)")
                }
            }
        }
    }

    // MARK: - The fixtures

    @Test func read_sessionFixture_matchesWhatTheScriptDid() throws {
        let result = try ChromiumSessionReader.read(at: Self.directory)
        expectOpenWindowsMatch(result.archive)
        // The tab that went 2 -> 3 -> 4 and back keeps every title, and its transitions.
        let history = try #require(openBrowsers(result.archive).first?.tabs[1].history)
        #expect(history.entries.map(\.title) == ["Chromium page 2", "Chromium page 3", "Chromium page 4"])
        #expect(history.entries.map(\.transition) == [.autoToplevel, .link, .link])
        #expect(history.entries.allSatisfy { $0.httpStatus == 200 && $0.referrerPolicy == .strictOriginWhenCrossOrigin })
        // Going back re-commits page 3, so Chromium stamps it after page 4.
        #expect(history.entries[0].timestamp <= history.entries[2].timestamp)
        #expect(history.entries[2].timestamp <= history.entries[1].timestamp)
    }

    @Test func read_sessionFixture_skipsThePopupWindowAndSaysSo() throws {
        let result = try ChromiumSessionReader.read(at: sessionPath)
        #expect(result.skipped == [
            "\(Self.expected.files.session): skipped 1 window that is not a normal browser window (popup, 1 tab)",
        ])
        #expect(result.archive.closedEntries.isEmpty)
        #expect(!currentURLs(openBrowsers(result.archive)[0]).contains { $0.hasSuffix("chromium-page-12.html") })
    }

    @Test func read_sessionFixture_makesTheActiveWindowTheMostRecent() throws {
        let browsers = openBrowsers(try ChromiumSessionReader.read(at: sessionPath).archive)
        // The script focused the first window last.
        #expect(browsers.count == 2)
        #expect(browsers[0].lastActiveAt > browsers[1].lastActiveAt)
    }

    @Test func read_tabsFixture_givesTheClosedTabsMostRecentFirst() throws {
        let archive = try ChromiumSessionReader.read(at: Self.directory).archive
        let closedTabs = archive.closedEntries.filter { $0.kind == .tab }
        #expect(closedTabs.count == Self.expected.closedTabs.count)
        for (entry, expected) in zip(closedTabs, Self.expected.closedTabs) {
            let tab = try #require(entry.tabs.first)
            #expect(tab.history.entries.map(\.url) == expected.history)
            #expect(tab.history.currentIndex == expected.currentIndex)
            #expect(tab.history.entries[expected.currentIndex].url == expected.url)
            #expect(tab.history.entries[expected.currentIndex].title == expected.title)
        }
        #expect(closedTabs.map(\.closedAt) == closedTabs.map(\.closedAt).sorted(by: >))
    }

    /// Chromium records the windows still open at Browser.close in Tabs_* as closed windows:
    /// read with Session_*, they are the open windows again, left out and counted.
    @Test func read_directory_leavesOutTheOpenWindowsTabsRecordsAgainAtExit() throws {
        let result = try ChromiumSessionReader.read(at: Self.directory)
        #expect(result.archive.closedEntries.filter { $0.kind == .window }.isEmpty)
        #expect(result.archive.browsers.allSatisfy { $0.closedEntry == nil })
        // The titles Session_* lacked come from those copies: every open tab has its title.
        let titles = openBrowsers(result.archive).map { $0.tabs.map { $0.history.entries[$0.history.currentIndex!].title } }
        #expect(titles == Self.expected.windows.map { $0.tabs.map(\.title) })
        #expect(result.skipped.contains {
            $0.hasSuffix("left out \(Self.expected.windows.count) closed windows that are an open window recorded again at exit")
        }, "\(result.skipped)")
    }

    @Test func read_tabsFixture_holdsTheWindowsOpenAtExitAsClosedWindows() throws {
        // Read alone, Tabs_* gives the windows open at Browser.close as closed windows.
        let archive = try ChromiumSessionReader.read(at: tabsPath).archive
        let closedWindows = archive.closedEntries.filter { $0.kind == .window }
        let closedBrowsers = closedWindows.compactMap { entry in archive.browsers.first { $0.closedEntry == entry.id } }
        #expect(closedBrowsers.count == Self.expected.windows.count)
        let openTabs = Set(Self.expected.windows.map { $0.tabs.map(\.url) })
        #expect(Set(closedBrowsers.map(currentURLs)) == openTabs)
        for browser in closedBrowsers {
            let window = try #require(Self.expected.windows.first { $0.tabs.map(\.url) == currentURLs(browser) })
            #expect(browser.tabs.map(\.pinned) == window.tabs.map(\.pinned))
            #expect(browser.groups.map(\.title) == Array(Set(window.tabs.compactMap(\.group?.title))).sorted())
            // Tabs_* has the titles that Session_* lacked.
            #expect(browser.tabs.map { $0.history.entries[$0.history.currentIndex!].title } == window.tabs.map(\.title))
        }
    }

    @Test(arguments: ["directory", "session", "tabs"])
    func read_everyFixture_passesTheDocumentCheck(which: String) throws {
        let path = switch which {
        case "session": sessionPath
        case "tabs": tabsPath
        default: Self.directory
        }
        let result = try ChromiumSessionReader.read(at: path)
        try result.archive.check()
        if which == "tabs" {
            #expect(openBrowsers(result.archive).isEmpty)
            #expect(result.archive.closedEntries.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.tab, .tab, .window, .window])
            #expect(result.skipped.isEmpty)
        }
    }

    @Test func read_fixture_importsIntoAStoreAndReadsBack() throws {
        let archive = try ChromiumSessionReader.read(at: Self.directory).archive
        let store = try TemporaryStore.onDisk()
        try store.database.importArchive(archive)
        try store.reopen()
        let storedBrowsers = try store.browsers.browsers()
        #expect(Set(storedBrowsers.map(\.id)) == Set(openBrowsers(archive).map(\.id)))
        for (browser, window) in zip(openBrowsers(archive), Self.expected.windows) {
            let list = try store.tabs.webStateList(in: browser.id)
            #expect(list.count == window.tabs.count)
            #expect(list.activeIndex == window.selectedIndex)
            #expect(list.entries.map(\.isPinned) == window.tabs.map(\.pinned))
            #expect(list.orderedGroups.map(\.visualData.title) == window.tabs.compactMap(\.group?.title).reduce(into: []) {
                if $0.last != $1 { $0.append($1) }
            })
            for (entry, tab) in zip(list.entries, window.tabs) {
                let history = try store.histories.history(of: entry.id)
                #expect(history.items.map(\.url) == tab.history.map(\.url))
                #expect(history.currentIndex == tab.currentIndex)
                if let group = entry.groupID {
                    #expect(list.groups[group]?.visualData.color.rawValue == tab.group?.color)
                    #expect(list.groups[group]?.visualData.isCollapsed == tab.group?.collapsed)
                }
            }
        }
        let closed = try SQLiteRecentlyClosedRepository(database: store.database).entries()
        #expect(closed.filter { $0.kind == .tab }.map { $0.tabs.first?.page?.url }
            == Self.expected.closedTabs.map(\.url))
        #expect(closed.filter { $0.kind == .window }.isEmpty)  // the open windows again: left out
    }

    // MARK: - Where the files are

    @Test func read_profileDirectory_findsTheNewestFilesInDefaultSessions() throws {
        try TemporaryDirectory.with { directory in
            let sessions = directory.file("Default/Sessions")
            try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
            // An older, damaged pair that must not be chosen.
            try Data("SNSS".utf8).write(to: URL(fileURLWithPath: "\(sessions)/Session_13000000000000000"))
            try Data().write(to: URL(fileURLWithPath: "\(sessions)/Tabs_13000000000000000"))
            for name in [Self.expected.files.session, Self.expected.files.tabs] {
                try FileManager.default.copyItem(atPath: "\(Self.directory)/\(name)", toPath: "\(sessions)/\(name)")
            }
            for path in [directory.path, directory.file("Default"), sessions] {
                let result = try ChromiumSessionReader.read(at: path)
                expectOpenWindowsMatch(result.archive)
                #expect(result.archive.closedEntries.count == Self.expected.closedTabs.count)
            }
        }
    }

    @Test func read_emptyDirectory_isRefused() throws {
        try TemporaryDirectory.with { directory in
            let path = directory.path
            #expect(throws: BrowserFileError(
                path: path, reason: "no Session_* file in it, in Sessions/ or in Default/Sessions/"
            )) {
                try ChromiumSessionReader.read(at: path)
            }
        }
    }

    @Test func read_missingPath_isRefused() throws {
        try TemporaryDirectory.with { directory in
            let path = directory.file("nothing-here")
            #expect(throws: BrowserFileError(path: path, reason: "no such file or directory")) {
                try ChromiumSessionReader.read(at: path)
            }
        }
    }

    // MARK: - Bad input

    @Test func read_wrongMagic_isRefused() throws {
        var bytes = try bytes(sessionPath)
        bytes[0] = UInt8(ascii: "X")
        try TemporaryDirectory.with { directory in
            let path = try write(bytes, in: directory)
            #expect(throws: BrowserFileError(
                path: path, reason: "not a Chromium session file: it starts with 58 4e 53 53, not \"SNSS\""
            )) {
                try ChromiumSessionReader.read(at: path)
            }
        }
    }

    @Test(arguments: [(Int32(1), ""), (4, ""), (5, " (the encrypted format of Sessions_Encrypted/; read Sessions/ instead)")])
    func read_unsupportedVersion_isRefused(version: Int32, hint: String) throws {
        var bytes = try bytes(sessionPath)
        withUnsafeBytes(of: version.littleEndian) { bytes.replaceSubrange(4..<8, with: $0) }
        try TemporaryDirectory.with { directory in
            let path = try write(bytes, in: directory)
            #expect(throws: BrowserFileError(
                path: path, reason: "SNSS version \(version) is not supported, only version 3\(hint)"
            )) {
                try ChromiumSessionReader.read(at: path)
            }
        }
    }

    @Test func read_emptyFile_isRefused() throws {
        try TemporaryDirectory.with { directory in
            let path = try write([], in: directory)
            #expect(throws: BrowserFileError(path: path, reason: "the file is empty")) {
                try ChromiumSessionReader.read(at: path)
            }
            // In a directory too: the newest Session_* is the one read.
            #expect(throws: BrowserFileError(path: path, reason: "the file is empty")) {
                try ChromiumSessionReader.read(at: directory.path)
            }
        }
    }

    @Test func read_headerOnlyHalfThere_isRefused() throws {
        try TemporaryDirectory.with { directory in
            let path = try write(Array("SNSS".utf8), in: directory)
            #expect(throws: BrowserFileError(path: path, reason: "4 bytes is too short for an SNSS header (8 bytes)")) {
                try ChromiumSessionReader.read(at: path)
            }
        }
    }

    @Test func read_fileCutMidCommand_keepsWhatCameBeforeWithANote() throws {
        let full = try bytes(sessionPath)
        let all = frames(full)
        // Cut inside the last command (the popup window's bounds): everything else is intact.
        let last = try #require(all.last)
        let cut = Array(full[..<(last.offset + 7)])
        let kept = all.dropLast().filter { $0.id != 255 }.count
        try TemporaryDirectory.with { directory in
            let path = try write(cut, in: directory)
            let result = try ChromiumSessionReader.read(at: path)
            expectOpenWindowsMatch(result.archive)
            #expect(result.skipped.contains(
                "\(Self.expected.files.session): the file ends in the middle of a command at byte \(last.offset) "
                    + "(5 of its \(last.size) bytes); kept the \(kept) commands before it"))
        }
        // Cut after one byte of a size field.
        try TemporaryDirectory.with { directory in
            let path = try write(full + [0x10], in: directory)
            let result = try ChromiumSessionReader.read(at: path)
            expectOpenWindowsMatch(result.archive)
            #expect(result.skipped.first == "\(Self.expected.files.session): the file ends in the middle of a "
                + "command frame at byte \(full.count) (1 of its 2 size bytes); kept the \(all.filter { $0.id != 255 }.count) commands before it")
        }
    }

    @Test func read_unknownCommandIDs_areSkippedAndCounted_andTheRestIsRead() throws {
        let full = try bytes(sessionPath)
        let splice = frame(id: 200, size: 9, filler: 0xAB) + frame(id: 201, size: 1, filler: 0) + frame(id: 200, size: 300, filler: 7)
        let middle = try #require(frames(full).dropFirst(40).first).offset
        let spliced = Array(full[..<middle]) + splice + Array(full[middle...])
        try TemporaryDirectory.with { directory in
            let path = try write(spliced, in: directory)
            let result = try ChromiumSessionReader.read(at: path)
            expectOpenWindowsMatch(result.archive)
            #expect(result.skipped.first == "\(Self.expected.files.session): skipped 3 commands of unknown ids 200, 201")
        }
        let tabs = try bytes(tabsPath)
        try TemporaryDirectory.with { directory in
            let path = try write(Array(tabs[..<8]) + frame(id: 99, size: 4, filler: 1) + Array(tabs[8...]), in: directory,
                                 name: Self.expected.files.tabs)
            let result = try ChromiumSessionReader.read(at: path)
            #expect(result.skipped == ["\(Self.expected.files.tabs): skipped 1 command of unknown id 99"])
            #expect(result.archive.closedEntries.count == Self.expected.closedTabs.count + Self.expected.windows.count)
        }
    }

    @Test func read_navigationWhoseStringLengthLies_isSkippedAndCounted() throws {
        var bytes = try bytes(sessionPath)
        // The first navigation of the tab that went 10 -> 11 and was closed: its loss changes nothing.
        let navigation = try #require(frames(bytes).first { frame in
            frame.id == 6 && String(decoding: bytes[(frame.payloadStart + 16)..<(frame.payloadStart + 76)], as: UTF8.self)
                .contains("chromium-page-10.html")
        })
        // Payload: uint32 pickle size, int32 tab id, int32 index, int32 URL length, URL...
        let lie: Int32 = 0x7FFF_0000
        withUnsafeBytes(of: lie.littleEndian) {
            bytes.replaceSubrange((navigation.payloadStart + 12)..<(navigation.payloadStart + 16), with: $0)
        }
        let left = navigation.size - 1 - 16
        try TemporaryDirectory.with { directory in
            let path = try write(bytes, in: directory)
            let result = try ChromiumSessionReader.read(at: path)
            expectOpenWindowsMatch(result.archive)
            #expect(result.skipped.first == "\(Self.expected.files.session): skipped 1 malformed command "
                + "(id 6 at byte \(navigation.offset): the URL needs \(lie) bytes, \(left) left)")
        }
    }

    @Test func read_pickleHeaderThatLies_isSkippedAndCounted() throws {
        var bytes = try bytes(sessionPath)
        let metadata = try #require(frames(bytes).last { $0.id == 27 })
        let lie: UInt32 = 4096
        withUnsafeBytes(of: lie.littleEndian) {
            bytes.replaceSubrange(metadata.payloadStart..<(metadata.payloadStart + 4), with: $0)
        }
        try TemporaryDirectory.with { directory in
            let path = try write(bytes, in: directory)
            let result = try ChromiumSessionReader.read(at: path)
            #expect(result.skipped.first == "\(Self.expected.files.session): skipped 1 malformed command "
                + "(id 27 at byte \(metadata.offset): the pickle header names 4096 bytes of data in a "
                + "\(metadata.size - 1)-byte payload)")
            try result.archive.check()
        }
    }

    @Test func read_fixedPayloadOfTheWrongSize_isSkippedAndCounted() throws {
        let full = try bytes(sessionPath)
        // A selected-tab command (8 bytes) with 3 bytes only, spliced before the end.
        let spliced = Array(full[..<8]) + frame(id: 8, size: 4, filler: 1) + Array(full[8...])
        try TemporaryDirectory.with { directory in
            let path = try write(spliced, in: directory)
            let result = try ChromiumSessionReader.read(at: path)
            expectOpenWindowsMatch(result.archive)
            #expect(result.skipped.first == "\(Self.expected.files.session): skipped 1 malformed command "
                + "(id 8 at byte 8: 3 bytes where the payload is 8)")
        }
    }
}
