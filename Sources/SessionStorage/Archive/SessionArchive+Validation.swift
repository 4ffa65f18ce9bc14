import Foundation
import SessionModel

extension SessionArchive {
    /// Checks the document on its own (not against a store's content).
    ///
    /// - Throws: ``StorageError/invalidArchive(location:reason:)`` at the first
    ///   problem: duplicate identifiers, a dangling opener, group, split, active tab
    ///   or closed entry, tabs both pinned and grouped or out of order, a split that
    ///   is not two neighbouring tabs alike in pinning and group, a split ratio
    ///   outside 0...1, a history index out of range, a title or URL over the limits, an archived
    ///   tab or a saved group's tab in a list (pinned, grouped, split or with an opener), a negative
    ///   `former_index`, an empty saved group. See
    ///   ``SessionDatabase/checkImport(_:replacing:)`` for the store-aware check.
    public func check(configuration: SessionDatabase.Configuration = .init()) throws {
        var validator = ArchiveValidator(configuration: configuration, wholeDocument: self)
        // In the document's order: `archived_tabs` sorts first, `saved_groups` after `closed_entries`.
        for (index, archived) in archivedTabs.enumerated() {
            _ = try validator.archivedTab(archived, at: "$.archived_tabs[\(index)]")
        }
        for (index, browser) in browsers.enumerated() {
            var pending = try validator.beginBrowser(browser, index: index)
            for (offset, tab) in browser.tabs.enumerated() {
                _ = try validator.browserTab(tab, at: "$.browsers[\(index)].tabs[\(offset)]", in: &pending)
            }
            _ = try validator.endBrowser(browser, index: index, &pending)
        }
        for (index, entry) in closedEntries.enumerated() {
            _ = try validator.closedEntry(entry, index: index)
        }
        for (index, group) in savedGroups.enumerated() {
            _ = try validator.savedGroup(group, at: "$.saved_groups[\(index)]")
        }
        try validator.finish()
    }
}

/// The document's rules, checked one part at a time, so that an import can
/// stream a document of any size through them: what ``SessionArchive/check(configuration:)``
/// runs over a whole document, and the importer over each part as it arrives.
///
/// A rule that needs a later part (a tab's opener further down its browser, a
/// closed window entry named by a browser that comes after it) waits for it:
/// at the end of the browser, or at ``finish()``. Over a whole document the
/// rules run in the document's order, the first problem found is reported.
struct ArchiveValidator {
    let configuration: SessionDatabase.Configuration
    private var seenTabs: Set<WebStateID> = []
    private var seenGroups: Set<TabGroupID> = []
    private var seenSplits: Set<TabSplitID> = []
    private var seenBrowsers: Set<BrowserID> = []
    private var seenEntries: Set<ClosedEntryID> = []
    /// The document's closed window entries, when known before its browsers (a whole document).
    private let windowEntries: Set<ClosedEntryID>?
    /// Closed window entries seen so far, by index (a streamed document).
    private var windowEntriesSeen: [ClosedEntryID: Int] = [:]
    /// Each claimed window entry: the browser that names it, and its index.
    private(set) var claims: [ClosedEntryID: (browser: BrowserID, index: Int)] = [:]
    /// Window entries seen before any browser claimed them: checked at the end.
    private var unclaimedWindows: [(entry: SessionArchive.ClosedEntry, index: Int)] = []

    /// A browser being read: its tabs' list fields until its end.
    struct PendingBrowser {
        /// The browser's own fields, when they came before its tabs.
        var header: SessionArchive.Browser?
        /// Every tab id of the browser, when known up front (a whole document).
        var tabIDs: Set<WebStateID>?
        /// Its tabs so far, as the list will hold them (their locations are `$.browsers[i].tabs[offset]`).
        var tabs: [WebStateListEntry] = []
        /// Tabs whose list rules already ran (their browser's fields were known).
        var checkedTabs = 0
        /// Whether the browser's identifier and groups were checked.
        var fieldsChecked = false
        var groups: Set<TabGroupID> = []
        /// The browser's splits, by identifier: their offsets in its `splits`.
        var splits: [TabSplitID: Int] = [:]
    }

    /// A validator for a stream of parts; `wholeDocument`, when given, lets every
    /// rule run in the document's order.
    init(configuration: SessionDatabase.Configuration, wholeDocument: SessionArchive? = nil) {
        self.configuration = configuration
        windowEntries = wholeDocument.map { Set($0.closedEntries.filter { $0.kind == .window }.map(\.id)) }
    }

    private func fail(_ location: String, _ reason: String) -> StorageError {
        .invalidArchive(location: location, reason: reason)
    }

    // MARK: - Browsers

    /// Starts a browser. With its fields (`header`: a whole document's browser, or a
    /// streamed one's fields before its tabs), its identifier and groups are checked now.
    mutating func beginBrowser(_ header: SessionArchive.Browser?, index: Int) throws -> PendingBrowser {
        var pending = PendingBrowser(header: header)
        if let header {
            if !header.tabs.isEmpty { pending.tabIDs = Set(header.tabs.map(\.id)) }
            try checkFields(header, at: "$.browsers[\(index)]", &pending)
        }
        return pending
    }

    /// A browser's identifier, groups and splits.
    private mutating func checkFields(_ browser: SessionArchive.Browser, at: String, _ pending: inout PendingBrowser) throws {
        pending.fieldsChecked = true
        guard seenBrowsers.insert(browser.id).inserted else { throw fail("\(at).id", "browser \(browser.id) appears twice") }
        for (offset, group) in browser.groups.enumerated() {
            guard seenGroups.insert(group.id).inserted else {
                throw fail("\(at).groups[\(offset)].id", "group \(group.id) appears twice")
            }
            pending.groups.insert(group.id)
        }
        for (offset, split) in browser.splits.enumerated() {
            guard seenSplits.insert(split.id).inserted else {
                throw fail("\(at).splits[\(offset)].id", "split \(split.id) appears twice")
            }
            guard (0...1).contains(split.ratio) else {
                throw fail("\(at).splits[\(offset)].ratio", "\(split.ratio) is not from 0 to 1")
            }
            pending.splits[split.id] = offset
        }
    }

    /// Checks a tab of the browser being read; returns its history as a model value.
    mutating func browserTab(
        _ tab: SessionArchive.Tab, at location: String, in pending: inout PendingBrowser
    ) throws -> NavigationHistory {
        let history = try self.tab(tab, at: location)
        let entry = WebStateListEntry(
            id: tab.id, isPinned: tab.pinned, groupID: tab.group, openerID: tab.opener?.tab, splitID: tab.split)
        pending.tabs.append(entry)
        if pending.header != nil, let ids = pending.tabIDs {
            try checkGroup(of: entry, in: pending, at: location)
            try checkSplit(of: entry, in: pending, at: location)
            try checkOpener(tab, at: location)
            try checkOpenerInBrowser(entry, at: location, tabIDs: ids)
            pending.checkedTabs = pending.tabs.count
        } else {
            // Its browser's groups and tabs are known at its end.
            try checkOpener(tab, at: location)
        }
        return history
    }

    /// A tab's group is one of its browser's.
    private func checkGroup(of entry: WebStateListEntry, in pending: PendingBrowser, at location: String) throws {
        if let group = entry.groupID, !pending.groups.contains(group) {
            throw fail("\(location).group", "group \(group) is not one of this browser's groups")
        }
    }

    /// A tab's split is one of its browser's.
    private func checkSplit(of entry: WebStateListEntry, in pending: PendingBrowser, at location: String) throws {
        if let split = entry.splitID, pending.splits[split] == nil {
            throw fail("\(location).split", "split \(split) is not one of this browser's splits")
        }
    }

    /// Each split of the browser holds exactly two neighbouring tabs, both pinned or
    /// neither, in the same group or in none (<doc:TabListRules>, Splits).
    private func checkSplitsWhole(_ browser: SessionArchive.Browser, _ pending: PendingBrowser, at: String) throws {
        guard !browser.splits.isEmpty else { return }
        var members: [TabSplitID: [Int]] = [:]
        for (index, entry) in pending.tabs.enumerated() {
            if let split = entry.splitID { members[split, default: []].append(index) }
        }
        for (offset, split) in browser.splits.enumerated() {
            let location = "\(at).splits[\(offset)]"
            let indexes = members[split.id] ?? []
            guard indexes.count == 2 else {
                throw fail(location, "split \(split.id) has \(indexes.count) tab\(indexes.count == 1 ? "" : "s"); a split holds exactly two")
            }
            let (first, second) = (pending.tabs[indexes[0]], pending.tabs[indexes[1]])
            guard indexes[1] == indexes[0] + 1 else {
                throw fail(location, "the tabs of split \(split.id), tabs[\(indexes[0])] and tabs[\(indexes[1])], are not neighbours")
            }
            guard first.isPinned == second.isPinned else {
                throw fail(location, "one tab of split \(split.id) is pinned and the other is not")
            }
            guard first.groupID == second.groupID else {
                throw fail(location, "the tabs of split \(split.id) are not in the same group (or both in none)")
            }
        }
    }

    /// A tab's opener on its own: not itself, with an index of 0 or more.
    private func checkOpener(_ tab: SessionArchive.Tab, at location: String) throws {
        guard let opener = tab.opener else { return }
        if opener.tab == tab.id { throw fail("\(location).opener.tab", "a tab cannot be its own opener") }
        if let index = opener.navigationIndex, index < 0 {
            throw fail("\(location).opener.navigation_index", "must be 0 or more")
        }
    }

    /// A tab's opener is a tab of its browser.
    private func checkOpenerInBrowser(_ entry: WebStateListEntry, at location: String, tabIDs: Set<WebStateID>) throws {
        if let opener = entry.openerID, !tabIDs.contains(opener) {
            throw fail("\(location).opener.tab", "tab \(opener) is not a tab of this browser")
        }
    }

    /// Ends a browser: the rules over its whole list (those of `WebStateList`'s
    /// initializer, so that the tabs make a valid list). Returns its active index.
    mutating func endBrowser(
        _ browser: SessionArchive.Browser, index: Int, _ pending: inout PendingBrowser
    ) throws -> Int? {
        let at = "$.browsers[\(index)]"
        if !pending.fieldsChecked { try checkFields(browser, at: at, &pending) }
        if pending.checkedTabs < pending.tabs.count {
            let tabIDs = pending.tabIDs ?? Set(pending.tabs.map(\.id))
            for offset in pending.checkedTabs..<pending.tabs.count {
                try checkGroup(of: pending.tabs[offset], in: pending, at: "\(at).tabs[\(offset)]")
                try checkSplit(of: pending.tabs[offset], in: pending, at: "\(at).tabs[\(offset)]")
                try checkOpenerInBrowser(pending.tabs[offset], at: "\(at).tabs[\(offset)]", tabIDs: tabIDs)
            }
        }
        var activeIndex: Int?
        if let active = browser.activeTab {
            guard let index = pending.tabs.firstIndex(where: { $0.id == active }) else {
                throw fail("\(at).active_tab", "tab \(active) is not a tab of this browser")
            }
            activeIndex = index
        }
        try checkSplitsWhole(browser, pending, at: at)
        if let violation = WebStateListInvariants.violations(
            entries: pending.tabs, groups: pending.groups, splits: Set(pending.splits.keys), activeIndex: activeIndex).first
        {
            throw fail("\(at).tabs", violation.description)
        }
        if let closed = browser.closedEntry {
            if let windowEntries, !windowEntries.contains(closed) {
                throw fail("\(at).closed_entry", "\(closed) is not a closed window entry of this document, or is claimed twice")
            }
            guard claims[closed] == nil else {
                throw fail("\(at).closed_entry", "\(closed) is not a closed window entry of this document, or is claimed twice")
            }
            claims[closed] = (browser.id, index)
        }
        return activeIndex
    }

    // MARK: - Tabs and closed entries

    /// A tab's own fields; returns its history as a model value.
    ///
    /// A history of any length, and an engine state of any size, are taken: a store
    /// keeps what its app's `maximumNavigationEntries` and `maximumEngineStateBytes`
    /// allow, which may be more than this store's settings (the tab's next navigation
    /// trims its history), and an import reads back what an export wrote.
    mutating func tab(_ tab: SessionArchive.Tab, at location: String) throws -> NavigationHistory {
        guard seenTabs.insert(tab.id).inserted else { throw fail("\(location).id", "tab \(tab.id) appears twice") }
        return try self.history(of: tab, at: "\(location).history")
    }

    private func history(of tab: SessionArchive.Tab, at location: String) throws -> NavigationHistory {
        let entries = tab.history.entries
        var items: [NavigationItem] = []
        items.reserveCapacity(entries.count)
        for (offset, entry) in entries.enumerated() {
            let at = "\(location).entries[\(offset)]"
            if entry.title.unicodeScalars.count > NavigationLimits.maximumTitleLength {
                throw fail("\(at).title", "longer than \(NavigationLimits.maximumTitleLength) characters")
            }
            do {
                items.append(try entry.item.validated())
            } catch let error as NavigationHistoryError {
                throw fail(at, error.description)
            }
        }
        do {
            return try NavigationHistory(items: items, currentIndex: tab.history.currentIndex)
        } catch {
            throw fail("\(location).current_index", "\(tab.history.currentIndex.map(String.init) ?? "absent") is not the index of one of \(items.count) entries")
        }
    }

    /// Checks a recently closed entry; returns its tabs' histories, in order.
    mutating func closedEntry(_ entry: SessionArchive.ClosedEntry, index: Int) throws -> [NavigationHistory] {
        let at = "$.closed_entries[\(index)]"
        guard seenEntries.insert(entry.id).inserted else { throw fail("\(at).id", "entry \(entry.id) appears twice") }
        switch entry.kind {
        case .tab where entry.tabs.count != 1:
            throw fail("\(at).tabs", "a closed tab entry holds exactly one tab")
        case .group where entry.group == nil || entry.tabs.isEmpty:
            throw fail(at, "a closed group entry needs its group and at least one tab")
        case .window:
            windowEntriesSeen[entry.id] = index
            if claims[entry.id] == nil && windowEntries == nil && entry.tabs.isEmpty {
                unclaimedWindows.append((entry, index))  // a browser further on may name it
            } else {
                try checkWindow(entry, at: at)
            }
        default:
            break
        }
        if let tabIndex = entry.tabIndex, tabIndex < 0 { throw fail("\(at).tab_index", "must be 0 or more") }
        var histories: [NavigationHistory] = []
        for (offset, tab) in entry.tabs.enumerated() {
            let location = "\(at).tabs[\(offset)]"
            histories.append(try self.tab(tab, at: location))
            if tab.opener != nil || tab.group != nil {
                throw fail(location, "a closed tab has no opener or group of its own (the entry holds its group)")
            }
            if tab.split != nil {
                throw fail("\(location).split", "a recently closed tab or group keeps no split view")
            }
        }
        return histories
    }

    // MARK: - Archived tabs and saved groups

    /// Checks an archived tab; returns its history as a model value.
    mutating func archivedTab(_ archived: SessionArchive.ArchivedTab, at location: String) throws -> NavigationHistory {
        let history = try listlessTab(archived.tab, at: "\(location).tab", what: "an archived tab")
        if archived.formerIndex < 0 { throw fail("\(location).former_index", "must be 0 or more") }
        if archived.formerOpener == archived.tab.id {
            throw fail("\(location).former_opener", "a tab cannot be its own opener")
        }
        return history
    }

    /// Checks a saved group; returns its tabs' histories, in order.
    mutating func savedGroup(_ group: SessionArchive.SavedGroup, at location: String) throws -> [NavigationHistory] {
        guard seenGroups.insert(group.id).inserted else { throw fail("\(location).id", "group \(group.id) appears twice") }
        if group.tabs.isEmpty { throw fail("\(location).tabs", "a saved group holds at least one tab") }
        return try group.tabs.enumerated().map { offset, tab in
            try listlessTab(tab, at: "\(location).tabs[\(offset)]", what: "a saved group's tab")
        }
    }

    /// A tab kept out of every list (archived, or in a saved group): not pinned, and with
    /// no group, opener or split of its own (what it had is its entry's data).
    private mutating func listlessTab(_ tab: SessionArchive.Tab, at location: String, what: String) throws -> NavigationHistory {
        let history = try self.tab(tab, at: location)
        if tab.pinned { throw fail("\(location).pinned", "\(what) is not pinned") }
        if tab.group != nil { throw fail("\(location).group", "\(what) has no group of its own") }
        if tab.opener != nil { throw fail("\(location).opener", "\(what) has no opener") }
        if tab.split != nil { throw fail("\(location).split", "\(what) keeps no split view") }
        return history
    }

    private func checkWindow(_ entry: SessionArchive.ClosedEntry, at: String) throws {
        guard entry.tabs.isEmpty, let claim = claims[entry.id] else {
            throw fail(at, "a closed window entry holds no tabs itself and is named by exactly one browser's closed_entry")
        }
        if let browser = entry.browser, browser != claim.browser {
            throw fail("\(at).browser", "a closed window entry's browser is the browser that names it, \(claim.browser.uuidString)")
        }
    }

    /// The rules that waited for the whole document.
    func finish() throws {
        if windowEntries == nil {
            for (entry, claim) in claims.sorted(by: { $0.value.index < $1.value.index })
            where windowEntriesSeen[entry] == nil {
                throw fail("$.browsers[\(claim.index)].closed_entry",
                           "\(entry) is not a closed window entry of this document, or is claimed twice")
            }
        }
        for (entry, index) in unclaimedWindows {
            try checkWindow(entry, at: "$.closed_entries[\(index)]")
        }
    }
}
