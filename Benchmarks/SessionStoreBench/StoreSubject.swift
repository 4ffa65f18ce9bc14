import Foundation
import SessionModel
import SessionStorage

/// The session store, through its public repositories.
final class StoreSubject: MutationSubject {
    private let database: SessionDatabase
    private let tabs: SQLiteWebStateListRepository
    private let histories: SQLiteNavigationHistoryRepository
    private let browser: BrowserID
    /// The tab order as the store reported it (the insert's returned index), kept here
    /// so that choosing a tab never reads the store between timed calls (settled untimed).
    private var order: TabOrder<WebStateID>
    private var navigationIndexes: [WebStateID: Int]
    /// The tab whose navigation index ``settle()`` moves on.
    private var navigated: WebStateID?

    var count: Int { order.count }

    init(path: String, configuration: SessionDatabase.Configuration) throws {
        database = try SessionDatabase.open(atPath: path, configuration: configuration)
        tabs = SQLiteWebStateListRepository(database: database)
        histories = SQLiteNavigationHistoryRepository(database: database)
        guard let first = try SQLiteBrowserRepository(database: database).browsers().first else {
            throw BenchError("the seeded store has no browser")
        }
        browser = first.id
        let list = try tabs.webStateList(in: browser)
        order = TabOrder(list.webStates.map(\.id))
        navigationIndexes = Dictionary(uniqueKeysWithValues: list.webStates.map { ($0.id, $0.navigationIndex ?? 0) })
    }

    func finish() throws { try database.close() }

    func insert(openerAt openerIndex: Int) throws {
        let opener = order[openerIndex]
        let webState = WebState()
        let index = try tabs.insert(
            webState, in: browser,
            params: .automatic().withOpener(WebStateOpener(openerID: opener, navigationIndex: navigationIndexes[opener])))
        order.record(.insert(webState.id, at: index))
    }

    func move(from: Int, to: Int) throws {
        try tabs.move(in: browser, from: from, to: to)
        order.record(.move(from: from, to: to, element: order[from]))
    }

    func close(at index: Int) throws {
        try tabs.close(in: browser, at: index)
        order.record(.remove(at: index))
    }

    func setPinned(_ pinned: Bool, at index: Int) throws {
        let landed = try tabs.setPinned(pinned, in: browser, at: index)
        order.record(.move(from: index, to: landed, element: order[index]))
    }

    func settle() {
        order.settle()
        if let navigated { navigationIndexes[navigated, default: -1] += 1 }
        navigated = nil
    }

    func navigate(at index: Int, iteration: Int) throws {
        let id = order[index]
        try histories.commit(
            NavigationItem(
                url: SessionContent.navigationURL(iteration: iteration),
                title: SessionContent.navigationTitle(iteration: iteration)),
            in: id)
        navigated = id
    }

    func activate(at index: Int) throws {
        try tabs.activate(in: browser, at: index)
    }

    // MARK: - Seeding

    /// Creates a store at `path` holding one browser of `tabCount` tabs, each with a
    /// history of ``SessionContent/historyLength`` entries: the tab list through the
    /// repositories, the histories in one transaction of plain SQL (``seedHistories(atPath:)``).
    static func seed(atPath path: String, tabCount: Int, configuration: SessionDatabase.Configuration) throws {
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        let browser = try SQLiteBrowserRepository(database: database).createBrowser()
        let webStates = (0..<tabCount).map { _ in WebState() }
        try SQLiteWebStateListRepository(database: database).update(browser.id) { list in
            list = try WebStateList(
                webStates: webStates, pinnedCount: 0, groupIDs: Array(repeating: nil, count: tabCount), groups: [],
                activeIndex: tabCount / 2)
        }
        try database.close()
        try seedHistories(atPath: path)
    }

    /// Gives every open tab of the closed store at `path` the history of ``SessionContent``
    /// (the entries the repositories would write, the last one current), in one transaction:
    /// the store's triggers keep its derived data (`tab_pages`, the search index), as for any
    /// writer. One repository transaction per tab took about 4 ms, over six minutes at 100,000 tabs.
    private static func seedHistories(atPath path: String) throws {
        let connection = try RawConnection(path: path, synchronous: "normal")
        let length = SessionContent.historyLength
        try connection.execute("BEGIN IMMEDIATE")
        // The same pages as SessionContent.url(tab:entry:) and title(tab:entry:), `tab` the tab's index.
        try connection.execute("""
            WITH RECURSIVE entry(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM entry WHERE n + 1 < \(length)),
            ordered AS (
                SELECT id, ROW_NUMBER() OVER (ORDER BY sort_key) - 1 AS tab FROM tabs WHERE browser_id IS NOT NULL)
            INSERT INTO navigation_entries (tab_id, sequence, url, title, timestamp)
            SELECT o.id, e.n,
                   printf('https://www.example.org/articles/%d/%d-a-readable-slug?ref=session', o.tab * 7919 % 100000, e.n),
                   printf('Article %d of section %d \u{2013} Example News', e.n, o.tab),
                   strftime('%Y-%m-%d %H:%M:%f', 'now')
            FROM ordered AS o CROSS JOIN entry AS e
            ORDER BY o.tab, e.n
            """)
        try connection.execute(
            "UPDATE tabs SET history_start = 0, current_entry_index = \(length - 1) WHERE browser_id IS NOT NULL")
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

/// A failure of the benchmark itself, described in one sentence.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
