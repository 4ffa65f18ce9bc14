import Foundation
import SessionModel
import SessionStorage

/// Generates a believable session from a seed, through the repositories only.
struct DemoSession {
    private var random: SplitMix64
    private let historyLength: Int
    private var lastBrowser: BrowserID?
    private static let sites: [(host: String, title: String)] = [
        ("news.example.com", "Morning briefing"), ("docs.example.org", "Reference manual"),
        ("shop.example.net", "Shopping cart"), ("mail.example.com", "Inbox"), ("maps.example.org", "Directions"),
        ("video.example.com", "Watch later"), ("wiki.example.org", "Encyclopedia"), ("forum.example.net", "Threads"),
        ("bank.example.com", "Accounts"), ("travel.example.org", "Flights"),
    ]
    private static let epoch = Date(timeIntervalSince1970: 1_790_000_000)

    init(seed: UInt64, historyLength: Int) {
        random = SplitMix64(seed: seed)
        self.historyLength = historyLength
    }

    private mutating func identifier() -> UUID {
        random.nextUUID()
    }

    /// One browser: two pinned tabs, the rest regular, some opened from others, two groups, histories.
    mutating func fillBrowser(in database: SessionDatabase, tabCount: Int, progress: Progress) throws {
        let browsers = SQLiteBrowserRepository(database: database)
        let lists = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        let browser = try browsers.createBrowser().id
        lastBrowser = browser
        var created: [WebStateID] = []
        let batch = 500
        var start = 0
        while start < tabCount {
            let end = min(tabCount, start + batch)
            var plan: [(WebState, InsertionParams)] = []
            for index in start..<end {
                let webState = WebState(id: WebStateID(rawValue: identifier()), createdAt: Self.epoch)
                var params = InsertionParams.automatic()
                if index < min(2, tabCount / 3) {
                    params = params.pinned()
                } else if let opener = created.last, index % 4 == 3 {
                    params = params.withOpener(WebStateOpener(openerID: opener))
                }
                plan.append((webState, params))
                created.append(webState.id)
            }
            try lists.update(browser) { list in
                for (webState, params) in plan { try list.insert(webState, params: params) }
            }
            for id in created[start..<end] {
                let length = 1 + Int(random.next() % UInt64(historyLength))
                try histories.update(id) { history in
                    for step in 0..<length {
                        let site = Self.sites[Int(random.next() % UInt64(Self.sites.count))]
                        try history.commit(NavigationItem(
                            url: "https://\(site.host)/page/\(random.next() % 1000)", title: site.title,
                            transition: step == 0 ? .typed : .link,
                            timestamp: Self.epoch.addingTimeInterval(Double(step) * 60),
                            httpStatus: 200, faviconURL: "https://\(site.host)/favicon.ico"))
                    }
                    if length > 1, random.next() % 3 == 0 { try history.goBack() }
                }
            }
            progress.advance(by: end - start)
            start = end
        }
        let activeIndex = Int(random.next() % UInt64(tabCount))
        try lists.update(browser) { list in
            let regular = list.pinnedCount
            if list.count - regular >= 4 {
                try list.createGroup(
                    at: [regular, regular + 1], visualData: TabGroupVisualData(title: "Research", color: .blue))
            }
            if list.count - regular >= 7 {
                try list.createGroup(
                    at: [list.count - 2, list.count - 1],
                    visualData: TabGroupVisualData(title: "Shopping", color: .orange, isCollapsed: true))
            }
            try list.activate(at: min(activeIndex, list.count - 1))
        }
    }

    /// Closes the last tab of the last browser, so the store has a recently closed entry.
    ///
    /// - Returns: The entry the close made, or `nil` when the browser had one tab only.
    @discardableResult
    mutating func closeOneTab(in database: SessionDatabase) throws -> RecentlyClosedEntry? {
        guard let browser = lastBrowser else { return nil }
        let lists = SQLiteWebStateListRepository(database: database)
        let count = try lists.webStateList(in: browser).count
        guard count > 1 else { return nil }
        try lists.close(in: browser, at: count - 1)
        return try SQLiteRecentlyClosedRepository(database: database).entries().first
    }

    /// Browses in an off-the-record browser: an in-memory store, never the file.
    ///
    /// - Returns: The page it visited.
    @discardableResult
    mutating func browseOffTheRecord() throws -> String {
        let memory = try SessionDatabase.inMemory()
        let browser = try SQLiteBrowserRepository(database: memory).createBrowser().id
        let tab = WebState(id: WebStateID(rawValue: identifier()))
        try SQLiteWebStateListRepository(database: memory).insert(tab, in: browser, params: .automatic().activate())
        try SQLiteNavigationHistoryRepository(database: memory).commit(
            NavigationItem(url: "https://private.example.com/", title: "Private"), in: tab.id)
        try SQLiteBrowserRepository(database: memory).closeBrowser(browser)
        return "https://private.example.com/"
    }
}
