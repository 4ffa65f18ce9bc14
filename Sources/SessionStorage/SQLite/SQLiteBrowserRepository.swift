import Foundation
import GRDB
import SessionModel

/// The SQLite implementation of ``BrowserRepository``.
public final class SQLiteBrowserRepository: BrowserRepository {
    private let database: SessionDatabase

    /// A repository over `database`.
    public init(database: SessionDatabase) {
        self.database = database
    }

    public func createBrowser() throws -> Browser {
        try database.mutate { db in
            let now = try latestActivation(db)
            let browser = Browser(createdAt: now, lastActiveAt: now, isOffTheRecord: database.isOffTheRecord)
            try db.execute(
                sql: """
                    INSERT INTO browsers (id, created_at, last_active_at, revision) VALUES (?, ?, ?, ?)
                    """,
                arguments: [browser.id.uuidString, browser.createdAt, browser.lastActiveAt,
                            Int64.random(in: 0..<(1 << 62))])
            return browser
        }
    }

    public func browsers() throws -> [Browser] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, created_at, last_active_at FROM browsers
                WHERE closed_entry_id IS NULL ORDER BY last_active_at DESC, created_at DESC, id
                """).compactMap(browser(from:))
        }
    }

    public func browser(_ id: BrowserID) throws -> Browser? {
        try database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT id, created_at, last_active_at FROM browsers WHERE id = ? AND closed_entry_id IS NULL",
                arguments: [id.uuidString]
            ).flatMap(browser(from:))
        }
    }

    public func markActive(_ id: BrowserID) throws {
        try database.mutate { db in
            try db.execute(
                sql: "UPDATE browsers SET last_active_at = ? WHERE id = ? AND closed_entry_id IS NULL",
                arguments: [try latestActivation(db), id.uuidString])
            if db.changesCount == 0 { throw StorageError.unknownBrowser(id.uuidString) }
        }
    }

    public func closeBrowser(_ id: BrowserID) throws {
        try database.mutate { db in
            try db.execute(
                sql: "DELETE FROM browsers WHERE id = ? AND closed_entry_id IS NULL", arguments: [id.uuidString])
            if db.changesCount == 0 { throw StorageError.unknownBrowser(id.uuidString) }
        }
    }

    public func browserSummaries() throws -> [BrowserSummary] {
        try database.read { db in try Self.summaries(db, offTheRecord: database.isOffTheRecord) }
    }

    public func observeBrowsers(
        onChange: @escaping @Sendable (Result<[BrowserSummary], any Error>) -> Void
    ) -> any StoreObservation {
        let offTheRecord = database.isOffTheRecord
        return SnapshotObserver(
            database: database, fetch: { db in try Self.summaries(db, offTheRecord: offTheRecord) }, onChange: onChange)
    }

    private static func summaries(_ db: Database, offTheRecord: Bool) throws -> [BrowserSummary] {
        try Row.fetchAll(db, sql: """
            SELECT b.id, b.created_at, b.last_active_at, b.active_tab_id,
                   (SELECT count(*) FROM tabs WHERE tabs.browser_id = b.id) AS tab_count,
                   e.title, e.url, e.virtual_url, e.favicon_url
            FROM browsers AS b
            LEFT JOIN tabs AS t ON t.id = b.active_tab_id
            LEFT JOIN navigation_entries AS e ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
            WHERE b.closed_entry_id IS NULL
            ORDER BY b.last_active_at DESC, b.created_at DESC, b.id
            """).compactMap { row in
            guard let id = BrowserID(uuidString: row["id"]) else { return nil }
            let url: String? = row["url"]
            return BrowserSummary(
                browser: Browser(id: id, createdAt: row["created_at"], lastActiveAt: row["last_active_at"],
                                 isOffTheRecord: offTheRecord),
                tabCount: row["tab_count"],
                activeTab: (row["active_tab_id"] as String?).flatMap(WebStateID.init(uuidString:)),
                activePage: url.map {
                    PageSummary(title: row["title"], url: $0, virtualURL: row["virtual_url"], faviconURL: row["favicon_url"])
                })
        }
    }

    /// Now, or just after the latest activation if the clock has not moved
    /// past it: the browser made active last is always listed first.
    private func latestActivation(_ db: Database) throws -> Date {
        let now = Date().storedPrecision
        guard let latest = try Date.fetchOne(db, sql: "SELECT max(last_active_at) FROM browsers"), latest >= now else {
            return now
        }
        return latest.addingTimeInterval(0.001).storedPrecision
    }

    private func browser(from row: Row) -> Browser? {
        guard let id = BrowserID(uuidString: row["id"]) else { return nil }
        return Browser(
            id: id, createdAt: row["created_at"], lastActiveAt: row["last_active_at"],
            isOffTheRecord: database.isOffTheRecord)
    }
}
