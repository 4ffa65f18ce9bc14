import Foundation
import SessionMirror
import SessionStorage

/// The browser mirror's startup at scale, with no browser (issue 34's scale goal):
/// a store that holds a browser's last session (windows of tabs, each with a
/// short history, some pinned and grouped), then the snapshot the browser sends
/// at its next start, every window and tab under a new id, read by a new host.
/// Chromium carries nothing across the restart, so the host matches windows by
/// their tabs' URLs in order; Firefox carries each tab's store identifier
/// (`sid`). Both are timed, beside the first snapshot that wrote the session
/// into an empty store (the same rows, written with no matching to do).
enum MirrorRestart {
    struct Result {
        var tabs: Int
        var windows: Int
        /// Nanoseconds.
        var firstSnapshot: Double
        var byURL: Double
        var byCarriedID: Double
        var keptByURL: Int
        var keptByCarriedID: Int
    }

    /// The session as a snapshot: `windows` windows sharing `tabs` tabs, ids from `base`.
    static func snapshot(tabs: Int, windows: Int, base: Int, sids: [String: String]? = nil) -> MirrorMessage {
        var described: [BrowserWindow] = []
        var next = base
        for w in 0..<windows {
            let windowID = base + 1_000_000 + w
            var window = BrowserWindow(id: windowID, tabs: [], groups: [BrowserGroup(id: base + 2_000_000 + w, windowId: windowID, title: "Group \(w)", color: "blue")])
            let count = tabs / windows + (w < tabs % windows ? 1 : 0)
            for t in 0..<count {
                next += 1
                let url = "https://site\(t % 97).example/w\(w)/t\(t)"
                var tab = BrowserTab(
                    id: next, windowId: windowID, index: t, url: url, title: "Tab \(t) of window \(w)", pinned: t < 2,
                    groupId: (5..<15).contains(t) ? base + 2_000_000 + w : -1, active: t == count / 2)
                tab.sid = sids?["\(w)/\(t)"]
                window.tabs?.append(tab)
            }
            described.append(window)
        }
        var message = MirrorMessage(id: base, type: .snapshot)
        message.windows = described
        return message
    }

    static func run(tabs: Int, windows: Int, root: String) throws -> Result {
        let path = root + "/mirror-restart-\(tabs).sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let database = try SessionDatabase.open(atPath: path)
        defer { try? database.close() }
        // The last session, written by a first host from the browser's first snapshot.
        let first = BrowserMirror(database: database)
        let original = snapshot(tabs: tabs, windows: windows, base: 0)
        let start = monotonicNanoseconds()
        _ = try first.handle(original)
        let firstSnapshot = Double(monotonicNanoseconds() - start)
        // Each tab's store identifier, by its place, as Firefox would carry it.
        var sids: [String: String] = [:]
        for (w, window) in (original.windows ?? []).enumerated() {
            for (t, tab) in (window.tabs ?? []).enumerated() {
                sids["\(w)/\(t)"] = first.webState(forTab: tab.id)?.uuidString
            }
        }
        let before = Set(sids.values)
        func restart(base: Int, carrying: Bool) throws -> (Double, Int) {
            let host = BrowserMirror(database: database)
            let message = snapshot(tabs: tabs, windows: windows, base: base, sids: carrying ? sids : nil)
            let start = monotonicNanoseconds()
            _ = try host.handle(message)
            let elapsed = Double(monotonicNanoseconds() - start)
            let kept = (message.windows ?? []).flatMap { $0.tabs ?? [] }
                .filter { host.webState(forTab: $0.id).map { before.contains($0.uuidString) } == true }.count
            return (elapsed, kept)
        }
        let (byURL, keptByURL) = try restart(base: 10_000_000, carrying: false)
        let (byCarriedID, keptByCarriedID) = try restart(base: 20_000_000, carrying: true)
        return Result(
            tabs: tabs, windows: windows, firstSnapshot: firstSnapshot, byURL: byURL, byCarriedID: byCarriedID,
            keptByURL: keptByURL, keptByCarriedID: keptByCarriedID)
    }

    static func lines(_ result: Result) -> [String] {
        let ms = Report.duration
        let goal = 2e9
        let met = result.byURL <= goal && result.byCarriedID <= goal
            && result.keptByURL == result.tabs && result.keptByCarriedID == result.tabs
        return [
            "mirror startup, \(result.tabs) tabs in \(result.windows) windows, no browser:",
            "  first snapshot into an empty store (every row written)     \(ms(result.firstSnapshot))",
            "  restart, matched by URL order (Chromium)                     \(ms(result.byURL))  \(Report.ratio(result.byURL, result.firstSnapshot)) of the first; \(result.keptByURL) of \(result.tabs) tabs kept their identifiers",
            "  restart, carried identifiers (Firefox)                       \(ms(result.byCarriedID))  \(Report.ratio(result.byCarriedID, result.firstSnapshot)) of the first; \(result.keptByCarriedID) of \(result.tabs) tabs kept their identifiers",
            "",
            "Goal (issue 34):",
            "  \(met ? "MET    " : "NOT MET") the host re-identifies a \(result.tabs)-tab, \(result.windows)-window startup snapshot within 2 s, every tab kept: by URL \(ms(result.byURL)), by carried id \(ms(result.byCarriedID))",
        ]
    }
}
