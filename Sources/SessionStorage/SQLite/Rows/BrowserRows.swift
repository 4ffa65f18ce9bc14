import Foundation
internal import GRDB
import SessionModel

/// The SQL that creates browsers and orders them by activation.
enum BrowserRows {
    /// Inserts a new, empty browser, made the most recently active one.
    ///
    /// Its `revision` starts at a random value, so a browser deleted and created
    /// again under the same identifier never matches a list cached before.
    static func insert(_ db: Database, offTheRecord: Bool) throws -> Browser {
        let now = try latestActivation(db)
        let browser = Browser(createdAt: now, lastActiveAt: now, isOffTheRecord: offTheRecord)
        try insert(db, browser)
        return browser
    }

    /// Inserts `browser` as given (an imported one, possibly a closed window).
    static func insert(_ db: Database, _ browser: Browser, closedEntry: ClosedEntryID? = nil) throws {
        try db.execute(
            sql: "INSERT INTO browsers (id, created_at, last_active_at, revision, closed_entry_id) VALUES (?, ?, ?, ?, ?)",
            arguments: [browser.id.uuidString, StoredDate(browser.createdAt), StoredDate(browser.lastActiveAt), Int64.random(in: 0..<(1 << 62)),
                        closedEntry?.uuidString])
    }

    /// Now, or just after the latest activation if the clock has not moved
    /// past it: the browser made active last is always listed first.
    static func latestActivation(_ db: Database) throws -> Date {
        let now = Date().storedPrecision
        guard let latest = try StoredDate.fetchOne(db, sql: "SELECT max(last_active_at) FROM browsers")?.date, latest >= now else {
            return now
        }
        return latest.addingTimeInterval(0.001).storedPrecision
    }

    /// A condition that leaves out the browsers that are not windows: the tab archive's
    /// (migration 0009) and each saved group's (migration 0010). `AND <column> NOT IN (…)`,
    /// for the tables the store has.
    static func onlyWindows(_ db: Database, column: String) throws -> String {
        var condition = ""
        if try db.tableExists("tab_archives") {
            condition += " AND \(column) NOT IN (SELECT browser_id FROM tab_archives)"
        }
        if try db.tableExists("saved_groups") {
            condition += " AND \(column) NOT IN (SELECT browser_id FROM saved_groups)"
        }
        return condition
    }

    /// Whether `browser` is an open window: not closed, not the archive, not a saved group.
    static func isWindow(_ db: Database, _ browser: BrowserID) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM browsers WHERE id = ? AND closed_entry_id IS NULL\(
                try onlyWindows(db, column: "id")))
            """, arguments: [browser.uuidString]) ?? false
    }

    /// The most recently active open window, if any.
    static func mostRecentWindow(_ db: Database) throws -> BrowserID? {
        try String.fetchOne(db, sql: """
            SELECT id FROM browsers WHERE closed_entry_id IS NULL\(try onlyWindows(db, column: "id"))
            ORDER BY last_active_at DESC, created_at DESC, id LIMIT 1
            """).flatMap(BrowserID.init(uuidString:))
    }
}
