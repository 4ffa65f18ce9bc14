import Foundation
internal import GRDB
import SessionModel

/// Which program keeps each browser (migration `0006_browser_sources`): a
/// browser's native host tags the windows it creates, and lists, matches and
/// closes only those of its own source.
extension SQLiteBrowserRepository {
    /// Creates a browser, made the most recently active one, that `source` keeps.
    public func createBrowser(source: BrowserSource) throws -> Browser {
        try database.mutate(creatingBrowser(source: source))
    }

    /// Creates a browser, made the most recently active one, that `source` keeps.
    public func createBrowser(source: BrowserSource) async throws -> Browser {
        try await database.mutate(creatingBrowser(source: source))
    }

    /// The source of every browser that has one, open or in recently closed.
    /// Browsers the app keeps itself have none.
    public func sources() throws -> [BrowserID: BrowserSource] {
        try database.read(Self.readingSources)
    }

    /// The source of every browser that has one, open or in recently closed.
    public func sources() async throws -> [BrowserID: BrowserSource] {
        try await database.read(Self.readingSources)
    }

    /// Makes `source` the program that keeps `browser`; `nil` makes it the app's own.
    /// - Throws: ``StorageError/unknownBrowser(_:)`` when no such browser exists.
    public func setSource(_ source: BrowserSource?, of browser: BrowserID) throws {
        try database.mutate(Self.settingSource(source, of: browser))
    }

    /// Makes `source` the program that keeps `browser`; `nil` makes it the app's own.
    public func setSource(_ source: BrowserSource?, of browser: BrowserID) async throws {
        try await database.mutate(Self.settingSource(source, of: browser))
    }

    private func creatingBrowser(source: BrowserSource) -> @Sendable (Database) throws -> Browser {
        let offTheRecord = database.isOffTheRecord
        return { db in
            let browser = try BrowserRows.insert(db, offTheRecord: offTheRecord)
            try Self.settingSource(source, of: browser.id)(db)
            return browser
        }
    }

    private static func readingSources(_ db: Database) throws -> [BrowserID: BrowserSource] {
        var sources: [BrowserID: BrowserSource] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT browser_id, source FROM browser_sources") {
            if let id = BrowserID(uuidString: row["browser_id"]), let source = BrowserSource(rawValue: row["source"]) {
                sources[id] = source
            }
        }
        return sources
    }

    private static func settingSource(_ source: BrowserSource?, of browser: BrowserID) -> @Sendable (Database) throws -> Void {
        { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM browsers WHERE id = ?", arguments: [browser.uuidString]) == true else {
                throw StorageError.unknownBrowser(browser.uuidString)
            }
            if let source {
                try db.execute(
                    sql: "INSERT INTO browser_sources (browser_id, source) VALUES (?, ?) ON CONFLICT (browser_id) DO UPDATE SET source = excluded.source",
                    arguments: [browser.uuidString, source.rawValue])
            } else {
                try db.execute(sql: "DELETE FROM browser_sources WHERE browser_id = ?", arguments: [browser.uuidString])
            }
        }
    }
}
