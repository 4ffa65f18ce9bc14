import Foundation
internal import GRDB
import SessionModel

/// The SQLite implementation of ``NavigationHistoryRepository``.
///
/// Histories are read per call (they are short); each write stores only the
/// entries that changed (see `NavigationHistoryRows`), and a commit reads none
/// of them. Thread-safe.
public final class SQLiteNavigationHistoryRepository: NavigationHistoryRepository {
    private let database: SessionDatabase

    /// A repository over `database`, keeping at most its configured number of entries per tab.
    public init(database: SessionDatabase) {
        self.database = database
    }

    public func history(of tab: WebStateID) throws -> NavigationHistory {
        try database.read(readingHistory(tab))
    }

    public func history(of tab: WebStateID) async throws -> NavigationHistory {
        try await database.read(readingHistory(tab))
    }

    @discardableResult
    public func update<T>(_ tab: WebStateID, _ body: (inout NavigationHistory) throws -> T) throws -> T {
        let maximum = database.configuration.maximumNavigationEntries
        return try database.mutate { db in try self.apply(db, tab: tab, maximum: maximum, body) }
    }

    @discardableResult
    public func update<T: Sendable>(
        _ tab: WebStateID, _ body: @escaping @Sendable (inout NavigationHistory) throws -> T
    ) async throws -> T {
        let maximum = database.configuration.maximumNavigationEntries
        return try await database.mutate { db in try self.apply(db, tab: tab, maximum: maximum, body) }
    }

    @discardableResult
    public func commit(_ item: NavigationItem, in tab: WebStateID) throws -> NavigationHistoryChange {
        let maximum = database.configuration.maximumNavigationEntries
        return try database.mutate { db in try self.committing(db, item, in: tab, maximum: maximum) }
    }

    @discardableResult
    public func commit(_ item: NavigationItem, in tab: WebStateID) async throws -> NavigationHistoryChange {
        let maximum = database.configuration.maximumNavigationEntries
        return try await database.mutate { db in try self.committing(db, item, in: tab, maximum: maximum) }
    }

    public func setEngineState(_ data: Data?, for tab: WebStateID) throws -> EngineStateWrite {
        try database.mutate(settingEngineState(data, for: tab))
    }

    public func setEngineState(_ data: Data?, for tab: WebStateID) async throws -> EngineStateWrite {
        try await database.mutate(settingEngineState(data, for: tab))
    }

    public func engineState(of tab: WebStateID) throws -> Data? {
        try database.read(readingEngineState(tab))
    }

    public func engineState(of tab: WebStateID) async throws -> Data? {
        try await database.read(readingEngineState(tab))
    }

    @discardableResult
    public func clearBrowsingData(_ filter: BrowsingDataFilter) throws -> Int {
        try clearingEverywhere(filter).removed
    }

    @discardableResult
    public func clearBrowsingData(_ filter: BrowsingDataFilter) async throws -> Int {
        let deleted = try await database.mutate(clearing(filter))
        let database = database
        return try await database.handedOff {
            database.clearedEverywhere(removed: deleted) { try filter.isHeld(in: $0) }
        }.removed
    }

    /// Clears browsing data as ``clearBrowsingData(_:)`` does, and says what that
    /// did beyond the rows: to the snapshots and to the WAL.
    package func clearingEverywhere(_ filter: BrowsingDataFilter) throws -> StoreClearing {
        let deleted = try database.mutate(clearing(filter))
        return database.clearedEverywhere(removed: deleted) { try filter.isHeld(in: $0) }
    }

    // MARK: - Transactions

    private func readingHistory(_ tab: WebStateID) -> @Sendable (Database) throws -> NavigationHistory {
        { db in try NavigationHistoryRows.load(db, tab: tab).history }
    }

    /// Applies `body` to the tab's history and writes what changed: the transaction of ``update(_:_:)``.
    private func apply<T>(
        _ db: Database, tab: WebStateID, maximum: Int, _ body: (inout NavigationHistory) throws -> T
    ) throws -> T {
        let stored = try database.histories.stored(db, tab: tab)
        var history = stored.history
        let result = try body(&history)
        // TabListRules.md, Navigation history: keep at most `maximum`, trimming the farthest from the current one.
        if history.count > maximum { try history.trim(toAtMost: maximum) }
        history = try history.withStoredPrecision()
        try write(db, from: stored, to: history)
        return result
    }

    /// Commits `item`: the transaction of ``commit(_:in:)``. The tab's entries are
    /// read only when their rows break the rules (to report the damage).
    private func committing(
        _ db: Database, _ item: NavigationItem, in tab: WebStateID, maximum: Int
    ) throws -> NavigationHistoryChange {
        // The tab's row, read first, says whether it exists; then the entry is checked.
        let written = try NavigationHistoryRows.commit(db, tab: tab, maximum: maximum) { try item.storedForm }
        guard let written else {
            return try apply(db, tab: tab, maximum: maximum) { history in
                let change = NavigationHistoryChange.committing(
                    count: history.count, currentIndex: history.currentIndex, maximum: maximum)
                try history.commit(item)
                return change
            }
        }
        database.histories.forget(tab)
        if let revision = written.revision, let browser = written.browser {
            try database.lists.historyWritten(
                db, browser: browser, tab: tab, navigationIndex: written.change.currentIndex, revision: revision)
        }
        return written.change
    }

    private func settingEngineState(_ data: Data?, for tab: WebStateID) -> @Sendable (Database) throws -> EngineStateWrite {
        let limit = database.configuration.maximumEngineStateBytes
        return { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM tabs WHERE id = ?", arguments: [tab.uuidString]) != nil else {
                throw StorageError.unknownTab(tab.uuidString)
            }
            try db.execute(sql: "DELETE FROM tab_engine_states WHERE tab_id = ?", arguments: [tab.uuidString])
            guard let data else { return .stored }
            // TabListRules.md, Navigation history: a blob over the cap is dropped, never truncated.
            guard data.count <= limit else { return .droppedTooLarge(bytes: data.count, limit: limit) }
            try db.execute(
                sql: "INSERT INTO tab_engine_states (tab_id, data, updated_at) VALUES (?, ?, ?)",
                arguments: [tab.uuidString, data, StoredDate(Date())])
            return .stored
        }
    }

    private func readingEngineState(_ tab: WebStateID) -> @Sendable (Database) throws -> Data? {
        { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM tabs WHERE id = ?", arguments: [tab.uuidString]) != nil else {
                throw StorageError.unknownTab(tab.uuidString)
            }
            return try Data.fetchOne(
                db, sql: "SELECT data FROM tab_engine_states WHERE tab_id = ?", arguments: [tab.uuidString])
        }
    }

    private func clearing(_ filter: BrowsingDataFilter) -> @Sendable (Database) throws -> Int {
        let histories = database.histories
        return { db in
            // Entries go by the filter, not by history writes alone: cached histories are forgotten.
            histories.removeAll()
            let candidates = try filter.candidateTabs(db)
            var deleted = 0
            var clearedURLs: Set<String> = []
            for text in candidates {
                guard let tab = WebStateID(uuidString: text) else { continue }
                let stored = try NavigationHistoryRows.load(db, tab: tab)
                var history = stored.history
                let change = history.removeAll { filter.matches($0) }
                guard !change.removedIndexes.isEmpty else { continue }
                deleted += change.removedIndexes.count
                if filter != .all { clearedURLs.formUnion(change.removedIndexes.map { stored.history.items[$0].url }) }
                try self.write(db, from: stored, to: history)
                // The engine's own state of the tab (its back-forward list) holds the cleared pages too.
                try db.execute(sql: "DELETE FROM tab_engine_states WHERE tab_id = ?", arguments: [text])
            }
            try self.forgetReferrers(db, to: clearedURLs)
            // The search index dropped the cleared pages through its triggers, but an
            // FTS5 delete only marks them: merging rewrites the index without them.
            if deleted > 0 { try TabSearchIndex.dropDeletedWords(db) }
            // Other devices' tabs showing a cleared page leave this device's cache of them,
            // and a queued command naming one never leaves.
            _ = try SyncRows.clearRemote(db, matching: filter)
            _ = try SyncRows.clearOutgoingCommands(db, matching: filter)
            return deleted
        }
    }

    /// Removes `urls` from the referrers of the entries that survived a clearing
    /// (a page reached by a link from a cleared one names it), unless a history
    /// still holds that page itself.
    private func forgetReferrers(_ db: Database, to urls: Set<String>) throws {
        guard !urls.isEmpty else { return }
        let gone = Set(try String.fetchAll(
            db, sql: "SELECT value FROM json_each(?) WHERE value NOT IN (SELECT url FROM navigation_entries)",
            arguments: [String(decoding: try JSONEncoder().encode(urls.sorted()), as: UTF8.self)]))
        guard !gone.isEmpty else { return }
        let tabs = try String.fetchAll(
            db, sql: "SELECT DISTINCT tab_id FROM navigation_entries WHERE referrer_url IN (SELECT value FROM json_each(?))",
            arguments: [String(decoding: try JSONEncoder().encode(gone.sorted()), as: UTF8.self)])
        for text in tabs {
            guard let tab = WebStateID(uuidString: text) else { continue }
            let stored = try NavigationHistoryRows.load(db, tab: tab)
            let items = stored.history.items.map { item in
                var copy = item
                if let referrer = item.referrerURL, gone.contains(referrer) { copy.referrerURL = nil }
                return copy
            }
            try write(db, from: stored, to: try NavigationHistory(items: items, currentIndex: stored.history.currentIndex))
        }
    }

    /// Writes a history and keeps the shared caches in step: the history as now
    /// stored, and the tab's new index in its browser's list.
    private func write(_ db: Database, from stored: NavigationHistoryRows.Stored, to history: NavigationHistory) throws {
        let (revision, written) = try NavigationHistoryRows.writing(db, from: stored, to: history)
        database.histories.wrote(written)
        if let revision, let browser = stored.browser {
            try database.lists.historyWritten(
                db, browser: browser, tab: stored.tab, navigationIndex: history.currentIndex, revision: revision)
        }
    }

    public func observe(
        _ tab: WebStateID, onChange: @escaping @Sendable (Result<NavigationHistory, any Error>) -> Void
    ) -> any StoreObservation {
        SnapshotObserver(
            database: database, tables: ["tabs", "navigation_entries", "navigation_page_states"],
            fetch: readingHistory(tab), onChange: onChange)
    }
}

extension BrowsingDataFilter {
    /// The ids of the tabs that may hold an entry this filter clears: exactly
    /// those, but for `.host`, whose SQL only narrows them down for ``matches(_:)``.
    func candidateTabs(_ db: Database) throws -> [String] {
        switch self {
        case .url(let url):
            try String.fetchAll(
                db, sql: "SELECT DISTINCT tab_id FROM navigation_entries WHERE url = ?", arguments: [url])
        case .host(let host):
            try String.fetchAll(
                db, sql: "SELECT DISTINCT tab_id FROM navigation_entries WHERE instr(lower(url), ?) > 0",
                arguments: [host.lowercased()])
        case .timeRange(let range):
            try String.fetchAll(
                db, sql: "SELECT DISTINCT tab_id FROM navigation_entries WHERE timestamp BETWEEN ? AND ?",
                arguments: [StoredDate(range.lowerBound), StoredDate(range.upperBound)])
        case .browser(let browser):
            // Its open tabs, and the tabs of the entries it closed (whose rows name the entry, not the browser).
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT e.tab_id FROM navigation_entries AS e
                    JOIN tabs AS t ON t.id = e.tab_id
                    LEFT JOIN closed_entries AS c ON c.id = t.closed_entry_id
                    WHERE t.browser_id = ?1 OR c.browser_id = ?1
                    """,
                arguments: [browser.uuidString])
        case .all:
            try String.fetchAll(db, sql: "SELECT DISTINCT tab_id FROM navigation_entries")
        }
    }

    /// Whether the store `db` (a snapshot, say) holds something this filter
    /// clears: a history entry, another device's tab, a queued command.
    func isHeld(in db: Database) throws -> Bool {
        for text in try candidateTabs(db) {
            guard let tab = WebStateID(uuidString: text) else { continue }
            if try NavigationHistoryRows.load(db, tab: tab).history.items.contains(where: matches) { return true }
        }
        return try !SyncRows.remoteRecords(db, matching: self).isEmpty
            || !SyncRows.outgoingCommands(db, matching: self).isEmpty
    }

    /// Whether the entry, of one of the ``candidateTabs(_:)``, is one this filter clears.
    func matches(_ item: NavigationItem) -> Bool {
        switch self {
        case .url(let url):
            item.url == url
        case .host(let host):
            URLComponents(string: item.url)?.host?.lowercased() == host.lowercased()
        case .timeRange(let range):
            range.contains(item.timestamp)
        case .browser, .all:
            true
        }
    }
}

extension NavigationItem {
    /// This entry as it is stored: validated, its timestamp at the precision the database keeps.
    ///
    /// - Throws: Any error of ``NavigationItem/validated()``.
    var storedForm: NavigationItem {
        get throws {
            var item = try validated()
            item.timestamp = item.timestamp.storedPrecision
            return item
        }
    }
}

extension NavigationHistory {
    /// This history with every timestamp at the precision the database keeps,
    /// so a history read back equals the one written.
    func withStoredPrecision() throws -> NavigationHistory {
        guard items.contains(where: { $0.timestamp != $0.timestamp.storedPrecision }) else { return self }
        return try NavigationHistory(
            items: items.map { item in
                var copy = item
                copy.timestamp = item.timestamp.storedPrecision
                return copy
            },
            currentIndex: currentIndex)
    }
}
