import Foundation
import SessionModel
import SessionStorage

/// Identity across restarts. A snapshot (every window, at the extension's start
/// and after the host reconnects) is matched to the store's open browsers:
///
/// 1. A tab that carries the store identifier the host gave it (`sid`: Firefox
///    keeps it across a restart with `sessions.setTabValue`; both browsers keep
///    it while they run) is that tab; its window is the browser holding most
///    such tabs.
/// 2. Other windows are matched to the remaining browsers by their tabs' URLs in
///    order: the pair whose longest common subsequence of URLs is longest first,
///    as long as it covers half the shorter list. Within a pair, the tabs of that
///    subsequence keep their identifiers, histories and openers, and so do the tabs
///    between two of them where both lists have as many (a tab still loading has no
///    URL yet).
///    In every window matched by 1 or 2, a tab still unmatched is matched by URL
///    among its browser's tabs nothing claimed.
/// 3. Windows left over become new browsers; browsers left over are closed
///    (listed as recently closed windows, restorable) — unless the snapshot has no
///    tab at all, which never closes anything: a browser that reports nothing yet
///    has not lost its session.
///
/// Only this browser's windows (``BrowserMirror/source``) take part, and those of
/// no source, which become this browser's when matched and are never closed:
/// another browser sharing the store, and the app's own windows, are left alone.
///
/// Then every window is written as the browser shows it. A tab matched by URL
/// alone may be the wrong one of two tabs with the same URL; a window whose tabs
/// all changed while the browser was off is not recognised, and becomes a new browser.
extension BrowserMirror {
    func applySnapshot(_ windows: [BrowserWindow]) throws -> [String: String] {
        let state = BrowserState(snapshot: windows)
        // This browser's windows, and those no browser keeps (the app's, or an older host's):
        // another browser's windows sharing the store are not looked at.
        let sources = try browsers.sources()
        let stored = try browsers.browsers().map(\.id).filter { sources[$0] == nil || sources[$0] == source }
        var storedLists: [BrowserID: WebStateListSnapshot] = [:]
        var browserOfTab: [WebStateID: BrowserID] = [:]
        for browser in stored {
            let snapshot = try lists.snapshot(of: browser)
            storedLists[browser] = snapshot
            for webState in snapshot.list.webStates { browserOfTab[webState.id] = browser }
        }
        var tabOf: [Int: WebStateID] = [:]
        var browserOf: [Int: BrowserID] = [:]
        let sids = Dictionary(windows.flatMap { $0.tabs ?? [] }.map { ($0.id, $0.sid) }, uniquingKeysWith: { first, _ in first })
        // 1. Identifiers the tabs carry, or that this host gave them while the browser ran.
        for (window, order) in state.windows {
            var votes: [BrowserID: Int] = [:]
            for tab in order {
                let carried = (sids[tab] ?? nil).flatMap(WebStateID.init(uuidString:)) ?? memory.tabOf[tab]
                guard let id = carried, let browser = browserOfTab[id], !tabOf.values.contains(id) else { continue }
                tabOf[tab] = id
                votes[browser, default: 0] += 1
            }
            if let best = votes.max(by: { ($0.value, $1.key.uuidString) < ($1.value, $0.key.uuidString) })?.key,
               !browserOf.values.contains(best)
            {
                browserOf[window] = best
            }
        }
        // 2. The other windows, by their URLs in order.
        var candidates: [(window: Int, browser: BrowserID, pairs: [(Int, Int)])] = []
        for (window, order) in state.windows where browserOf[window] == nil {
            let urls = order.map { state.tabs[$0]?.url ?? "" }
            for browser in stored where !browserOf.values.contains(browser) {
                guard let snapshot = storedLists[browser] else { continue }
                let storedURLs = snapshot.list.webStates.map { snapshot.pages[$0.id]?.url ?? "" }
                let pairs = Self.commonSubsequence(urls, storedURLs)
                if pairs.count * 2 >= min(urls.count, storedURLs.count), !pairs.isEmpty {
                    candidates.append((window, browser, Self.pairingGaps(pairs, urls.count, storedURLs.count)))
                }
            }
        }
        candidates.sort { ($0.pairs.count, $1.window) > ($1.pairs.count, $0.window) }
        for candidate in candidates where browserOf[candidate.window] == nil && !browserOf.values.contains(candidate.browser) {
            browserOf[candidate.window] = candidate.browser
            let order = state.windows[candidate.window] ?? []
            let storedTabs = storedLists[candidate.browser]?.list.webStates.map(\.id) ?? []
            for (tabIndex, storedIndex) in candidate.pairs where tabOf[order[tabIndex]] == nil {
                let id = storedTabs[storedIndex]
                if !tabOf.values.contains(id) { tabOf[order[tabIndex]] = id }
            }
        }
        // In every matched window, a tab still unmatched (one Firefox quit before keeping its
        // identifier) is matched by URL among its browser's tabs nothing claimed.
        var claimed = Set(tabOf.values)
        for (window, order) in state.windows {
            guard let browser = browserOf[window], let snapshot = storedLists[browser] else { continue }
            let loose = order.filter { tabOf[$0] == nil }
            let free = snapshot.list.webStates.map(\.id).filter { !claimed.contains($0) }
            let pairs = Self.commonSubsequence(
                loose.map { state.tabs[$0]?.url ?? "" }, free.map { snapshot.pages[$0]?.url ?? "" })
            for (tabIndex, storedIndex) in pairs {
                tabOf[loose[tabIndex]] = free[storedIndex]
                claimed.insert(free[storedIndex])
            }
        }
        // Groups: a browser group is the store group most of its tabs were in.
        var groupOf: [Int: TabGroupID] = [:]
        for (window, order) in state.windows {
            guard let browser = browserOf[window], let list = storedLists[browser]?.list else { continue }
            Self.matchGroups(of: order, state: state, tabOf: tabOf, in: list, into: &groupOf)
        }
        // Split views: a browser split view is the store split that holds both of its tabs.
        var splitOf: [SplitKey: TabSplitID] = [:]
        for (window, order) in state.windows {
            guard let browser = browserOf[window], let list = storedLists[browser]?.list else { continue }
            Self.matchSplits(of: order, in: window, state: state, tabOf: tabOf, in: list, into: &splitOf)
        }
        // Windows removed and not yet closed are open in the store: the matching above took them as such.
        memory = Memory(
            state: state, browserOf: browserOf, tabOf: tabOf, groupOf: groupOf, splitOf: splitOf,
            ignoredSplits: memory.ignoredSplits, ignoredSplitTotal: memory.ignoredSplitTotal, notes: memory.notes)
        // A tab the store keeps in another browser moves to its window's browser first, with its
        // history: before any browser is closed or arranged, so that none of them drops it.
        let order = state.windows.keys.sorted()
        for window in order {
            let browser = try ensureBrowser(window)
            for tab in state.windows[window] ?? [] {
                // `browserOfTab` was read in this transaction, and each tab moves at most once.
                guard let id = memory.tabOf[tab], let holder = browserOfTab[id], holder != browser else { continue }
                try lists.moveWebState(id, to: browser, params: .automatic())
            }
        }
        // A window of no source that this browser shows is this browser's from now on.
        for browser in Set(browserOf.values) where sources[browser] == nil {
            try browsers.setSource(source, of: browser)
        }
        // 3. This browser's windows nothing matched are closed, unless it reported no tab at all.
        if !state.tabs.isEmpty {
            for browser in stored where !browserOf.values.contains(browser) && sources[browser] == source {
                try browsers.closeBrowser(browser)
            }
        }
        var ids: [String: String] = [:]
        for window in order {
            try reconcile(window)
            for tab in state.windows[window] ?? [] {
                try followPage(ofTab: tab, fromSnapshot: true)
                if let id = memory.tabOf[tab] { ids[String(tab)] = id.uuidString }
            }
        }
        memory.provisional.removeAll()
        return ids
    }

    /// Each browser group of a window's tabs (`order`) as the store group of `list` most
    /// of its tabs are in, unless another browser group has that one already.
    static func matchGroups(
        of order: [Int], state: BrowserState, tabOf: [Int: WebStateID], in list: WebStateList,
        into groupOf: inout [Int: TabGroupID]
    ) {
        var votes: [Int: [TabGroupID: Int]] = [:]
        for tab in order {
            guard let group = state.tabs[tab]?.groupId, let id = tabOf[tab], let index = list.index(of: id),
                  let storedGroup = list.groupID(at: index)
            else { continue }
            votes[group, default: [:]][storedGroup, default: 0] += 1
        }
        for (group, counts) in votes {
            if let best = counts.max(by: { $0.value < $1.value })?.key, !groupOf.values.contains(best) {
                groupOf[group] = best
            }
        }
    }

    /// `pairs` with the tabs between two of them (or before the first, or after the
    /// last) paired in order where both lists have as many there: a tab still
    /// loading (no URL yet) or one whose page changed while nothing watched keeps
    /// its place, and so its identity.
    static func pairingGaps(_ pairs: [(Int, Int)], _ count: Int, _ storedCount: Int) -> [(Int, Int)] {
        var filled: [(Int, Int)] = []
        var previous = (-1, -1)
        for pair in pairs + [(count, storedCount)] {
            let gap = pair.0 - previous.0 - 1
            if gap > 0, gap == pair.1 - previous.1 - 1 {
                for offset in 1...gap { filled.append((previous.0 + offset, previous.1 + offset)) }
            }
            if pair.0 < count { filled.append(pair) }
            previous = pair
        }
        return filled
    }

    /// The longest common subsequence of two lists, as index pairs in order
    /// (O(n·m) time and memory; a window of 1,000 tabs against one of 1,000 is a million steps).
    static func commonSubsequence(_ a: [String], _ b: [String]) -> [(Int, Int)] {
        guard !a.isEmpty, !b.isEmpty else { return [] }
        let width = b.count + 1
        var lengths = [Int32](repeating: 0, count: (a.count + 1) * width)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i * width + j] = a[i] == b[j] && !a[i].isEmpty
                    ? lengths[(i + 1) * width + j + 1] + 1
                    : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j], !a[i].isEmpty, lengths[i * width + j] == lengths[(i + 1) * width + j + 1] + 1 {
                pairs.append((i, j))
                i += 1
                j += 1
            } else if lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }
}
