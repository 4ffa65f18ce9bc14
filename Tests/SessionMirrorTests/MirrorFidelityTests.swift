import Foundation
import SessionMirror
@testable import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// The mirror against a simulated browser: after every step of random sequences
/// of what users do, the store shows what the browser shows.
@Suite struct MirrorFidelityTests {
    /// Feeds the browser's pending events to the mirror; every one is acknowledged.
    /// Then the browser goes on running past the delay after which removed windows are closed.
    static func deliver(_ browser: SimulatedBrowser, to mirror: BrowserMirror) throws {
        for event in browser.takeEvents() {
            let reply = try mirror.handle(event)
            #expect(reply.ack == event.id && reply.error == nil, "\(event.type): \(reply)")
        }
        try mirror.closeRemovedWindows(dueBy: .distantFuture)
    }

    /// Every mismatch between what the browser shows and what the store holds.
    static func mismatches(
        _ browser: SimulatedBrowser, _ mirror: BrowserMirror, _ store: TemporaryStore, checkHistories: Bool = true
    ) throws -> [String] {
        var found: [String] = []
        let shown = browser.windows.filter { !$0.incognito }
        let open = try store.browsers.browsers().map(\.id)
        if open.count != shown.count { found.append("\(open.count) browsers in the store, \(shown.count) windows") }
        for window in shown {
            guard let id = mirror.browser(forWindow: window.id) else {
                found.append("window \(window.id) has no browser")
                continue
            }
            let snapshot = try store.tabs.snapshot(of: id)
            let list = snapshot.list
            let urls = list.webStates.map { snapshot.pages[$0.id]?.url ?? "-" }
            if urls != window.tabs.map(\.url) { found.append("window \(window.id): \(urls) vs \(window.tabs.map(\.url))") }
            if list.webStates.map(\.id) != window.tabs.map({ mirror.webState(forTab: $0.id) }) {
                found.append("window \(window.id): identifiers")
            }
            if list.pinnedCount != window.tabs.prefix(while: \.pinned).count { found.append("window \(window.id): pinned") }
            let groups = list.webStates.indices.map { list.groupID(at: $0).flatMap { list.groups[$0]?.visualData.title } }
            let shownGroups = window.tabs.map { $0.groupId.flatMap { browser.groups[$0]?.title } }
            if groups != shownGroups { found.append("window \(window.id): groups \(groups) vs \(shownGroups)") }
            let colors = list.webStates.indices.map { list.groupID(at: $0).flatMap { list.groups[$0]?.visualData.color.rawValue } }
            // Firefox says "gray" where the store (and Chromium) say "grey".
            let shownColors = window.tabs.map { $0.groupId.flatMap { browser.groups[$0]?.color.map { $0 == "gray" ? "grey" : $0 } } }
            if colors != shownColors {
                found.append("window \(window.id): colours")
            }
            // Each tab's history, back and forward entries included (the simulated URLs are unique).
            if checkHistories {
                for tab in window.tabs {
                    guard let id = mirror.webState(forTab: tab.id) else { continue }
                    let history = try store.histories.history(of: id)
                    if history.items.map(\.url) != tab.history || history.currentIndex != tab.current {
                        found.append("tab \(tab.id): history \(history.items.map(\.url)) at \(String(describing: history.currentIndex)) vs \(tab.history) at \(tab.current)")
                    }
                }
            }
            let active = window.tabs.firstIndex { $0.id == window.active }
            if list.activeIndex != active { found.append("window \(window.id): active \(String(describing: list.activeIndex)) vs \(String(describing: active))") }
        }
        return found
    }

    @Test(arguments: 0..<40)
    func randomSequences_storeShowsWhatTheBrowserShows_afterEveryStep(seed: UInt64) throws {
        let store = try TemporaryStore.onDisk()
        let mirror = BrowserMirror(database: store.database)
        let browser = SimulatedBrowser()
        var rng = SplitMix64(seed: seed)
        func pick<T>(_ values: [T]) -> T? { values.isEmpty ? nil : values[Int(rng.next() % UInt64(values.count))] }
        var page = 0
        func url(private isPrivate: Bool = false) -> String {
            page += 1
            return isPrivate ? "https://private.example/\(page)" : "https://site\(page % 7).example/page/\(page)"
        }
        browser.openWindow(url: url())
        try Self.deliver(browser, to: mirror)
        for step in 0..<100 {
            let windows = browser.windows.filter { !$0.incognito }
            let tabs = windows.flatMap { window in window.tabs.map(\.id) }
            switch rng.next() % 15 {
            case 0, 1: if let window = pick(windows) { browser.openTab(in: window.id, url: url(), opener: pick(window.tabs.map(\.id)), at: Int(rng.next() % 8)) }
            case 2: if let tab = pick(tabs) { browser.closeTab(tab) }
            case 3: if let tab = pick(tabs) { browser.move(tab, to: Int(rng.next() % 8)) }
            case 4: if let tab = pick(tabs) { browser.setPinned(tab, rng.next() % 2 == 0) }
            case 5: if let tab = pick(tabs) { browser.group(tab, count: Int(rng.next() % 3) + 1, title: "G\(step)", color: pick(["blue", "red", "gray", "green"])!) }
            case 6: if let tab = pick(tabs) { browser.ungroup(tab) }
            case 7: if let tab = pick(tabs) { browser.renameGroup(of: tab, title: "R\(step)", color: "purple") }
            case 8, 9: if let tab = pick(tabs) { browser.navigate(tab, to: url()) }
            case 10: if let tab = pick(tabs) { browser.go(tab, by: pick([-1, -2, 1])!) }
            case 11:
                if windows.count < 4 {
                    // Opened empty, a window starts at the browser's own blank page; its tab goes on from there.
                    let empty = rng.next() % 2 == 0
                    _ = browser.openWindow(url: empty ? SimulatedBrowser.blankPage : url())
                    if empty, let tab = browser.windows.last?.tabs.first?.id { browser.navigate(tab, to: url()) }
                } else if let window = pick(windows) { browser.closeWindow(window.id) }
            case 12: if let tab = pick(tabs), let window = pick(windows) { browser.drag(tab, toWindow: window.id, at: Int(rng.next() % 6)) }
            case 13: if let tab = pick(tabs) { browser.discard(tab) }
            default:
                let window = browser.openWindow(url: url(private: true), incognito: true)
                browser.openTab(in: window, url: url(private: true))
                browser.closeWindow(window)
            }
            if rng.next() % 3 == 0, let tab = pick(browser.windows.filter { !$0.incognito }.flatMap { $0.tabs.map(\.id) }) {
                browser.activate(tab)
            }
            try Self.deliver(browser, to: mirror)
            let found = try Self.mismatches(browser, mirror, store)
            #expect(found.isEmpty, "seed \(seed), step \(step): \(found)")
            if !found.isEmpty { return }
        }
        // No private page reached the file.
        let path = try #require(store.path)
        try store.database.close()
        let problems = try SessionStoreFile.check(atPath: path)
        #expect(problems.isEmpty, "\(problems)")
        for file in [path, path + "-wal"] {
            let bytes = fileBytes(file) ?? Data()
            #expect(bytes.range(of: Data("private.example".utf8)) == nil, "\(file)")
        }
    }
}
