import Foundation

/// The recently closed tabs, groups and windows of a `Tabs_*` file, replayed as
/// Chromium's `TabRestoreServiceImpl::PersistenceDelegate::CreateEntriesFromCommands`
/// does (`components/sessions/core/tab_restore_service_impl.cc`):
/// - a window or group command opens an entry that the next `num_tabs`
///   closed-tab sequences fill, a split command one that the next two fill;
///   a closed-tab sequence outside one is an entry of its own; an entry of an
///   id seen before replaces the older one;
/// - a restored-entry command removes the entry (or the tab of a window or
///   group) that was reopened;
/// - in the end, tabs without entries and entries without tabs are dropped,
///   and entries come most recent first.
///
/// Unlike Chromium, which stops at the first unknown or unreadable command,
/// such commands are skipped and counted in the notes.
struct ChromiumTabRestoreLog {
    /// What an entry holds.
    enum Kind: Sendable, Equatable {
        /// One closed tab.
        case tab
        /// A closed window of this type.
        case window(ChromiumWindowType)
        /// A closed group with this token and visual data.
        case group(ChromiumToken, ChromiumGroupVisuals)
        /// A closed split view with this token and visual data.
        case split(ChromiumToken, ChromiumSplitVisuals)
    }

    /// One closed tab of an entry.
    struct Tab: Sendable {
        /// Chromium's id of the tab.
        var id: Int32
        /// The selected navigation, as a position in ``navigations``.
        var currentIndex: Int32
        /// The persisted history.
        var navigations: [ChromiumNavigation] = []
        /// Whether the tab was pinned.
        var pinned = false
        /// The group it was in, with its visual data.
        var group: (token: ChromiumToken, visuals: ChromiumGroupVisuals)?
        /// The split view it was in, with its visual data (the defaults when the file's are invalid).
        var split: (token: ChromiumToken, visuals: ChromiumSplitVisuals)?
        /// When the tab was closed, if written.
        var closedAt: Date?
    }

    /// One recently closed entry.
    struct Entry: Sendable {
        /// Chromium's id of the entry (the closed tab's or window's id).
        var id: Int32
        /// A tab, window or group.
        var kind: Kind
        /// The tabs: one for a tab entry.
        var tabs: [Tab] = []
        /// The selected tab of a window, as a position in ``tabs``.
        var selectedTabIndex: Int32 = 0
        /// When the entry was closed, if written.
        var closedAt: Date?
        /// How many more tabs a window or group still expects.
        fileprivate var expectedTabs = 0
    }

    /// The entries, most recent first.
    private(set) var entries: [Entry] = []
    /// Where the next tab-level command applies: an entry's index and a tab's index in it.
    private var currentTab: (entry: Int, tab: Int)?
    /// The window or group entry still expecting tabs.
    private var openContainer: Int?

    /// Replays `file`'s commands, noting what it skips in `notes`.
    init(file: SNSSFile, notes: inout ChromiumReadNotes) {
        for command in file.commands {
            guard let id = TabRestoreCommandID(rawValue: command.id) else {
                notes.unknown(command)
                continue
            }
            do {
                try apply(id, FixedPayload(command.payload), notes: &notes)
            } catch {
                notes.malformed(command, error)
            }
        }
        finish(notes: &notes)
    }

    private mutating func apply(
        _ id: TabRestoreCommandID, _ payload: FixedPayload, notes: inout ChromiumReadNotes
    ) throws(MalformedPayload) {
        switch id {
        case .restoredEntry:
            try payload.expectSize(4)
            closeContainer(notes: &notes)
            currentTab = nil
            remove(id: payload.int32(at: 0)!)
        case .window, .windowDeprecated:
            let entry = try id == .window ? Self.window(payload) : Self.deprecatedWindow(payload)
            open(entry, notes: &notes)
        case .createGroup:
            open(try Self.group(payload), notes: &notes)
        case .createSplit:
            open(try Self.split(payload), notes: &notes)
        case .selectedNavigationInTab:
            // {int32 tab_id; int32 index; int64 timestamp}, or the first two fields alone (older files).
            guard payload.count == 16 || payload.count == 8 else {
                throw MalformedPayload("\(payload.count) bytes where the payload is 16 (or 8)")
            }
            var tab = Tab(id: payload.int32(at: 0)!, currentIndex: payload.int32(at: 4)!)
            tab.closedAt = payload.int64(at: 8).flatMap(ChromiumTime.date(microsecondsSince1601:))
            if let container = openContainer {
                entries[container].tabs.append(tab)
                currentTab = (container, entries[container].tabs.count - 1)
                entries[container].expectedTabs -= 1
                if entries[container].expectedTabs == 0 { openContainer = nil }
            } else {
                remove(id: tab.id)
                entries.append(Entry(id: tab.id, kind: .tab, tabs: [tab], closedAt: tab.closedAt))
                currentTab = (entries.count - 1, 0)
            }
        case .updateTabNavigation:
            var navigation = try ChromiumNavigation(payload: payload.bytes)
            guard let (entry, tab) = currentTab else { throw MalformedPayload("a navigation outside a closed tab") }
            // Chromium renumbers them: only a few navigations around the selected one are written.
            navigation.index = Int32(clamping: entries[entry].tabs[tab].navigations.count)
            entries[entry].tabs[tab].navigations.append(navigation)
        case .pinnedState:
            guard let (entry, tab) = currentTab else { throw MalformedPayload("a pinned state outside a closed tab") }
            entries[entry].tabs[tab].pinned = true  // Written only for pinned tabs; the payload does not matter.
        case .setTabGroupData:
            guard let (entry, tab) = currentTab else { throw MalformedPayload("group data outside a closed tab") }
            var pickle = try Pickle(payload.bytes)
            let token = try pickle.token()
            var visuals = ChromiumGroupVisuals()
            visuals.title = try pickle.string16("the group title")
            visuals.color = try pickle.uint32("the group colour")
            if (try? pickle.bool()) == true { visuals.savedGUID = try? pickle.string() }  // is_saved, then its id
            // Chromium 156 writes one more bool: the group's collapsed state in the fixtures.
            visuals.collapsed = (try? pickle.bool()) ?? false
            entries[entry].tabs[tab].group = (token, visuals)
        case .setTabSplitData:
            guard let (entry, tab) = currentTab else { throw MalformedPayload("split data outside a closed tab") }
            var pickle = try Pickle(payload.bytes)
            let token = try pickle.token("a split token")
            // Chromium keeps the split and drops visual data it finds invalid.
            let visuals = (try? Self.splitVisuals(&pickle)) ?? ChromiumSplitVisuals()
            entries[entry].tabs[tab].split = (token, visuals)
        case .setExtensionAppID, .setWindowAppName, .setTabUserAgentOverride, .setTabUserAgentOverride2,
             .setWindowUserTitle, .addTabExtraData:
            break  // Known, and nothing this store keeps.
        }
    }

    /// A `kCommandWindow` pickle: window id, selected tab index, tab count,
    /// timestamp, x, y, width, height, show state, workspace, then (M104) type.
    private static func window(_ payload: FixedPayload) throws(MalformedPayload) -> Entry {
        var pickle = try Pickle(payload.bytes)
        let id = try pickle.int32("the window id")
        let selected = try pickle.int32("the selected tab index")
        let count = try pickle.int32("the tab count")
        let timestamp = try pickle.int64("the timestamp")
        for field in ["x", "y", "width", "height", "show state"] { _ = try pickle.int32("the window's \(field)") }
        _ = try pickle.data("the workspace")
        let type = (try? pickle.int32()) ?? 0
        guard count > 0 else { throw MalformedPayload("a window of \(count) tabs") }
        return Entry(
            id: id, kind: .window(ChromiumWindowType(type)), selectedTabIndex: selected,
            closedAt: ChromiumTime.date(microsecondsSince1601: timestamp), expectedTabs: Int(count))
    }

    /// A `kCommandWindowDeprecated` struct: `{int32 window_id, selected_tab_index,
    /// num_tabs}` (12 bytes), or with 4 bytes of padding and an `int64` timestamp (24 bytes).
    private static func deprecatedWindow(_ payload: FixedPayload) throws(MalformedPayload) -> Entry {
        guard payload.count == 24 || payload.count == 12 else {
            throw MalformedPayload("\(payload.count) bytes where the payload is 24 (or 12)")
        }
        let count = payload.int32(at: 8)!
        guard count > 0 else { throw MalformedPayload("a window of \(count) tabs") }
        return Entry(
            id: payload.int32(at: 0)!, kind: .window(.normal), selectedTabIndex: payload.int32(at: 4)!,
            closedAt: payload.int64(at: 16).flatMap(ChromiumTime.date(microsecondsSince1601:)),
            expectedTabs: Int(count))
    }

    /// A `kCommandCreateGroup` pickle: token, entry id, tab count, browser id,
    /// title, colour, then (M126) whether it is saved and its saved id.
    private static func group(_ payload: FixedPayload) throws(MalformedPayload) -> Entry {
        var pickle = try Pickle(payload.bytes)
        let token = try pickle.token()
        let id = try pickle.int32("the entry id")
        let count = try pickle.int32("the tab count")
        _ = try pickle.int32("the browser id")
        var visuals = ChromiumGroupVisuals()
        visuals.title = try pickle.string16("the group title")
        visuals.color = try pickle.uint32("the group colour")
        if (try? pickle.bool()) == true { visuals.savedGUID = try? pickle.string() }  // is_saved, then its id
        guard count > 0 else { throw MalformedPayload("a group of \(count) tabs") }
        return Entry(id: id, kind: .group(token, visuals), expectedTabs: Int(count))
    }

    /// A `kCommandCreateSplit` pickle: token, entry id, timestamp, ratio, layout;
    /// the split holds the next two closed tabs.
    private static func split(_ payload: FixedPayload) throws(MalformedPayload) -> Entry {
        var pickle = try Pickle(payload.bytes)
        let token = try pickle.token("a split token")
        let id = try pickle.int32("the entry id")
        let timestamp = try pickle.int64("the timestamp")
        let visuals = try splitVisuals(&pickle)
        return Entry(
            id: id, kind: .split(token, visuals), closedAt: ChromiumTime.date(microsecondsSince1601: timestamp),
            expectedTabs: 2)
    }

    /// A ratio and a layout as `ReadSplitTabVisualData` reads them: a `double`
    /// from 0 to 1 and an `int` that is 0 (vertical) or 1 (horizontal).
    private static func splitVisuals(_ pickle: inout Pickle) throws(MalformedPayload) -> ChromiumSplitVisuals {
        let ratio = try pickle.double("the split ratio")
        let layout = try pickle.int32("the split layout")
        guard (0...1).contains(ratio) else { throw MalformedPayload("the split ratio \(ratio) is not from 0 to 1") }
        guard layout == 0 || layout == 1 else { throw MalformedPayload("the split layout \(layout) is unknown") }
        return ChromiumSplitVisuals(ratio: ratio, layout: layout == 1 ? .horizontal : .vertical)
    }

    private mutating func open(_ entry: Entry, notes: inout ChromiumReadNotes) {
        closeContainer(notes: &notes)
        remove(id: entry.id)
        entries.append(entry)
        openContainer = entries.count - 1
        currentTab = nil
    }

    /// Ends a window or group that still expected tabs (Chromium stops reading there).
    private mutating func closeContainer(notes: inout ChromiumReadNotes) {
        guard let container = openContainer else { return }
        notes.note("a closed window, group or split view announced \(entries[container].expectedTabs) more tabs than followed it")
        openContainer = nil
    }

    /// Chromium's `RemoveEntryByID`: removes the entry of `id`, or the tab of `id` in a window or group.
    private mutating func remove(id: Int32) {
        if let index = entries.firstIndex(where: { $0.id == id }) {
            entries.remove(at: index)
            if let container = openContainer {
                openContainer = container == index ? nil : (container > index ? container - 1 : container)
            }
            return
        }
        for index in entries.indices where entries[index].kind != .tab {
            if let tab = entries[index].tabs.firstIndex(where: { $0.id == id }) {
                entries[index].tabs.remove(at: tab)
                return
            }
        }
    }

    /// Drops tabs without history and entries without tabs (Chromium's
    /// `ValidateAndDeleteEmptyEntries`), and puts the most recent entry first.
    private mutating func finish(notes: inout ChromiumReadNotes) {
        closeContainer(notes: &notes)
        var kept: [Entry] = []
        for var entry in entries.reversed() {
            entry.tabs.removeAll { $0.navigations.isEmpty }
            guard !entry.tabs.isEmpty else { continue }
            for index in entry.tabs.indices {
                let last = Int32(entry.tabs[index].navigations.count - 1)
                entry.tabs[index].currentIndex = min(max(entry.tabs[index].currentIndex, 0), last)
            }
            entry.selectedTabIndex = min(max(entry.selectedTabIndex, 0), Int32(entry.tabs.count - 1))
            if entry.closedAt == nil { entry.closedAt = entry.tabs.compactMap(\.closedAt).max() }
            kept.append(entry)
        }
        entries = kept
        currentTab = nil
    }
}
