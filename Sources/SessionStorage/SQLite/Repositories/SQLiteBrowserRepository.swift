import Foundation
internal import GRDB
import SessionModel

/// The SQLite implementation of ``BrowserRepository``.
public final class SQLiteBrowserRepository: BrowserRepository {
    let database: SessionDatabase

    /// A repository over `database`.
    public init(database: SessionDatabase) {
        self.database = database
    }

    public func createBrowser() throws -> Browser {
        try database.mutate(creatingBrowser())
    }

    public func createBrowser() async throws -> Browser {
        try await database.mutate(creatingBrowser())
    }

    public func browsers() throws -> [Browser] {
        try database.read(readingBrowsers())
    }

    public func browsers() async throws -> [Browser] {
        try await database.read(readingBrowsers())
    }

    public func browser(_ id: BrowserID) throws -> Browser? {
        try database.read(readingBrowser(id))
    }

    public func browser(_ id: BrowserID) async throws -> Browser? {
        try await database.read(readingBrowser(id))
    }

    public func markActive(_ id: BrowserID) throws {
        try database.mutate(markingActive(id))
    }

    public func markActive(_ id: BrowserID) async throws {
        try await database.mutate(markingActive(id))
    }

    public func closeBrowser(_ id: BrowserID) throws {
        try database.mutate(closing(id))
    }

    public func closeBrowser(_ id: BrowserID) async throws {
        try await database.mutate(closing(id))
    }

    public func browserSummaries() throws -> [BrowserSummary] {
        try database.read(readingSummaries())
    }

    public func browserSummaries() async throws -> [BrowserSummary] {
        try await database.read(readingSummaries())
    }

    // MARK: - Transactions

    private func creatingBrowser() -> @Sendable (Database) throws -> Browser {
        let offTheRecord = database.isOffTheRecord
        return { db in try BrowserRows.insert(db, offTheRecord: offTheRecord) }
    }

    private func readingBrowsers() -> @Sendable (Database) throws -> [Browser] {
        { db in
            try Row.fetchAll(db, sql: """
                SELECT id, created_at, last_active_at FROM browsers
                WHERE closed_entry_id IS NULL\(try BrowserRows.onlyWindows(db, column: "id"))
                ORDER BY last_active_at DESC, created_at DESC, id
                """).compactMap(self.browser(from:))
        }
    }

    private func readingBrowser(_ id: BrowserID) -> @Sendable (Database) throws -> Browser? {
        { db in
            try Row.fetchOne(
                db, sql: """
                    SELECT id, created_at, last_active_at FROM browsers WHERE id = ? AND closed_entry_id IS NULL\(
                        try BrowserRows.onlyWindows(db, column: "id"))
                    """,
                arguments: [id.uuidString]
            ).flatMap(self.browser(from:))
        }
    }

    private func markingActive(_ id: BrowserID) -> @Sendable (Database) throws -> Void {
        { db in
            try db.execute(
                sql: "UPDATE browsers SET last_active_at = ? WHERE id = ? AND closed_entry_id IS NULL",
                arguments: [StoredDate(try BrowserRows.latestActivation(db)), id.uuidString])
            if db.changesCount == 0 { throw StorageError.unknownBrowser(id.uuidString) }
        }
    }

    private func closing(_ id: BrowserID) -> @Sendable (Database) throws -> Void {
        let configuration = database.configuration
        return { db in
            guard try WebStateListRows.revision(db, browser: id) != nil else {
                throw StorageError.unknownBrowser(id.uuidString)
            }
            // TabListRules.md, Recently closed: a window with all its tabs; a window with
            // none leaves no entry (as Chromium's TabRestoreService keeps none), it goes.
            let tabCount = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM tabs WHERE browser_id = ?"), arguments: [id.uuidString]) ?? 0
            if tabCount == 0 {
                try db.cachedStatement(sql: "DELETE FROM browsers WHERE id = ?").execute(arguments: [id.uuidString])
            } else {
                try ClosedEntryRows.recordClosedWindow(db, browser: id, configuration: configuration)
            }
        }
    }

    private func readingSummaries() -> @Sendable (Database) throws -> [BrowserSummary] {
        let offTheRecord = database.isOffTheRecord
        return { db in try Self.summaries(db, offTheRecord: offTheRecord) }
    }

    // MARK: - Observing

    public func observeBrowsers(
        onChange: @escaping @Sendable (Result<[BrowserSummary], any Error>) -> Void
    ) -> any StoreObservation {
        SnapshotObserver(
            database: database, tables: ["browsers", "tabs", "navigation_entries"], fetch: readingSummaries(),
            onChange: onChange)
    }

    private static func summaries(_ db: Database, offTheRecord: Bool) throws -> [BrowserSummary] {
        try Row.fetchAll(db, sql: """
            SELECT b.id, b.created_at, b.last_active_at, b.active_tab_id,
                   (SELECT count(*) FROM tabs WHERE tabs.browser_id = b.id) AS tab_count,
                   e.title, e.url, e.virtual_url, e.favicon_url
            FROM browsers AS b
            LEFT JOIN tabs AS t ON t.id = b.active_tab_id
            LEFT JOIN navigation_entries AS e ON e.tab_id = t.id AND e.sequence = t.history_start + t.current_entry_index
            WHERE b.closed_entry_id IS NULL\(try BrowserRows.onlyWindows(db, column: "b.id"))
            ORDER BY b.last_active_at DESC, b.created_at DESC, b.id
            """).compactMap { row in
            guard let id = BrowserID(uuidString: try row.decode(forColumn: "id")) else { return nil }
            let url: String? = try row.decode(forColumn: "url")
            return BrowserSummary(
                browser: Browser(id: id, createdAt: try row.storedDate("created_at"), lastActiveAt: try row.storedDate("last_active_at"),
                                 isOffTheRecord: offTheRecord),
                tabCount: try row.decode(forColumn: "tab_count"),
                activeTab: (try row.decode(forColumn: "active_tab_id") as String?).flatMap(WebStateID.init(uuidString:)),
                activePage: try url.map {
                    PageSummary(title: try row.decode(forColumn: "title"), url: $0, virtualURL: try row.decode(forColumn: "virtual_url"), faviconURL: try row.decode(forColumn: "favicon_url"))
                })
        }
    }

    private func browser(from row: Row) throws -> Browser? {
        guard let id = BrowserID(uuidString: try row.decode(forColumn: "id")) else { return nil }
        return Browser(
            id: id, createdAt: try row.storedDate("created_at"), lastActiveAt: try row.storedDate("last_active_at"),
            isOffTheRecord: database.isOffTheRecord)
    }
}
