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
    /// history of ``SessionContent/historyLength`` entries, through the repositories.
    static func seed(atPath path: String, tabCount: Int, configuration: SessionDatabase.Configuration) throws {
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        let browser = try SQLiteBrowserRepository(database: database).createBrowser()
        let webStates = (0..<tabCount).map { _ in WebState() }
        try SQLiteWebStateListRepository(database: database).update(browser.id) { list in
            list = try WebStateList(
                webStates: webStates, pinnedCount: 0, groupIDs: Array(repeating: nil, count: tabCount), groups: [],
                activeIndex: tabCount / 2)
        }
        let histories = SQLiteNavigationHistoryRepository(database: database)
        for (tab, webState) in webStates.enumerated() {
            try histories.update(webState.id) { history in
                for entry in 0..<SessionContent.historyLength {
                    try history.commit(NavigationItem(
                        url: SessionContent.url(tab: tab, entry: entry),
                        title: SessionContent.title(tab: tab, entry: entry)))
                }
            }
        }
        try database.close()
    }
}

/// A failure of the benchmark itself, described in one sentence.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
