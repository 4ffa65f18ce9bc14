import Foundation

/// The open windows of a `Session_*` file, replayed as Chromium's
/// `RestoreSessionFromCommands` does (`components/sessions/core/session_service_commands.cc`:
/// `CreateTabsAndWindows`, `AddTabsToWindows`, `SortTabsBasedOnVisualOrderAndClear`,
/// `UpdateSelectedTabIndex`):
/// - a tab's group and split view are tokens that its window's groups and
///   split views are found by; a split view without data takes Chromium's
///   defaults (half and half, side by side);
/// - commands apply in file order, later ones overriding earlier ones; a tab or
///   window springs into being at the first command naming it;
/// - tab closed and window closed commands remove them; navigation-path-pruned
///   commands remove entries and renumber the rest;
/// - in the end, tabs without a window or without entries are dropped; windows
///   without a type command (Chromium's "constrained" windows), closed
///   windows and windows without tabs are dropped; tabs are ordered by their
///   visual index (then id), windows by id (creation order).
///
/// Unlike Chromium, which stops at the first unknown or unreadable command,
/// such commands are skipped and counted in the notes.
struct ChromiumSessionLog {
    private struct Tab {
        var windowID: Int32 = 0
        var visualIndex: Int32 = -1
        var navigations: [ChromiumNavigation] = []
        var currentIndex: Int32 = -1
        var pinned = false
        var group: ChromiumToken?
        var split: ChromiumToken?
        var lastActive: Date?
    }

    private struct Window {
        var selectedTabIndex: Int32 = -1
        var type: ChromiumWindowType?
    }

    private var tabs: [Int32: Tab] = [:]
    private var windows: [Int32: Window] = [:]
    private var groups: [ChromiumToken: ChromiumGroupVisuals] = [:]
    private var splits: [ChromiumToken: ChromiumSplitVisuals] = [:]
    private var activeWindow: Int32?

    /// Replays `file`'s commands, noting what it skips in `notes`.
    init(file: SNSSFile, notes: inout ChromiumReadNotes) {
        for command in file.commands {
            guard let id = SessionCommandID(rawValue: command.id) else {
                notes.unknown(command)
                continue
            }
            do {
                try apply(id, FixedPayload(command.payload))
            } catch {
                notes.malformed(command, error)
            }
        }
    }

    private mutating func apply(_ id: SessionCommandID, _ payload: FixedPayload) throws(MalformedPayload) {
        switch id {
        case .setTabWindow:
            try payload.expectSize(8)
            tabs[payload.int32(at: 4)!, default: Tab()].windowID = payload.int32(at: 0)!
        case .setTabIndexInWindow:
            try payload.expectSize(8)
            tabs[payload.int32(at: 0)!, default: Tab()].visualIndex = payload.int32(at: 4)!
        case .tabClosed, .windowClosed:
            try payload.expectSize(16)
            if id == .tabClosed {
                tabs[payload.int32(at: 0)!] = nil
            } else {
                windows[payload.int32(at: 0)!] = nil
            }
        case .tabNavigationPathPrunedFromBack:
            try payload.expectSize(8)
            let index = payload.int32(at: 4)!
            tabs[payload.int32(at: 0)!, default: Tab()].navigations.removeAll { $0.index >= index }
        case .tabNavigationPathPrunedFromFront:
            try payload.expectSize(8)
            let count = payload.int32(at: 4)!
            guard count > 0 else { throw MalformedPayload("prunes \(count) entries") }
            Self.prune(&tabs[payload.int32(at: 0)!, default: Tab()], index: 0, count: count)
        case .tabNavigationPathPruned:
            try payload.expectSize(12)
            let (index, count) = (payload.int32(at: 4)!, payload.int32(at: 8)!)
            guard index >= 0, count > 0 else { throw MalformedPayload("prunes \(count) entries from \(index)") }
            Self.prune(&tabs[payload.int32(at: 0)!, default: Tab()], index: index, count: count)
        case .updateTabNavigation:
            let navigation = try ChromiumNavigation(payload: payload.bytes)
            Self.place(navigation, in: &tabs[navigation.tabID, default: Tab()].navigations)
        case .setSelectedNavigationIndex:
            try payload.expectSize(8)
            tabs[payload.int32(at: 0)!, default: Tab()].currentIndex = payload.int32(at: 4)!
        case .setSelectedTabInIndex:
            try payload.expectSize(8)
            windows[payload.int32(at: 0)!, default: Window()].selectedTabIndex = payload.int32(at: 4)!
        case .setWindowType:
            try payload.expectSize(8)
            windows[payload.int32(at: 0)!, default: Window()].type = ChromiumWindowType(payload.int32(at: 4)!)
        case .setTabGroup:
            let (tab, token) = try Self.tabToken(payload)
            tabs[tab, default: Tab()].group = token
        case .setTabGroupMetadata2:
            var pickle = try Pickle(payload.bytes)
            let token = try pickle.token()
            var visuals = ChromiumGroupVisuals()
            visuals.title = try pickle.string16("the group title")
            visuals.color = try pickle.uint32("the group colour")
            visuals.collapsed = (try? pickle.bool()) ?? false  // added in M88
            groups[token] = visuals
            // is_saved, then saved_guid (M113). Like Chromium, a missing id after is_saved keeps the
            // visual data read so far; the command still counts as malformed.
            if (try? pickle.bool()) == true {
                groups[token]?.savedGUID = try pickle.string("the saved group id")
            }
        case .setSplitTab:
            let (tab, token) = try Self.tabToken(payload)
            tabs[tab, default: Tab()].split = token
        case .setSplitTabData:
            var pickle = try Pickle(payload.bytes)
            let token = try pickle.token("a split token")
            let ratio = try pickle.double("the split ratio")
            // SplitTabLayoutFromString: anything but "Horizontal" is vertical.
            let layout = try pickle.string("the split layout")
            splits[token] = ChromiumSplitVisuals(ratio: ratio, layout: layout == "Horizontal" ? .horizontal : .vertical)
        case .setPinnedState:
            // {int32 tab_id; bool pinned; 3 bytes padding}
            try payload.expectSize(8)
            tabs[payload.int32(at: 0)!, default: Tab()].pinned = payload.bool(at: 4)!
        case .setActiveWindow:
            try payload.expectSize(4)
            activeWindow = payload.int32(at: 0)!
        case .lastActiveTime:
            // {int32 tab_id; 4 bytes padding; int64 microseconds since 1601}
            try payload.expectSize(16)
            tabs[payload.int32(at: 0)!, default: Tab()].lastActive =
                ChromiumTime.date(microsecondsSince1601: payload.int64(at: 8)!)
        case .setExtensionAppID, .setWindowBounds3, .setWindowAppName, .setTabUserAgentOverride,
             .sessionStorageAssociated, .setWindowWorkspace2, .setTabGuid, .setTabUserAgentOverride2, .setTabData,
             .setWindowUserTitle, .setWindowVisibleOnAllWorkspaces, .addTabExtraData, .addWindowExtraData,
             .setPlatformSessionId:
            break  // Known, and nothing this store keeps.
        }
    }

    /// A `TabGroupPayload` or `SplitTabPayload` (commands 25 and 36): `{int32 tab_id;
    /// 4 bytes padding; uint64 high; uint64 low; bool has_token; 7 bytes padding}`.
    /// The tab, and its group's or split's token, `nil` when the flag is off.
    private static func tabToken(_ payload: FixedPayload) throws(MalformedPayload) -> (Int32, ChromiumToken?) {
        try payload.expectSize(32)
        let token = ChromiumToken(high: payload.uint64(at: 8)!, low: payload.uint64(at: 16)!)
        return (payload.int32(at: 0)!, payload.bool(at: 24)! ? token : nil)
    }

    /// Puts `navigation` in index order, replacing the one of the same index, in
    /// place (the array is not copied out of the dictionary); a later index, the
    /// usual case, is appended without a scan.
    private static func place(_ navigation: ChromiumNavigation, in navigations: inout [ChromiumNavigation]) {
        if let last = navigations.last, last.index < navigation.index {
            navigations.append(navigation)
        } else if let position = navigations.firstIndex(where: { $0.index >= navigation.index }) {
            if navigations[position].index == navigation.index {
                navigations[position] = navigation
            } else {
                navigations.insert(navigation, at: position)
            }
        } else {
            navigations.append(navigation)
        }
    }

    /// Chromium's `ProcessTabNavigationPathPrunedCommand`: removes the entries
    /// numbered `index ..< index + count`, renumbers the later ones, and moves
    /// the selected index with them.
    private static func prune(_ tab: inout Tab, index: Int32, count: Int32) {
        let (index, count) = (Int64(index), Int64(count))
        let current = Int64(tab.currentIndex)
        if current >= index, current < index + count {
            tab.currentIndex = Int32(clamping: index - 1)
        } else if current >= index + count {
            tab.currentIndex = Int32(clamping: current - count)
        }
        tab.navigations.removeAll { Int64($0.index) >= index && Int64($0.index) < index + count }
        for position in tab.navigations.indices where Int64(tab.navigations[position].index) >= index {
            tab.navigations[position].index = Int32(clamping: Int64(tab.navigations[position].index) - count)
        }
    }

    /// The windows that remain, in creation order, with their tabs in strip
    /// order; windows of another type than normal are left out and noted.
    func restoredWindows(notes: inout ChromiumReadNotes) -> [ChromiumRestoredWindow] {
        var tabsByWindow: [Int32: [(id: Int32, tab: Tab)]] = [:]
        for (id, tab) in tabs where tab.windowID != 0 && !tab.navigations.isEmpty {
            tabsByWindow[tab.windowID, default: []].append((id, tab))
        }
        var restored: [ChromiumRestoredWindow] = []
        var skipped: [String] = []
        for windowID in tabsByWindow.keys.sorted() {
            guard let window = windows[windowID], let type = window.type else { continue }
            let members = tabsByWindow[windowID]!.sorted {
                ($0.tab.visualIndex, $0.id) < ($1.tab.visualIndex, $1.id)
            }
            guard type == .normal else {
                skipped.append("\(type.name), \(members.count) \(members.count == 1 ? "tab" : "tabs")")
                continue
            }
            let tabs = members.map { member in
                let navigations = member.tab.navigations
                let current = navigations.firstIndex { $0.index >= member.tab.currentIndex } ?? navigations.count - 1
                return ChromiumRestoredTab(
                    navigations: navigations, currentIndex: current, pinned: member.tab.pinned,
                    group: member.tab.group, split: member.tab.split, lastActive: member.tab.lastActive)
            }
            let selected = members.firstIndex { $0.tab.visualIndex == window.selectedTabIndex } ?? 0
            var visuals: [ChromiumToken: ChromiumGroupVisuals] = [:]
            var splitVisuals: [ChromiumToken: ChromiumSplitVisuals] = [:]
            for tab in tabs {
                if let group = tab.group { visuals[group] = groups[group] ?? ChromiumGroupVisuals() }
                if let split = tab.split { splitVisuals[split] = splits[split] ?? ChromiumSplitVisuals() }
            }
            restored.append(ChromiumRestoredWindow(
                tabs: tabs, selectedIndex: selected, groups: visuals, splits: splitVisuals,
                isActive: windowID == activeWindow))
        }
        if !skipped.isEmpty {
            notes.note("skipped \(skipped.count) \(skipped.count == 1 ? "window that is" : "windows that are") "
                + "not a normal browser window (\(skipped.joined(separator: "; ")))")
        }
        return restored
    }
}
