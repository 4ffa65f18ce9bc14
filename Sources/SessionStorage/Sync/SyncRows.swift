import Foundation
internal import GRDB
import SessionModel

/// The SQL of sync: the state row, the outbox, records built from the rows, and
/// the other devices' tables (migration `0004_sync`).
enum SyncRows {
    /// The state row; `countingPending: false` leaves the outbox uncounted (`pendingCount` 0),
    /// for readers that need only the row, such as each batch of an upload.
    static func state(_ db: Database, countingPending: Bool = true) throws -> SyncState {
        let archived = try db.tableExists("sync_options")
            ? "(SELECT uploads_archived_tabs FROM sync_options WHERE id = 1)" : "0"
        guard let row = try Row.fetchOne(db, sql: """
            SELECT enabled, account_id, device_id, device_name, form_factor, server_url, next_version, cursor,
                   last_sync_at, last_error, \(countingPending ? "(SELECT count(*) FROM sync_outbox)" : "0"),
                   full_sync_needed, \(archived)
            FROM sync_state WHERE id = 1
            """)
        else { throw StorageError.migrationsPending(path: db.description, pending: ["0004_sync"]) }
        let lastSync: String? = row[8]
        return SyncState(
            isEnabled: row[0], accountID: row[1], deviceID: row[2], deviceName: row[3], formFactor: row[4],
            serverURL: row[5], nextVersion: row[6], cursor: row[7], lastSyncAt: lastSync.flatMap(StoredTime.date),
            lastError: row[9], pendingCount: row[10], fullSyncNeeded: (row[11] as Int64) > 0,
            uploadsArchivedTabs: (row[12] as Bool?) ?? false)
    }

    /// `OR <column> IN (the archive)` when this device publishes its archived tabs
    /// (``SyncState/uploadsArchivedTabs``, migration 0011), to follow a
    /// `b.closed_entry_id IS NULL AND <column> is a window` condition.
    static func orArchive(_ db: Database, column: String, state: SyncState) throws -> String {
        guard state.uploadsArchivedTabs, try db.tableExists("tab_archives") else { return "" }
        return " OR \(column) IN (SELECT browser_id FROM tab_archives)"
    }

    /// Marks every archived tab, so that the next upload sends it (published) or tombstones it.
    static func markArchivedTabs(_ db: Database) throws {
        guard try db.tableExists("tab_archives") else { return }
        try db.execute(sql: """
            INSERT INTO sync_outbox (kind, local_id, marked_at)
            SELECT 'tab', t.id, \(now) FROM tabs AS t WHERE t.browser_id IN (SELECT browser_id FROM tab_archives)
            \(mark)
            """)
    }

    private static let mark = "ON CONFLICT (kind, local_id) DO UPDATE SET generation = generation + 1"
    private static let now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"

    /// Marks every record this device publishes.
    static func markEverything(_ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO sync_outbox (kind, local_id, marked_at) VALUES ('device', 'device', \(now)) \(mark);
            INSERT INTO sync_outbox (kind, local_id, marked_at)
            SELECT 'tab', t.id, \(now) FROM tabs AS t JOIN browsers AS b ON b.id = t.browser_id
            WHERE b.closed_entry_id IS NULL AND (true\(try BrowserRows.onlyWindows(db, column: "b.id"))\(
                try orArchive(db, column: "b.id", state: state(db, countingPending: false)))) \(mark);
            INSERT INTO sync_outbox (kind, local_id, marked_at)
            SELECT 'group', g.id, \(now) FROM tab_groups AS g JOIN browsers AS b ON b.id = g.browser_id
            WHERE b.closed_entry_id IS NULL\(try BrowserRows.onlyWindows(db, column: "b.id")) \(mark);
            INSERT INTO sync_outbox (kind, local_id, marked_at)
            SELECT 'closed', t.id, \(now) FROM tabs AS t LEFT JOIN browsers AS b ON b.id = t.browser_id
            WHERE t.closed_entry_id IS NOT NULL OR b.closed_entry_id IS NOT NULL \(mark);
            """)
        // Saved groups (migration 0012): each is compared with its base at the next upload.
        if try db.tableExists("sync_saved_group_marks") {
            try db.execute(sql: """
                INSERT INTO sync_saved_group_marks (group_id, marked_ms)
                SELECT group_id, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM saved_groups WHERE true
                ON CONFLICT (group_id) DO UPDATE SET marked_ms = excluded.marked_ms
                """)
        }
    }

    /// Marks saved group `group` for the next sync (migration 0012), while sync is on: for a change
    /// its triggers do not see (a move or removal of one of its tabs).
    static func markSavedGroup(_ db: Database, _ group: TabGroupID) throws {
        guard try db.tableExists("sync_saved_group_marks") else { return }
        try db.execute(sql: """
            INSERT INTO sync_saved_group_marks (group_id, marked_ms)
            SELECT ?, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
            WHERE (SELECT enabled FROM sync_state WHERE id = 1) = 1
            ON CONFLICT (group_id) DO UPDATE SET marked_ms = excluded.marked_ms
            """, arguments: [group.uuidString])
    }

    /// Runs `body`, then deletes the outbox marks of `keys` (kind, local id) that it made; a mark
    /// there before stays. For rows a saved group holds: they publish no record of this device.
    static func withoutNewMarks(_ db: Database, of keys: [(String, String)], _ body: () throws -> Void) throws {
        guard try db.tableExists("sync_outbox") else { return try body() }
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM sync_outbox WHERE kind = ? AND local_id = ?")
        let before = Set(try keys.filter { try Int.fetchOne(statement, arguments: [$0.0, $0.1]) != nil }.map { "\($0.0) \($0.1)" })
        try body()
        let delete = try db.cachedStatement(sql: "DELETE FROM sync_outbox WHERE kind = ? AND local_id = ?")
        for key in keys where !before.contains("\(key.0) \(key.1)") {
            try delete.execute(arguments: [key.0, key.1])
        }
    }

    /// Marks the device record, so the next upload sends it again.
    static func markDevice(_ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO sync_outbox (kind, local_id, marked_at)
            SELECT 'device', 'device', \(now) FROM sync_state WHERE id = 1 AND enabled = 1 \(mark)
            """)
    }

    /// After the rows were replaced wholesale (a snapshot restored, an import with
    /// `--replace`): the next sync must compare them with what the server holds.
    static func rowsReplaced(_ db: Database) throws {
        guard try db.tableExists("sync_state") else { return }
        try db.execute(sql: "UPDATE sync_state SET full_sync_needed = 1 + abs(random() % 4611686018427387903) WHERE id = 1")
        // A mark, so that a running client's upload loop wakes and starts the full sync.
        try db.execute(sql: """
            INSERT INTO sync_outbox (kind, local_id, marked_at)
            SELECT 'device', 'device', \(now) FROM sync_state WHERE id = 1 AND enabled = 1 \(mark)
            """)
    }

    /// Runs `body`, which deletes recently closed entries with their tabs, and
    /// takes back the `tab` tombstones the delete trigger marked for those tabs:
    /// the trigger marks both kinds of a deleted tab (its window may be gone
    /// already, so it cannot tell which it was), but a closed tab's open-tab
    /// record was tombstoned when it closed, so the server holds only its
    /// `closed` record. A `tab` mark that was there before stays (that tombstone
    /// may not have left yet). Closing a tab once recently closed is full prunes
    /// the oldest entry: without this, every such close sent one needless tombstone.
    static func deletingClosedTabs<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        guard try db.tableExists("sync_state"),
              try Bool.fetchOne(db, sql: "SELECT enabled FROM sync_state WHERE id = 1") == true
        else { return try body() }
        let closed = "SELECT t.id FROM tabs AS t LEFT JOIN browsers AS b ON b.id = t.browser_id "
            + "WHERE t.closed_entry_id IS NOT NULL OR b.closed_entry_id IS NOT NULL"
        let unmarked = try Set(String.fetchAll(db, sql: """
            \(closed) EXCEPT SELECT local_id FROM sync_outbox WHERE kind = 'tab'
            """))
        let result = try body()
        guard !unmarked.isEmpty else { return result }
        let remaining = try Set(String.fetchAll(db, sql: "SELECT id FROM tabs WHERE id IN (SELECT value FROM json_each(?))",
                                                arguments: [Self.json(Array(unmarked))]))
        let deleted = Array(unmarked.subtracting(remaining))
        if !deleted.isEmpty {
            try db.execute(
                sql: "DELETE FROM sync_outbox WHERE kind = 'tab' AND local_id IN (SELECT value FROM json_each(?))",
                arguments: [Self.json(deleted)])
        }
        return result
    }

    private static func json(_ strings: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(strings)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func forgetRemote(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM sync_remote_records; DELETE FROM sync_remote_devices; DELETE FROM sync_remote_tabs;
            DELETE FROM sync_remote_groups; DELETE FROM sync_remote_closed;
            """)
    }

    /// The tables of the other devices' records that show: what an observation of them watches.
    static let remoteTables = ["sync_remote_devices", "sync_remote_tabs", "sync_remote_groups", "sync_remote_closed"]

    /// Forgets the versions seen of the other devices' records (sync turned off, or another account).
    static func forgetFloors(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_record_floors")
    }

    // MARK: - Records built from the rows

    /// What the record of `entry` holds now, or `nil` when it is gone or not published.
    static func content(_ db: Database, entry: SyncOutboxEntry, state: SyncState) throws -> SyncRecordContent? {
        switch entry.kind {
        case .device: return .device(try device(db, state: state))
        case .tab: return try tab(db, id: entry.localID, state: state).map(SyncRecordContent.tab)
        case .group: return try group(db, id: entry.localID).map(SyncRecordContent.group)
        case .closed: return try closedTab(db, id: entry.localID).map(SyncRecordContent.closed)
        }
    }

    /// A stored time as milliseconds since 1970 (0 for one that cannot be read).
    static func milliseconds(_ text: String?) -> Int64 {
        guard let text, let date = StoredTime.date(text) else { return 0 }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static func device(_ db: Database, state: SyncState) throws -> SyncedDevice {
        let windows = try Row.fetchAll(db, sql: """
            SELECT b.id, b.active_tab_id, b.last_active_at, (SELECT count(*) FROM tabs WHERE browser_id = b.id)
            FROM browsers AS b WHERE b.closed_entry_id IS NULL\(try BrowserRows.onlyWindows(db, column: "b.id"))
            ORDER BY b.last_active_at DESC, b.id
            """).map { row in
            SyncedWindow(id: row[0], activeTab: row[1], tabs: row[3], lastActive: milliseconds(row[2]))
        }
        return SyncedDevice(name: state.deviceName, formFactor: state.formFactor, windows: windows)
    }

    private static func tab(_ db: Database, id: String, state: SyncState) throws -> SyncedTab? {
        let archivedTest = try db.tableExists("tab_archives")
            ? "t.browser_id IN (SELECT browser_id FROM tab_archives)" : "0"
        guard let row = try Row.fetchOne(
            db,
            sql: """
                SELECT t.browser_id, t.sort_key, t.is_pinned, t.group_id, t.current_entry_index, t.history_start,
                       t.last_active_at, o.opener_tab_id, \(archivedTest)
                FROM tabs AS t JOIN browsers AS b ON b.id = t.browser_id
                LEFT JOIN tab_openers AS o ON o.tab_id = t.id
                WHERE t.id = ? AND b.closed_entry_id IS NULL AND (true\(
                    try BrowserRows.onlyWindows(db, column: "b.id"))\(try orArchive(db, column: "b.id", state: state)))
                """,
            arguments: [id])
        else { return nil }
        guard let (current, navigations) = try SyncedHistory.window(
            db, tabID: id, historyStart: row[5], currentIndex: row[4])
        else { return nil }
        // An archived tab (published only when the app opted in): its window is the archive's id.
        let archived: Bool = row[8]
        return SyncedTab(
            id: id, window: row[0], sortKey: row[1], pinned: row[2], group: row[3], opener: row[7],
            lastActive: milliseconds(row[6]), current: current, navigations: navigations, split: try split(db, tab: id),
            archived: archived ? true : nil)
    }

    /// The split view of tab `id`, if the store has splits and the tab is in one.
    private static func split(_ db: Database, tab id: String) throws -> SyncedSplit? {
        guard try db.tableExists("tab_splits") else { return nil }
        return try Row.fetchOne(db, sql: """
            SELECT id, ratio, layout FROM tab_splits WHERE first_tab_id = ?1 OR second_tab_id = ?1
            """, arguments: [id]).map { SyncedSplit(id: $0[0], ratio: $0[1], layout: $0[2]) }
    }

    private static func group(_ db: Database, id: String) throws -> SyncedGroup? {
        guard let row = try Row.fetchOne(
            db,
            sql: """
                SELECT g.browser_id, g.title, g.color, g.is_collapsed FROM tab_groups AS g
                JOIN browsers AS b ON b.id = g.browser_id WHERE g.id = ? AND b.closed_entry_id IS NULL
                """,
            arguments: [id])
        else { return nil }
        return SyncedGroup(id: id, window: row[0], title: row[1], color: row[2], collapsed: row[3])
    }

    private static func closedTab(_ db: Database, id: String) throws -> SyncedClosedTab? {
        guard let row = try Row.fetchOne(
            db,
            sql: """
                SELECT coalesce(c.browser_id, t.browser_id), t.current_entry_index, t.history_start,
                       coalesce(c.closed_at, w.closed_at), c.group_title
                FROM tabs AS t
                LEFT JOIN closed_entries AS c ON c.id = t.closed_entry_id
                LEFT JOIN browsers AS b ON b.id = t.browser_id
                LEFT JOIN closed_entries AS w ON w.id = b.closed_entry_id
                WHERE t.id = ? AND (t.closed_entry_id IS NOT NULL OR b.closed_entry_id IS NOT NULL)
                """,
            arguments: [id])
        else { return nil }
        guard let (current, navigations) = try SyncedHistory.window(
            db, tabID: id, historyStart: row[2], currentIndex: row[1])
        else { return nil }
        return SyncedClosedTab(
            id: id, window: row[0], closedAt: milliseconds(row[3]), groupTitle: row[4], current: current,
            navigations: navigations)
    }

    // MARK: - Other devices

    static func removeRemote(_ db: Database, recordID: String) throws {
        for table in ["sync_remote_records", "sync_remote_tabs", "sync_remote_groups", "sync_remote_closed"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE record_id = ?", arguments: [recordID])
        }
    }

    static func storeRemote(
        _ db: Database, record: SyncReceivedRecord, content: SyncRecordContent, payload: String
    ) throws {
        let modified = StoredTime.text(record.modifiedAt)
        // Cached statements: a cold start stores every record of the account.
        try db.cachedStatement(
            sql: """
                INSERT INTO sync_remote_records (record_id, device_id, kind, version, seq, modified_at, payload)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                record.recordID, record.deviceID, content.kind.rawValue, record.version, record.sequence, modified,
                payload,
            ])
        func time(_ milliseconds: Int64) -> String {
            StoredTime.text(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        }
        switch content {
        case .device(let device):
            try db.execute(
                sql: """
                    INSERT INTO sync_remote_devices (device_id, name, form_factor, last_seen_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (device_id) DO UPDATE SET name = excluded.name, form_factor = excluded.form_factor,
                        last_seen_at = max(last_seen_at, excluded.last_seen_at)
                    """,
                arguments: [record.deviceID, device.name, device.formFactor, modified])
        case .tab(let tab):
            let page = tab.currentNavigation
            try db.cachedStatement(
                sql: """
                    INSERT INTO sync_remote_tabs (record_id, device_id, tab_id, window_id, sort_key, is_pinned,
                        group_id, title, url, last_active_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    record.recordID, record.deviceID, tab.id, tab.window, tab.sortKey, tab.pinned, tab.group,
                    page?.title ?? "", page.map { $0.virtualURL ?? $0.url } ?? "", time(tab.lastActive),
                ])
            if tab.archived == true || tab.split != nil, try db.tableExists("sync_remote_tab_details") {
                try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO sync_remote_tab_details (record_id, is_archived, split_id) VALUES (?, ?, ?)
                    """).execute(arguments: [record.recordID, tab.archived == true, tab.split?.id])
            }
        case .group(let group):
            try db.execute(
                sql: """
                    INSERT INTO sync_remote_groups (record_id, device_id, group_id, window_id, title, color, is_collapsed)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.recordID, record.deviceID, group.id, group.window, group.title, group.color,
                    group.collapsed,
                ])
        case .closed(let closed):
            let page = closed.currentNavigation
            try db.execute(
                sql: """
                    INSERT INTO sync_remote_closed (record_id, device_id, tab_id, closed_at, title, url)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.recordID, record.deviceID, closed.id, time(closed.closedAt), page?.title ?? "",
                    page.map { $0.virtualURL ?? $0.url } ?? "",
                ])
        }
    }

    static func remoteDevices(_ db: Database) throws -> [RemoteDevice] {
        let own = try String.fetchOne(db, sql: "SELECT device_id FROM sync_state WHERE id = 1")
        var devices = try Row.fetchAll(
            db, sql: "SELECT device_id, name, form_factor, last_seen_at FROM sync_remote_devices ORDER BY last_seen_at DESC, device_id"
        ).compactMap { row -> RemoteDevice? in
            let id: String = row[0]
            guard id != own else { return nil }
            let seen: String? = row[3]
            return RemoteDevice(
                id: id, name: row[1], formFactor: row[2], lastSeenAt: seen.flatMap(StoredTime.date), windows: [],
                closedTabs: [], archivedTabs: [])
        }
        var index: [String: Int] = [:]
        for (position, device) in devices.enumerated() { index[device.id] = position }
        // Windows in the order of their most recent tab; tabs in order within each.
        var windows: [String: [String: [RemoteTab]]] = [:]
        var windowActivity: [String: [String: Date]] = [:]
        let details = try db.tableExists("sync_remote_tab_details")
        let tabs = try Row.fetchCursor(db, sql: """
            SELECT t.record_id, t.device_id, t.tab_id, t.window_id, t.is_pinned, g.title, t.title, t.url, t.last_active_at,
                   \(details ? "coalesce(x.is_archived, 0), x.split_id" : "0, NULL")
            FROM sync_remote_tabs AS t
            \(details ? "LEFT JOIN sync_remote_tab_details AS x ON x.record_id = t.record_id" : "")
            LEFT JOIN sync_remote_groups AS g ON g.device_id = t.device_id AND g.group_id = t.group_id
            ORDER BY t.device_id, t.window_id, t.sort_key
            """)
        while let row = try tabs.next() {
            let device: String = row[1]
            let window: String = row[3]
            let active: String = row[8]
            let date = StoredTime.date(active)
            let tab = RemoteTab(
                id: row[0], tabID: row[2], isPinned: row[4], groupTitle: row[5], title: row[6], url: row[7],
                lastActiveAt: date, splitID: row[10])
            if row[9] as Bool {
                // Archived (migration 0011): listed apart, in the archive's order; no window.
                if let position = index[device] { devices[position].archivedTabs.append(tab) }
                continue
            }
            windows[device, default: [:]][window, default: []].append(tab)
            if let date, date > windowActivity[device, default: [:]][window] ?? .distantPast {
                windowActivity[device, default: [:]][window] = date
            }
        }
        for (device, byWindow) in windows {
            guard let position = index[device] else { continue }
            devices[position].windows = byWindow.map { RemoteWindow(id: $0.key, tabs: $0.value) }.sorted {
                let left = windowActivity[device]?[$0.id] ?? .distantPast
                let right = windowActivity[device]?[$1.id] ?? .distantPast
                return left != right ? left > right : $0.id < $1.id
            }
        }
        let closed = try Row.fetchAll(db, sql: """
            SELECT record_id, device_id, tab_id, closed_at, title, url FROM sync_remote_closed
            ORDER BY closed_at DESC, record_id
            """)
        for row in closed {
            let device: String = row[1]
            guard let position = index[device] else { continue }
            let closedAt: String = row[3]
            devices[position].closedTabs.append(RemoteClosedTab(
                id: row[0], tabID: row[2], closedAt: StoredTime.date(closedAt), title: row[4], url: row[5]))
        }
        return devices
    }
}
