import Foundation
import SessionModel
import SessionStorage

/// Reads Chromium's session command logs (SNSS files) into this store's
/// import document.
///
/// - `Session_*` gives the open windows: normal windows with their tabs in
///   strip order, each tab's history, current entry, pinned state and group
///   (title, colour, collapsed), the selected tab, and which window was active
///   (made the most recently active browser). Popup, app and devtools windows
///   are skipped and counted.
/// - `Tabs_*` gives the recently closed tabs, groups and windows, most recent
///   first. At exit Chromium records the windows still open there as closed
///   windows too; a closed window whose tabs show the same pages as an open
///   window of `Session_*` is that window again: it gives the open window the
///   titles `Session_*` lacked (Chromium writes a tab's first entry there
///   before its title is known), and is left out (and counted).
/// - Split views (commands 36 and 37, and `Tabs_*` 15 and 16) become splits
///   when they hold two neighbouring tabs, both pinned or neither, in one
///   group; others are dropped and counted. A closed split view's tabs become
///   closed tabs (the store keeps no closed splits), counted.
/// - A group Chromium marks saved (command 27's `is_saved`) stays an
///   ordinary group of its window, its saved id in
///   ``BrowserImport/savedGroupIDs``. A saved group Chromium closed is in
///   neither file: Chromium keeps it in its saved-tab-group sync store
///   (`Sync Data/LevelDB`), which is not read, so the document has no saved
///   groups from Chromium.
///
/// Unknown command ids and unreadable payloads are skipped and counted in
/// ``BrowserImport/skipped`` (Chromium itself stops at the first one); a file
/// cut in the middle of a command keeps what came before, with a note.
/// Encrypted files (`Sessions_Encrypted/`, SNSS version 5) are not read.
public enum ChromiumSessionReader {
    /// The largest file read: 64 MiB, far above any real session log (a few MiB
    /// for thousands of tabs), so that a crafted file cannot make the replay run for long.
    public static let maximumFileSize: Int64 = 64 << 20

    /// Reads the session at `path`: one `Session_*` (or `Tabs_*`) file, a
    /// `Sessions/` directory, or a profile directory (`Default/`, or the user
    /// data directory) whose `Sessions/` holds the files. In a directory, the
    /// newest `Session_*` and the newest `Tabs_*` are read.
    ///
    /// - Throws: ``BrowserFileError`` for a missing path, a directory without a
    ///   session file, an empty file, or a header that is not `SNSS` version 3.
    public static func read(at path: String) throws -> BrowserImport {
        let files = try ChromiumSessionFiles.locate(path)
        var browsers: [SessionArchive.Browser] = []
        var closedEntries: [SessionArchive.ClosedEntry] = []
        var skipped: [String] = []
        var savedGroupIDs: [TabGroupID: String] = [:]
        if let sessionPath = files.session {
            let file = try load(sessionPath)
            var notes = ChromiumReadNotes(fileName: (sessionPath as NSString).lastPathComponent)
            note(file.snss, in: &notes)
            let windows = ChromiumSessionLog(file: file.snss, notes: &notes).restoredWindows(notes: &notes)
            var builder = ChromiumArchiveBuilder(fallbackTime: file.modified)
            browsers = openBrowsers(windows, builder: &builder)
            builder.note(into: &notes)
            savedGroupIDs.merge(builder.savedGroupIDs) { first, _ in first }
            skipped += notes.lines
        }
        if let tabsPath = files.tabs {
            let name = (tabsPath as NSString).lastPathComponent
            do {
                let file = try load(tabsPath)
                var notes = ChromiumReadNotes(fileName: name)
                note(file.snss, in: &notes)
                let log = ChromiumTabRestoreLog(file: file.snss, notes: &notes)
                var builder = ChromiumArchiveBuilder(fallbackTime: file.modified)
                var closed = closedItems(log, builder: &builder, notes: &notes)
                Self.dropReopenedWindows(&closed, open: &browsers, notes: &notes)
                browsers += closed.browsers
                closedEntries = closed.entries
                builder.note(into: &notes)
                savedGroupIDs.merge(builder.savedGroupIDs) { first, _ in first }
                skipped += notes.lines
            } catch {
                // A directory's Tabs_* file only adds closed entries: a bad one is noted, not fatal.
                guard files.fromDirectory else { throw error }
                skipped.append("\(name): not read: \(error.reason)")
            }
        }
        let archive = SessionArchive(browsers: browsers, closedEntries: closedEntries)
        do {
            try archive.check()
        } catch {
            throw BrowserFileError(path: path, reason: "the session does not make a valid document: \(error)")
        }
        var result = BrowserImport(archive: archive, skipped: skipped)
        let kept = Set(browsers.flatMap { $0.groups.map(\.id) } + closedEntries.compactMap { $0.group?.id })
        result.savedGroupIDs = savedGroupIDs.filter { kept.contains($0.key) }
        return result
    }

    /// A file's frames and modification time.
    private static func load(_ path: String) throws(BrowserFileError) -> (snss: SNSSFile, modified: Date) {
        // Only a regular file of a session's size: a FIFO or a device would never end.
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let found = (try? FileManager.default.attributesOfItem(atPath: resolved)) ?? [:]
        guard found[.type] as? FileAttributeType == .typeRegular else {
            throw BrowserFileError(path: path, reason: "not a regular file")
        }
        if let size = (found[.size] as? NSNumber)?.int64Value, size > maximumFileSize {
            throw BrowserFileError(path: path, reason: "\(size) bytes is larger than any session file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BrowserFileError(path: path, reason: "cannot be read")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let modified = (attributes?[.modificationDate] as? Date ?? Date()).chromiumMilliseconds
        return (try SNSSFile(bytes: [UInt8](data), path: path), modified)
    }

    private static func note(_ file: SNSSFile, in notes: inout ChromiumReadNotes) {
        if let stop = file.stoppedEarly {
            let count = file.commands.count
            notes.note("\(stop); kept the \(count) \(count == 1 ? "command" : "commands") before it")
        }
    }

    /// The open windows as browsers; the active one becomes the most recently active.
    private static func openBrowsers(
        _ windows: [ChromiumRestoredWindow], builder: inout ChromiumArchiveBuilder
    ) -> [SessionArchive.Browser] {
        var browsers: [SessionArchive.Browser] = []
        var active: Int?
        for window in windows {
            guard let browser = builder.browser(window) else { continue }
            if window.isActive { active = browsers.count }
            browsers.append(browser)
        }
        if let active {
            let others = browsers.indices.filter { $0 != active }.map { browsers[$0].lastActiveAt }
            if let latest = others.max(), latest >= browsers[active].lastActiveAt {
                browsers[active].lastActiveAt = latest.addingTimeInterval(0.001)
            }
        }
        return browsers
    }

    /// The closed entries, most recent first, and the browsers of the closed windows.
    private static func closedItems(
        _ log: ChromiumTabRestoreLog, builder: inout ChromiumArchiveBuilder, notes: inout ChromiumReadNotes
    ) -> (entries: [SessionArchive.ClosedEntry], browsers: [SessionArchive.Browser]) {
        var entries: [SessionArchive.ClosedEntry] = []
        var browsers: [SessionArchive.Browser] = []
        var skippedWindows: [String] = []
        var closedSplits = 0
        for entry in log.entries {
            let id = ClosedEntryID()
            let closedAt = entry.closedAt ?? builder.fallbackTime
            switch entry.kind {
            case .tab:
                guard let source = entry.tabs.first, let tab = builder.tab(restored(source)) else { continue }
                var group: SessionArchive.Group?
                if let visuals = source.group?.visuals { group = builder.group(visuals) }
                entries.append(SessionArchive.ClosedEntry(id: id, kind: .tab, closedAt: closedAt, group: group, tabs: [tab]))
            case .group(_, let visuals):
                var tabs: [SessionArchive.Tab] = []
                for source in entry.tabs {
                    guard var tab = builder.tab(restored(source)) else { continue }
                    tab.pinned = false
                    tabs.append(tab)
                }
                guard !tabs.isEmpty else { continue }
                entries.append(SessionArchive.ClosedEntry(
                    id: id, kind: .group, closedAt: closedAt, group: builder.group(visuals), tabs: tabs))
            case .split:
                let tabs = entry.tabs.compactMap { builder.tab(restored($0)) }
                guard !tabs.isEmpty else { continue }
                closedSplits += 1
                for (offset, tab) in tabs.enumerated() {
                    entries.append(SessionArchive.ClosedEntry(
                        id: offset == 0 ? id : ClosedEntryID(), kind: .tab, closedAt: closedAt, tabs: [tab]))
                }
            case .window(let type):
                guard type == .normal else {
                    skippedWindows.append("\(type.name), \(entry.tabs.count) \(entry.tabs.count == 1 ? "tab" : "tabs")")
                    continue
                }
                var groups: [ChromiumToken: ChromiumGroupVisuals] = [:]
                var splits: [ChromiumToken: ChromiumSplitVisuals] = [:]
                for tab in entry.tabs {
                    if let group = tab.group { groups[group.token] = group.visuals }
                    if let split = tab.split { splits[split.token] = split.visuals }
                }
                let window = ChromiumRestoredWindow(
                    tabs: entry.tabs.map(restored), selectedIndex: Int(entry.selectedTabIndex), groups: groups,
                    splits: splits, isActive: false)
                guard let browser = builder.browser(window, closedEntry: id) else { continue }
                browsers.append(browser)
                entries.append(SessionArchive.ClosedEntry(id: id, kind: .window, closedAt: closedAt, browser: browser.id))
            }
        }
        if closedSplits > 0 {
            notes.note("kept the tabs of \(closedSplits) closed split \(closedSplits == 1 ? "view" : "views") "
                + "as closed tabs (the store keeps no closed split views)")
        }
        if !skippedWindows.isEmpty {
            notes.note("skipped \(skippedWindows.count) closed \(skippedWindows.count == 1 ? "window that is" : "windows that are") "
                + "not a normal browser window (\(skippedWindows.joined(separator: "; ")))")
        }
        return (entries, browsers)
    }

    /// Leaves out the closed windows that are open windows recorded again at exit
    /// (the same pages, each tab's current URL in order, as an open browser), after
    /// taking from them the titles the open window's entries lack.
    private static func dropReopenedWindows(
        _ closed: inout (entries: [SessionArchive.ClosedEntry], browsers: [SessionArchive.Browser]),
        open: inout [SessionArchive.Browser], notes: inout ChromiumReadNotes
    ) {
        func pages(_ browser: SessionArchive.Browser) -> [String] {
            browser.tabs.map { tab in
                tab.history.currentIndex.flatMap { tab.history.entries.indices.contains($0) ? tab.history.entries[$0].url : nil } ?? ""
            }
        }
        for index in open.indices {
            guard let copy = closed.browsers.first(where: { pages($0) == pages(open[index]) }) else { continue }
            for (tab, copied) in zip(open[index].tabs.indices, copy.tabs) {
                for entry in open[index].tabs[tab].history.entries.indices where open[index].tabs[tab].history.entries[entry].title.isEmpty {
                    let url = open[index].tabs[tab].history.entries[entry].url
                    if let title = copied.history.entries.first(where: { $0.url == url && !$0.title.isEmpty })?.title {
                        open[index].tabs[tab].history.entries[entry].title = title
                    }
                }
            }
        }
        let openPages = Set(open.map(pages))
        let dropped = Set(closed.browsers.filter { openPages.contains(pages($0)) }.compactMap(\.closedEntry))
        guard !dropped.isEmpty else { return }
        closed.browsers.removeAll { $0.closedEntry.map(dropped.contains) ?? false }
        closed.entries.removeAll { dropped.contains($0.id) }
        notes.note("left out \(dropped.count) closed \(dropped.count == 1 ? "window that is" : "windows that are") "
            + "an open window recorded again at exit")
    }

    private static func restored(_ tab: ChromiumTabRestoreLog.Tab) -> ChromiumRestoredTab {
        ChromiumRestoredTab(
            navigations: tab.navigations, currentIndex: Int(tab.currentIndex), pinned: tab.pinned,
            group: tab.group?.token, split: tab.split?.token, lastActive: nil)
    }
}

extension Date {
    /// This date cut to the millisecond, as Chromium's times are read.
    fileprivate var chromiumMilliseconds: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
