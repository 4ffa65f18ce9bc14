import Foundation
import SessionModel
import SessionStorage

/// Opening a file and loading what an app needs at launch, by the store and by raw SQLite.
enum ColdRestore {
    // MARK: - Store

    /// Opens the store and loads every browser's tab list with each tab's current page.
    static func storeTabLists(
        path: String, configuration: SessionDatabase.Configuration
    ) throws -> (database: SessionDatabase, snapshots: [WebStateListSnapshot]) {
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        let tabs = SQLiteWebStateListRepository(database: database)
        let snapshots = try SQLiteBrowserRepository(database: database).browsers().map { try tabs.snapshot(of: $0.id) }
        return (database, snapshots)
    }

    /// Loads the full history of every tab of `snapshots`.
    static func storeHistories(database: SessionDatabase, snapshots: [WebStateListSnapshot]) throws -> Int {
        let histories = SQLiteNavigationHistoryRepository(database: database)
        var entries = 0
        for snapshot in snapshots {
            for webState in snapshot.list.webStates {
                entries += try histories.history(of: webState.id).count
            }
        }
        return entries
    }

    // MARK: - Raw SQLite

    /// A tab as raw SQLite reads it for a launch: the columns the store reads, and the current page.
    struct RawTab {
        var id: String
        var sortKey: Int64
        var isPinned: Bool
        var groupID: String?
        var currentIndex: Int64?
        var createdAt: String
        var lastActiveAt: String
        var openerID: String?
        var openerNavigationIndex: Int64?
        var title: String?
        var url: String?
        var virtualURL: String?
        var faviconURL: String?
    }

    /// A history entry as raw SQLite reads it: the columns the store reads.
    struct RawEntry {
        var url: String
        var virtualURL: String?
        var title: String
        var referrerURL: String?
        var referrerPolicy: String
        var transition: String
        var timestamp: String
        var httpStatus: Int64?
        var isPost: Bool
        var faviconURL: String?
        var userAgentType: String
        var pageState: String?
    }

    /// Opens the file and reads every open browser's tabs with their current page, in one query per browser.
    ///
    /// The best query on this file: each tab's page from `tab_pages` (one lookup by key per tab, as the
    /// store reads it), not from the history.
    static func rawTabLists(path: String, synchronous: String) throws -> (RawConnection, [String: [RawTab]]) {
        let connection = try RawConnection(path: path, synchronous: synchronous)
        var browsers: [String] = []
        try connection.prepare("SELECT id FROM browsers WHERE closed_entry_id IS NULL").query { browsers.append($0.text(0)!) }
        let statement = try connection.prepare("""
            SELECT t.id, t.sort_key, t.is_pinned, t.group_id, t.current_entry_index, t.created_at, t.last_active_at,
                   o.opener_tab_id, o.opener_navigation_index, p.title, p.url, p.virtual_url, p.favicon_url
            FROM tabs AS t
            LEFT JOIN tab_openers AS o ON o.tab_id = t.id
            LEFT JOIN tab_pages AS p ON p.tab_id = t.id
            WHERE t.browser_id = ?
            ORDER BY t.sort_key
            """)
        var lists: [String: [RawTab]] = [:]
        for browser in browsers {
            var tabs: [RawTab] = []
            try statement.query([.text(browser)]) { row in
                tabs.append(RawTab(
                    id: row.text(0)!, sortKey: row.integer(1)!, isPinned: row.integer(2) == 1, groupID: row.text(3),
                    currentIndex: row.integer(4), createdAt: row.text(5)!, lastActiveAt: row.text(6)!,
                    openerID: row.text(7), openerNavigationIndex: row.integer(8), title: row.text(9), url: row.text(10),
                    virtualURL: row.text(11), faviconURL: row.text(12)))
            }
            lists[browser] = tabs
        }
        return (connection, lists)
    }

    /// Reads every entry of every tab of `browsers`, in one query per browser.
    static func rawHistories(connection: RawConnection, browsers: [String]) throws -> Int {
        let statement = try connection.prepare("""
            SELECT e.tab_id, e.url, e.virtual_url, e.title, e.referrer_url, e.referrer_policy, e.transition_type,
                   e.timestamp, e.http_status, e.is_post, e.favicon_url, e.user_agent_type, p.data
            FROM navigation_entries AS e
            JOIN tabs AS t ON t.id = e.tab_id
            LEFT JOIN navigation_page_states AS p ON p.entry_id = e.id
            WHERE t.browser_id = ?
            ORDER BY e.tab_id, e.sequence
            """)
        var histories: [String: [RawEntry]] = [:]
        var entries = 0
        for browser in browsers {
            try statement.query([.text(browser)]) { row in
                histories[row.text(0)!, default: []].append(RawEntry(
                    url: row.text(1)!, virtualURL: row.text(2), title: row.text(3)!, referrerURL: row.text(4),
                    referrerPolicy: row.text(5)!, transition: row.text(6)!, timestamp: row.text(7)!,
                    httpStatus: row.integer(8), isPost: row.integer(9) == 1, faviconURL: row.text(10),
                    userAgentType: row.text(11)!, pageState: row.text(12)))
                entries += 1
            }
        }
        return entries
    }

    // MARK: - Peak memory

    /// What a child process restores before reporting its peak memory.
    enum Subject: String, CaseIterable {
        /// Nothing: the process's own baseline.
        case none
        /// The store's tab lists with current pages.
        case store
        /// Raw SQLite reading the same rows.
        case raw
        /// The full-rewrite file, decoded.
        case rewrite
    }

    /// Runs in the child: restores `subject` from `path` and prints the peak RSS in KiB.
    static func runChild(subject: Subject, path: String, configuration: SessionDatabase.Configuration) throws {
        switch subject {
        case .none:
            break
        case .store:
            let (database, snapshots) = try storeTabLists(path: path, configuration: configuration)
            precondition(!snapshots.isEmpty)
            try database.close()
        case .raw:
            let (_, lists) = try rawTabLists(path: path, synchronous: configuration.synchronous.rawValue)
            precondition(!lists.isEmpty)
        case .rewrite:
            let tabs = try FullRewriteSubject.restore(path: path)
            precondition(tabs > 0)
        }
        print("maxrss-kib \(peakResidentKiB())")
    }

    /// Starts this executable again to restore `subject` from `path` in a fresh process,
    /// and returns that process's peak resident set size in KiB.
    static func peakMemoryInChild(subject: Subject, path: String, synchronous: String) throws -> Int {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--child-restore", subject.rawValue, "--child-path", path, "--synchronous", synchronous.lowercased()]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("maxrss-kib ") }),
              let kib = Int(line.dropFirst("maxrss-kib ".count))
        else { throw BenchError("the \(subject.rawValue) restore child failed: \(text)") }
        return kib
    }
}
