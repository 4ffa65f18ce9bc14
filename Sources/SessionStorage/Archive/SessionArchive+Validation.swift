import Foundation
import SessionModel

extension SessionArchive {
    /// Checks the document on its own (not against a store's content).
    ///
    /// - Throws: ``StorageError/invalidArchive(location:reason:)``; see
    ///   ``SessionDatabase/checkImport(_:replacing:)`` for the store-aware check.
    public func check(configuration: SessionDatabase.Configuration = .init()) throws {
        _ = try validated(configuration: configuration)
    }

    /// A document checked against every rule, as the model values it describes.
    struct Validated {
        struct Browser {
            var source: SessionArchive.Browser
            var list: WebStateList
        }

        var browsers: [Browser]
        /// Every tab's history, open or closed.
        var histories: [WebStateID: NavigationHistory]
    }

    /// Checks the whole document before anything is written.
    ///
    /// - Throws: ``StorageError/invalidArchive(location:reason:)`` at the first
    ///   problem: duplicate identifiers, a dangling opener, group, active tab or
    ///   closed entry, tabs both pinned and grouped or out of order, a history
    ///   index out of range, a title, URL, history or blob over the limits.
    func validated(configuration: SessionDatabase.Configuration) throws -> Validated {
        var seenTabs: Set<WebStateID> = []
        var seenGroups: Set<TabGroupID> = []
        var seenBrowsers: Set<BrowserID> = []
        var histories: [WebStateID: NavigationHistory] = [:]
        var windowEntries: [ClosedEntryID: Int] = [:]
        for (index, entry) in closedEntries.enumerated() where entry.kind == .window {
            windowEntries[entry.id] = index
        }
        var claimedWindows: Set<ClosedEntryID> = []
        var windowBrowsers: [ClosedEntryID: BrowserID] = [:]
        var browsers: [Validated.Browser] = []

        func fail(_ location: String, _ reason: String) -> StorageError {
            .invalidArchive(location: location, reason: reason)
        }

        func checkTab(_ tab: Tab, at location: String) throws {
            guard seenTabs.insert(tab.id).inserted else { throw fail("\(location).id", "tab \(tab.id) appears twice") }
            histories[tab.id] = try history(of: tab, at: "\(location).history")
            if let state = tab.engineState, state.count > configuration.maximumEngineStateBytes {
                throw fail("\(location).engine_state",
                           "\(state.count) bytes is over the limit of \(configuration.maximumEngineStateBytes)")
            }
        }

        func history(of tab: Tab, at location: String) throws -> NavigationHistory {
            let entries = tab.history.entries
            guard entries.count <= configuration.maximumNavigationEntries else {
                throw fail("\(location).entries",
                           "\(entries.count) entries is over the limit of \(configuration.maximumNavigationEntries)")
            }
            var items: [NavigationItem] = []
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

        for (browserIndex, browser) in self.browsers.enumerated() {
            let at = "$.browsers[\(browserIndex)]"
            guard seenBrowsers.insert(browser.id).inserted else { throw fail("\(at).id", "browser \(browser.id) appears twice") }
            var groups: [TabGroup] = []
            for (offset, group) in browser.groups.enumerated() {
                guard seenGroups.insert(group.id).inserted else {
                    throw fail("\(at).groups[\(offset)].id", "group \(group.id) appears twice")
                }
                groups.append(TabGroup(id: group.id, visualData: TabGroupVisualData(
                    title: group.title, color: group.color, isCollapsed: group.collapsed)))
            }
            let groupIDs = Set(groups.map(\.id))
            var webStates: [WebState] = []
            var entries: [WebStateListEntry] = []
            let tabIDs = Set(browser.tabs.map(\.id))
            for (offset, tab) in browser.tabs.enumerated() {
                let location = "\(at).tabs[\(offset)]"
                try checkTab(tab, at: location)
                if let group = tab.group, !groupIDs.contains(group) {
                    throw fail("\(location).group", "group \(group) is not one of this browser's groups")
                }
                if tab.opener?.tab == tab.id {
                    throw fail("\(location).opener.tab", "a tab cannot be its own opener")
                }
                if let index = tab.opener?.navigationIndex, index < 0 {
                    throw fail("\(location).opener.navigation_index", "must be 0 or more")
                }
                if let opener = tab.opener, !tabIDs.contains(opener.tab) {
                    throw fail("\(location).opener.tab", "tab \(opener.tab) is not a tab of this browser")
                }
                webStates.append(WebState(
                    id: tab.id, opener: tab.opener.map { WebStateOpener(openerID: $0.tab, navigationIndex: $0.navigationIndex) },
                    navigationIndex: histories[tab.id]?.currentIndex, createdAt: tab.createdAt,
                    lastActiveAt: tab.lastActiveAt))
                entries.append(WebStateListEntry(id: tab.id, isPinned: tab.pinned, groupID: tab.group, openerID: tab.opener?.tab))
            }
            var activeIndex: Int?
            if let active = browser.activeTab {
                guard let index = browser.tabs.firstIndex(where: { $0.id == active }) else {
                    throw fail("\(at).active_tab", "tab \(active) is not a tab of this browser")
                }
                activeIndex = index
            }
            if let violation = WebStateListInvariants.violations(
                entries: entries, groups: groupIDs, activeIndex: activeIndex).first
            {
                throw fail("\(at).tabs", violation.description)
            }
            if let closed = browser.closedEntry {
                guard windowEntries[closed] != nil, claimedWindows.insert(closed).inserted else {
                    throw fail("\(at).closed_entry", "\(closed) is not a closed window entry of this document, or is claimed twice")
                }
                windowBrowsers[closed] = browser.id
            }
            let pinnedCount = browser.tabs.prefix { $0.pinned }.count
            let list = try WebStateList(
                webStates: webStates, pinnedCount: pinnedCount, groupIDs: browser.tabs.map(\.group), groups: groups,
                activeIndex: activeIndex)
            browsers.append(Validated.Browser(source: browser, list: list))
        }

        var seenEntries: Set<ClosedEntryID> = []
        for (entryIndex, entry) in closedEntries.enumerated() {
            let at = "$.closed_entries[\(entryIndex)]"
            guard seenEntries.insert(entry.id).inserted else { throw fail("\(at).id", "entry \(entry.id) appears twice") }
            switch entry.kind {
            case .tab where entry.tabs.count != 1:
                throw fail("\(at).tabs", "a closed tab entry holds exactly one tab")
            case .group where entry.group == nil || entry.tabs.isEmpty:
                throw fail(at, "a closed group entry needs its group and at least one tab")
            case .window where !entry.tabs.isEmpty || !claimedWindows.contains(entry.id):
                throw fail(at, "a closed window entry holds no tabs itself and is named by exactly one browser's closed_entry")
            case .window where entry.browser != nil && entry.browser != windowBrowsers[entry.id]:
                throw fail("\(at).browser", "a closed window entry's browser is the browser that names it, \(windowBrowsers[entry.id].map(\.uuidString) ?? "none")")
            default:
                break
            }
            if let index = entry.tabIndex, index < 0 { throw fail("\(at).tab_index", "must be 0 or more") }
            for (offset, tab) in entry.tabs.enumerated() {
                let location = "\(at).tabs[\(offset)]"
                try checkTab(tab, at: location)
                if tab.opener != nil || tab.group != nil {
                    throw fail(location, "a closed tab has no opener or group of its own (the entry holds its group)")
                }
            }
        }
        return Validated(browsers: browsers, histories: histories)
    }
}
