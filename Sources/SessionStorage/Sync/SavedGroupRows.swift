import Foundation
internal import GRDB
import SessionModel

/// A saved group as this device's rows hold it, or as a merge says they should: what the sync of
/// saved groups compares and writes (migration `0012_sync_saved_groups`).
package struct SavedGroupSnapshot: Hashable, Sendable, Codable {
    /// One tab of the group.
    package struct Tab: Hashable, Sendable, Codable {
        /// The tab's id (a lowercase UUID).
        package var id: String
        /// The URL shown for it.
        package var url: String
        /// Its title.
        package var title: String

        /// A tab.
        package init(id: String, url: String, title: String) {
            self.id = id
            self.url = url
            self.title = title
        }
    }

    /// The group's id (a lowercase UUID).
    package var id: String
    /// Its title.
    package var title: String
    /// Its colour's name (`TabGroupColor`'s raw value).
    package var color: String
    /// Its tabs, in order.
    package var tabs: [Tab]

    /// A snapshot.
    package init(id: String, title: String, color: String, tabs: [Tab]) {
        self.id = id
        self.title = title
        self.color = color
        self.tabs = tabs
    }
}

/// One account-wide record as the store keeps it: its merged fields, as JSON.
package struct StoredSavedGroupRecord: Hashable, Sendable {
    /// Its server record id.
    package var recordID: String
    /// `saved_group` or `saved_group_tab`.
    package var kind: String
    /// The group's or the tab's id.
    package var localID: String
    /// The group it is in (a group record: itself).
    package var groupID: String
    /// The newest server version merged in; 0 before any.
    package var version: Int64
    /// The merged fields.
    package var payload: String
    /// Whether it holds a write of this device the server has not acknowledged.
    package var dirty: Bool

    /// A record.
    package init(
        recordID: String, kind: String, localID: String, groupID: String, version: Int64, payload: String, dirty: Bool
    ) {
        self.recordID = recordID
        self.kind = kind
        self.localID = localID
        self.groupID = groupID
        self.version = version
        self.payload = payload
        self.dirty = dirty
    }
}

/// The rows of saved-group sync, inside one write transaction of ``SyncStorage/withSavedGroups(_:)``.
package struct SavedGroupRows {
    let db: Database
    let database: SessionDatabase

    /// The groups changed here since their last merge, with the wall-clock time (ms) of the last change.
    package func marks() throws -> [String: Int64] {
        var marks: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT group_id, marked_ms FROM sync_saved_group_marks") {
            marks[row[0]] = row[1]
        }
        return marks
    }

    /// Marks `group` for the next merge into the rows, unless it is marked already (a local
    /// edit's mark keeps its time): `milliseconds` is the clock of the triggers' marks.
    package func touch(_ group: String, at milliseconds: Int64) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sync_saved_group_marks (group_id, marked_ms) VALUES (?, ?)
            ON CONFLICT (group_id) DO NOTHING
            """).execute(arguments: [group, milliseconds])
    }

    /// Forgets the mark of `group`: its rows and its base agree again.
    package func clearMark(_ group: String) throws {
        try db.cachedStatement(sql: "DELETE FROM sync_saved_group_marks WHERE group_id = ?").execute(arguments: [group])
    }

    /// Saved group `group` as the rows hold it, or `nil` when it is not a saved group here.
    package func local(_ group: String) throws -> SavedGroupSnapshot? {
        guard let id = TabGroupID(uuidString: group),
              let holder = try? SQLiteSavedTabGroupRepository.holder(db, of: id),
              let saved = try SQLiteSavedTabGroupRepository.reading(db, holder: holder)
        else { return nil }
        return SavedGroupSnapshot(
            id: group, title: saved.visualData.title, color: saved.visualData.color.rawValue,
            tabs: saved.tabs.map { .init(id: $0.id.uuidString, url: $0.url ?? "", title: $0.title) })
    }

    /// The group as the rows held it after its last merge, or `nil` when they did not hold it.
    package func base(_ group: String) throws -> SavedGroupSnapshot? {
        guard let text = try String.fetchOne(
            db.cachedStatement(sql: "SELECT snapshot FROM sync_saved_group_bases WHERE group_id = ?"),
            arguments: [group])
        else { return nil }
        return try JSONDecoder().decode(SavedGroupSnapshot.self, from: Data(text.utf8))
    }

    /// Sets (or, with `nil`, removes) the base of `group`.
    package func setBase(_ group: String, _ snapshot: SavedGroupSnapshot?) throws {
        guard let snapshot else {
            try db.cachedStatement(sql: "DELETE FROM sync_saved_group_bases WHERE group_id = ?")
                .execute(arguments: [group])
            return
        }
        let text = String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self)
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_saved_group_bases (group_id, snapshot) VALUES (?, ?)")
            .execute(arguments: [group, text])
    }

    /// The records of `group`: its own and those of the tabs whose merged group it is.
    package func records(inGroup group: String) throws -> [StoredSavedGroupRecord] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT record_id, kind, local_id, group_id, version, payload, dirty FROM sync_saved_group_records
            WHERE group_id = ? ORDER BY kind, local_id
            """), arguments: [group]).map(Self.record)
    }

    /// Every record, in record id order.
    package func allRecords() throws -> [StoredSavedGroupRecord] {
        try Row.fetchAll(db, sql: """
            SELECT record_id, kind, local_id, group_id, version, payload, dirty FROM sync_saved_group_records
            ORDER BY record_id
            """).map(Self.record)
    }

    /// The record `recordID`, if known.
    package func record(_ recordID: String) throws -> StoredSavedGroupRecord? {
        try Row.fetchOne(db.cachedStatement(sql: """
            SELECT record_id, kind, local_id, group_id, version, payload, dirty FROM sync_saved_group_records
            WHERE record_id = ?
            """), arguments: [recordID]).map(Self.record)
    }

    /// Stores `record`, replacing the one of its id.
    package func put(_ record: StoredSavedGroupRecord) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO sync_saved_group_records (record_id, kind, local_id, group_id, version, payload, dirty)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                record.recordID, record.kind, record.localID, record.groupID, record.version, record.payload,
                record.dirty])
    }

    /// The last reading of this device's hybrid clock.
    package func clock() throws -> (milliseconds: Int64, counter: Int32) {
        let row = try Row.fetchOne(db, sql: "SELECT ms, counter FROM sync_saved_group_clock WHERE id = 1")
        return (row?[0] ?? 0, row?[1] ?? 0)
    }

    /// Keeps the last reading of this device's hybrid clock.
    package func setClock(milliseconds: Int64, counter: Int32) throws {
        try db.cachedStatement(sql: "UPDATE sync_saved_group_clock SET ms = ?, counter = ? WHERE id = 1")
            .execute(arguments: [milliseconds, counter])
    }

    static func record(_ row: Row) -> StoredSavedGroupRecord {
        StoredSavedGroupRecord(
            recordID: row[0], kind: row[1], localID: row[2], groupID: row[3], version: row[4], payload: row[5],
            dirty: row[6])
    }

    // MARK: - Writing the merge into the rows

    /// Makes the rows hold `group` as `wanted` says, as an ordinary transaction: observers of the
    /// saved groups see it as any other change. Tabs it names that another saved group holds move
    /// here; tabs of this group it does not name stay (parked) until ``removeOthers(_:wanting:)``,
    /// so a tab that moved between two groups keeps its history whichever is written first.
    /// What cannot be shown here is left out:
    /// - a group whose id is open here (in a window, or in recently closed);
    /// - a tab whose id is open here, or held by something other than a saved group;
    /// - a title's characters past 512, as for every title the store keeps.
    package func write(_ group: String, wanted: SavedGroupSnapshot) throws {
        try keepingOutbox(group: group, tabs: wanted.tabs.map(\.id)) { try writing(group, wanted: wanted) }
    }

    private func writing(_ group: String, wanted: SavedGroupSnapshot) throws {
        guard let groupID = TabGroupID(uuidString: group) else { return }
        let color = TabGroupColor(rawValue: wanted.color) ?? .grey
        let title = String(wanted.title.prefix(512))
        let holder: BrowserID
        if let known = try? SQLiteSavedTabGroupRepository.holder(db, of: groupID) {
            holder = known
            try db.cachedStatement(
                sql: "UPDATE tab_groups SET title = ?, color = ? WHERE id = ? AND (title IS NOT ? OR color IS NOT ?)")
                .execute(arguments: [title, color.rawValue, groupID.uuidString, title, color.rawValue])
        } else {
            // A group of this id open here: the saved one is not shown until it is closed.
            if try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM tab_groups WHERE id = ?"),
                arguments: [groupID.uuidString]) != nil {
                return
            }
            holder = try SQLiteSavedTabGroupRepository.insertHolder(db, group: groupID, source: nil, savedAt: Date())
            try WebStateListRows.insertGroup(
                db, TabGroup(id: groupID, visualData: TabGroupVisualData(title: title, color: color)), browser: holder)
        }
        let holderText = holder.uuidString
        // Every tab here parked at a key of its own no list uses (its rowid, negated), then placed.
        try db.cachedStatement(sql: "UPDATE tabs SET sort_key = -1 - rowid WHERE browser_id = ?")
            .execute(arguments: [holderText])
        var placed = 0
        for tab in wanted.tabs {
            guard let id = WebStateID(uuidString: tab.id) else { continue }
            let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT browser_id FROM tabs WHERE id = ?"),
                arguments: [id.uuidString])
            if let row {
                guard let current: String = row[0] else { continue }
                if current != holderText {
                    // Only from another saved group.
                    guard try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM saved_groups WHERE browser_id = ?"),
                        arguments: [current]) != nil,
                        let other = BrowserID(uuidString: current)
                    else { continue }
                    try db.cachedStatement(sql: "UPDATE browsers SET revision = revision + 1 WHERE id = ?")
                        .execute(arguments: [current])
                    database.lists.forget(other)
                }
                try db.cachedStatement(sql: "UPDATE tabs SET browser_id = ?, group_id = ?, sort_key = ? WHERE id = ?")
                    .execute(arguments: [
                        holderText, groupID.uuidString, SortKeyAllocator.step * Int64(placed), id.uuidString])
            } else {
                let now = StoredDate(Date())
                try db.cachedStatement(sql: """
                    INSERT INTO tabs (id, browser_id, sort_key, is_pinned, group_id, created_at, last_active_at)
                    VALUES (?, ?, ?, 0, ?, ?, ?)
                    """).execute(arguments: [
                        id.uuidString, holderText, SortKeyAllocator.step * Int64(placed), groupID.uuidString, now, now])
            }
            try writePage(of: id, url: tab.url, title: String(tab.title.prefix(512)))
            placed += 1
        }
        try db.cachedStatement(sql: "UPDATE browsers SET revision = revision + 1 WHERE id = ?")
            .execute(arguments: [holderText])
        database.lists.forget(holder)
    }

    /// Removes what ``write(_:wanted:)`` left: with `wanted` `nil`, the saved group and its tabs;
    /// else its tabs `wanted` does not name.
    package func removeOthers(_ group: String, wanting wanted: SavedGroupSnapshot?) throws {
        try keepingOutbox(group: group, tabs: []) { try removing(group, wanting: wanted) }
    }

    private func removing(_ group: String, wanting wanted: SavedGroupSnapshot?) throws {
        guard let groupID = TabGroupID(uuidString: group),
              let holder = try? SQLiteSavedTabGroupRepository.holder(db, of: groupID)
        else { return }
        guard let wanted else {
            try db.cachedStatement(sql: "DELETE FROM browsers WHERE id = ?").execute(arguments: [holder.uuidString])
            database.lists.forget(holder)
            return
        }
        let keep = Set(wanted.tabs.map(\.id))
        var removed = false
        let held = try String.fetchAll(
            db.cachedStatement(sql: "SELECT id FROM tabs WHERE browser_id = ?"), arguments: [holder.uuidString])
        for stale in held
        where !keep.contains(stale) {
            try db.cachedStatement(sql: "DELETE FROM tabs WHERE id = ?").execute(arguments: [stale])
            removed = true
        }
        if removed {
            try db.cachedStatement(sql: "UPDATE browsers SET revision = revision + 1 WHERE id = ?")
                .execute(arguments: [holder.uuidString])
            database.lists.forget(holder)
        }
    }

    /// Runs `body`, then takes back the outbox marks of this device's own records that it made:
    /// the triggers of `0004_sync` mark a group, its tabs and the device record when their rows
    /// change, but a saved group is no window and publishes none of them, and what the merge
    /// writes came from the account's records. A mark there before (a group just saved from a
    /// window, whose record's tombstone is due) stays.
    private func keepingOutbox(group: String, tabs: [String], _ body: () throws -> Void) throws {
        var keys: [(String, String)] = [("group", group), ("device", "device")]
        var ids = Set(tabs)
        if let groupID = TabGroupID(uuidString: group),
           let holder = try? SQLiteSavedTabGroupRepository.holder(db, of: groupID)
        {
            ids.formUnion(try String.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM tabs WHERE browser_id = ?"), arguments: [holder.uuidString]))
        }
        for id in ids.sorted() { keys += [("tab", id), ("closed", id)] }
        try SyncRows.withoutNewMarks(db, of: keys, body)
    }

    /// Makes the tab's current page `url` with `title`, as a navigation would: a new title of the
    /// same page changes the current entry's; another page becomes a new current entry after it
    /// (the entries ahead of it dropped), so the tab keeps its history.
    private func writePage(of tab: WebStateID, url: String, title: String) throws {
        guard !url.isEmpty else { return }
        let stored = try NavigationHistoryRows.load(db, tab: tab)
        var items = stored.history.items
        if let index = stored.history.currentIndex {
            let current = items[index]
            if (current.virtualURL ?? current.url) == url {
                guard current.title != title else { return }
                items[index].title = title
            } else {
                items = Array(items[...index]) + [NavigationItem(url: url, title: title)]
            }
        } else {
            items = [NavigationItem(url: url, title: title)]
        }
        var history = try NavigationHistory(items: items, currentIndex: items.count - 1)
        _ = try history.trim(toAtMost: database.configuration.maximumNavigationEntries)
        try NavigationHistoryRows.write(db, from: stored, to: history.withStoredPrecision())
        database.histories.forget(tab)
    }
}

extension SyncStorage {
    /// Runs `body` in one write transaction over the rows of saved-group sync; `nil` when the
    /// store predates migration `0012_sync_saved_groups`.
    package func withSavedGroups<T>(_ body: (SavedGroupRows) throws -> T) throws -> T? {
        let database = self.database
        return try database.mutate { db -> T? in
            guard try db.tableExists("sync_saved_group_records") else { return nil }
            return try body(SavedGroupRows(db: db, database: database))
        }
    }

    /// Up to `limit` records holding writes of this device the server has not acknowledged.
    package func dirtySavedGroupRecords(limit: Int) throws -> [StoredSavedGroupRecord] {
        try database.read { db in
            guard try db.tableExists("sync_saved_group_records") else { return [] }
            return try Row.fetchAll(db.cachedStatement(sql: """
                SELECT record_id, kind, local_id, group_id, version, payload, dirty FROM sync_saved_group_records
                WHERE dirty = 1 ORDER BY record_id LIMIT ?
                """), arguments: [limit]).map(SavedGroupRows.record)
        }
    }

    /// The server stored each record at its version: it is clean unless its payload changed since
    /// it was read for the upload (a merge or an edit meanwhile), and its version moves up.
    package func acknowledgeSavedGroupRecords(_ records: [(recordID: String, version: Int64, payload: String)]) throws {
        try database.mutate { db in
            for record in records {
                try db.cachedStatement(sql: """
                    UPDATE sync_saved_group_records
                    SET version = max(version, ?), dirty = CASE WHEN payload = ? THEN 0 ELSE dirty END
                    WHERE record_id = ?
                    """).execute(arguments: [record.version, record.payload, record.recordID])
            }
        }
    }

    /// How many saved groups wait for their changes to be merged, and records for their upload.
    package func pendingSavedGroupCount() throws -> Int {
        try database.read { db in
            guard try db.tableExists("sync_saved_group_records") else { return 0 }
            return try Int.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM sync_saved_group_marks)
                     + (SELECT count(*) FROM sync_saved_group_records WHERE dirty = 1)
                """) ?? 0
        }
    }
}
