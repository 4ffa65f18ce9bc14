import Foundation

/// The limit: the raw SQLite C API running the minimal SQL for the same change,
/// with prepared statements in one transaction per mutation.
///
/// It runs on two files: a copy of the store's (the same schema, so the same
/// triggers), and a file of the first schema only (`0001`, no derived data:
/// no search index, no `tab_pages`, no sync triggers), seeded with the same
/// content (see ``MinimalSchema``). The SQL only touches the `0001` tables.
///
/// It keeps what a competent client keeps (each tab's id and sort key in order,
/// each history's start and length, the active tab), and updates all of it in
/// ``settle()``, outside the timed region.
final class RawSQLiteSubject: MutationSubject {
    /// One open tab, in order.
    struct Tab {
        var id: String
        var key: Int64
    }

    private let connection: RawConnection
    private let browser: String
    private var order: TabOrder<Tab>
    /// Each tab's `history_start` and entry count.
    private var histories: [String: (start: Int64, count: Int64)]
    private var activeID: String?
    /// The history and active-tab bookkeeping of the last call, applied by ``settle()``.
    private var pendingHistory: (id: String, history: (start: Int64, count: Int64))?
    private var pendingActive: String??
    /// Inserts and moves placed at the end because their gap had no room (no re-spreading here).
    private(set) var placementFallbacks = 0

    private let begin, commit, bumpRevision, setActive, touchTab, insertTab, insertOpener, setSortKey, setPinnedKey: RawStatement
    private let insertClosedEntry, deleteOpeners, moveToClosedEntry, pruneByAge, pruneByCount: RawStatement
    private let insertEntry, setCurrentEntry: RawStatement

    var count: Int { order.count }

    init(path: String, synchronous: String) throws {
        connection = try RawConnection(path: path, synchronous: synchronous)
        var browser: String?
        var activeID: String?
        try connection.prepare("SELECT id, active_tab_id FROM browsers LIMIT 1").query { row in
            browser = row.text(0)
            activeID = row.text(1)
        }
        self.activeID = activeID
        guard let browser else { throw BenchError("the seeded file has no browser") }
        self.browser = browser
        var tabs: [Tab] = []
        var histories: [String: (start: Int64, count: Int64)] = [:]
        try connection.prepare("""
            SELECT t.id, t.sort_key, t.history_start, (SELECT count(*) FROM navigation_entries WHERE tab_id = t.id)
            FROM tabs AS t WHERE t.browser_id = ? ORDER BY t.sort_key
            """).query([.text(browser)]) { row in
            let id = row.text(0)!
            tabs.append(Tab(id: id, key: row.integer(1)!))
            histories[id] = (row.integer(2)!, row.integer(3)!)
        }
        (self.order, self.histories) = (TabOrder(tabs), histories)

        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        bumpRevision = try connection.prepare("UPDATE browsers SET revision = revision + 1 WHERE id = ?")
        setActive = try connection.prepare("UPDATE browsers SET revision = revision + 1, active_tab_id = ? WHERE id = ?")
        touchTab = try connection.prepare("UPDATE tabs SET last_active_at = ? WHERE id = ?")
        insertTab = try connection.prepare("""
            INSERT INTO tabs (id, browser_id, sort_key, is_pinned, group_id, created_at, last_active_at)
            VALUES (?, ?, ?, 0, NULL, ?, ?)
            """)
        insertOpener = try connection.prepare(
            "INSERT INTO tab_openers (tab_id, opener_tab_id, opener_navigation_index) VALUES (?, ?, ?)")
        setSortKey = try connection.prepare("UPDATE tabs SET sort_key = ? WHERE id = ?")
        setPinnedKey = try connection.prepare("UPDATE tabs SET is_pinned = ?, sort_key = ? WHERE id = ?")
        insertClosedEntry = try connection.prepare(
            "INSERT INTO closed_entries (id, kind, closed_at, browser_id, tab_index) VALUES (?, 'tab', ?, ?, ?)")
        deleteOpeners = try connection.prepare("DELETE FROM tab_openers WHERE tab_id = ? OR opener_tab_id = ?")
        moveToClosedEntry = try connection.prepare(
            "UPDATE tabs SET browser_id = NULL, closed_entry_id = ?, group_id = NULL WHERE id = ?")
        pruneByAge = try connection.prepare("DELETE FROM closed_entries WHERE closed_at < ?")
        pruneByCount = try connection.prepare("""
            DELETE FROM closed_entries WHERE rowid NOT IN (
                SELECT rowid FROM closed_entries ORDER BY closed_at DESC, rowid DESC LIMIT 25)
            """)
        insertEntry = try connection.prepare("""
            INSERT INTO navigation_entries (tab_id, sequence, url, title, timestamp) VALUES (?, ?, ?, ?, ?)
            """)
        setCurrentEntry = try connection.prepare("UPDATE tabs SET current_entry_index = ? WHERE id = ?")
    }

    private func transaction(_ body: () throws -> Void) throws {
        try begin.run()
        do {
            try body()
            try commit.run()
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// A key for a tab placed at `position` (before the tab at `position`) of the order
    /// without the tab at `skipping` (the one a move takes out), and where it goes.
    private func key(at position: Int, skipping: Int? = nil) -> (key: Int64, position: Int) {
        let step: Int64 = 1 << 32
        let count = order.count - (skipping == nil ? 0 : 1)
        func key(_ index: Int) -> Int64 { order[skipping.map { index >= $0 ? index + 1 : index } ?? index].key }
        let left = position > 0 ? key(position - 1) : nil
        let right = position < count ? key(position) : nil
        switch (left, right) {
        case (let left?, let right?) where right - left >= 2: return (left + (right - left) / 2, position)
        case (nil, let right?): return (right - step, position)
        case (let left?, nil): return (left + step, position)
        case (nil, nil): return (0, position)
        default:
            placementFallbacks += 1
            return (key(count - 1) + step, count)
        }
    }

    func insert(openerAt openerIndex: Int) throws {
        let opener = order[openerIndex].id
        let id = UUID().uuidString.lowercased()
        let now = storedTimestamp()
        let (key, position) = key(at: openerIndex + 1)
        let openerEntries = histories[opener]!.count
        try transaction {
            try insertTab.run([.text(id), .text(browser), .integer(key), .text(now), .text(now)])
            try insertOpener.run([.text(id), .text(opener), openerEntries > 0 ? .integer(openerEntries - 1) : .null])
            try bumpRevision.run([.text(browser)])
        }
        order.record(.insert(Tab(id: id, key: key), at: position))
        pendingHistory = (id, (0, 0))
    }

    func move(from: Int, to: Int) throws {
        let id = order[from].id
        let (key, position) = key(at: to, skipping: from)
        try transaction {
            try setSortKey.run([.integer(key), .text(id)])
            try bumpRevision.run([.text(browser)])
        }
        order.record(.move(from: from, to: position, element: Tab(id: id, key: key)))
    }

    func close(at index: Int) throws {
        let id = order[index].id
        let now = storedTimestamp()
        let entry = UUID().uuidString.lowercased()
        var newActive = activeID
        if id == activeID {
            newActive = index + 1 < order.count ? order[index + 1].id : (index > 0 ? order[index - 1].id : nil)
        }
        try transaction {
            try insertClosedEntry.run([.text(entry), .text(now), .text(browser), .integer(Int64(index))])
            try deleteOpeners.run([.text(id), .text(id)])
            try moveToClosedEntry.run([.text(entry), .text(id)])
            try setActive.run([newActive.map(RawValue.text) ?? .null, .text(browser)])
            try pruneByAge.run([.text("0000-00-00")])
            try pruneByCount.run()
        }
        order.record(.remove(at: index))
        pendingActive = .some(newActive)
    }

    func navigate(at index: Int, iteration: Int) throws {
        let id = order[index].id
        let (start, count) = histories[id]!
        let sequence = start + count
        let now = storedTimestamp()
        try transaction {
            try insertEntry.run([
                .text(id), .integer(sequence), .text(SessionContent.navigationURL(iteration: iteration)),
                .text(SessionContent.navigationTitle(iteration: iteration)), .text(now),
            ])
            try setCurrentEntry.run([.integer(count), .text(id)])
            try bumpRevision.run([.text(browser)])
        }
        pendingHistory = (id, (start, count + 1))
    }

    func activate(at index: Int) throws {
        let id = order[index].id
        let now = storedTimestamp()
        try transaction {
            try setActive.run([.text(id), .text(browser)])
            try touchTab.run([.text(now), .text(id)])
        }
        pendingActive = .some(id)
    }

    /// The bench pins only while no other tab is pinned: a pinned tab goes first, an unpinned one last.
    func setPinned(_ pinned: Bool, at index: Int) throws {
        let id = order[index].id
        let (key, position) = key(at: pinned ? 0 : order.count - 1, skipping: index)
        try transaction {
            try setPinnedKey.run([.integer(pinned ? 1 : 0), .integer(key), .text(id)])
            try bumpRevision.run([.text(browser)])
        }
        order.record(.move(from: index, to: position, element: Tab(id: id, key: key)))
    }

    func settle() {
        order.settle()
        if let (id, history) = pendingHistory { histories[id] = history }
        if let pendingActive { activeID = pendingActive }
        pendingHistory = nil
        pendingActive = nil
    }
}
