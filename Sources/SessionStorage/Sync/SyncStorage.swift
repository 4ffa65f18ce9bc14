import Foundation
internal import GRDB

/// This store's side of sync: its state, its outbox, and the other devices'
/// records (migration `0004_sync`). It holds no keys and does no networking:
/// an app makes one over its ``SessionDatabase`` and hands it to the
/// `SessionSync` library (its pairing, its client, its other-devices mediator),
/// which seals what the outbox holds, uploads it, and stores what it fetched
/// and opened. What sync does to the store (the outbox, versions, received
/// records, queued commands) is the library's to call and is not public.
///
/// While sync is off, the store's triggers write nothing to the outbox.
///
/// ## Topics
/// ### State
/// - ``init(database:)``
/// - ``state()``
/// - ``rename(deviceName:)``
/// - ``disable()``
/// ### Other devices
/// - ``remoteDevices()``
/// - ``observeRemoteDevices(onChange:)``
public final class SyncStorage: Sendable {
    let database: SessionDatabase

    /// Sync over `database`, which must be opened for writing.
    public init(database: SessionDatabase) {
        self.database = database
    }

    /// Where sync stands.
    public func state() throws -> SyncState {
        try database.read { db in try SyncRows.state(db) }
    }

    /// Turns sync on for this device, and marks every record it publishes so
    /// the next sync uploads them all, in one transaction. The next sync is a
    /// full one (``SyncState/fullSyncNeeded``).
    ///
    /// Enabling again with another device id (after a restore brought old rows
    /// back, say) starts the version counter and cursor afresh and forgets the
    /// other devices' records, which the next sync fetches again.
    package func enable(accountID: String, deviceID: String, deviceName: String, formFactor: String) throws {
        try database.mutate { db in
            let current = try SyncRows.state(db, countingPending: false)
            let sameDevice = current.deviceID == deviceID && current.accountID == accountID
            try db.execute(
                sql: """
                    UPDATE sync_state SET enabled = 1, account_id = ?, device_id = ?, device_name = ?,
                        form_factor = ?, last_error = NULL, full_sync_needed = 1 + abs(random() % 4611686018427387903) WHERE id = 1
                    """,
                arguments: [accountID, deviceID, deviceName, formFactor])
            if !sameDevice {
                try db.execute(sql: "UPDATE sync_state SET next_version = 1, cursor = 0, last_sync_at = NULL WHERE id = 1")
                try SyncRows.forgetRemote(db)
                try SyncRows.forgetFloors(db)
                // Another account's saved groups (their records and clock) are not this one's: every
                // saved group here is new to it.
                if try db.tableExists("sync_saved_group_records") {
                    try db.execute(sql: """
                        DELETE FROM sync_saved_group_records;
                        DELETE FROM sync_saved_group_bases;
                        UPDATE sync_saved_group_clock SET ms = 0, counter = 0;
                        """)
                }
            }
            try SyncRows.markEverything(db)
        }
    }

    /// Turns sync off: the outbox is emptied and the other devices' records forgotten.
    /// The keys stay where they are kept: a `SyncClient` made over this store
    /// with them turns sync on again (remove them from their key store to stop for good).
    public func disable() throws {
        try database.mutate { db in
            try db.execute(sql: "UPDATE sync_state SET enabled = 0 WHERE id = 1")
            try db.execute(sql: "DELETE FROM sync_outbox")
            try SyncRows.forgetRemote(db)
            try SyncRows.forgetFloors(db)
            try db.execute(sql: "UPDATE sync_state SET cursor = 0 WHERE id = 1")
        }
    }

    /// Whether this device publishes its archived tabs. Off by default: each archived tab is then
    /// tombstoned, as a closed one is, and a device with 90,000 of them uploads none. On, each is a
    /// tab record marked archived, which other devices list apart from the windows
    /// (``RemoteDevice/archivedTabs``). Either way every archived tab is marked, so the next upload
    /// publishes or tombstones it.
    public func setUploadsArchivedTabs(_ uploads: Bool) throws {
        try database.mutate { db in
            try db.execute(sql: "UPDATE sync_options SET uploads_archived_tabs = ? WHERE id = 1", arguments: [uploads])
            if try SyncRows.state(db, countingPending: false).isEnabled { try SyncRows.markArchivedTabs(db) }
        }
    }

    /// Marks every record this device publishes, and lists every record the
    /// outbox then holds: the start of a full sync. `request` names the requests
    /// for a full sync that this one answers (see ``fullSyncDone(request:)``).
    package func markEverything() throws -> (entries: [SyncOutboxEntry], request: Int64) {
        try database.mutate { db in
            try SyncRows.markEverything(db)
            let entries = try Row.fetchAll(db, sql: "SELECT kind, local_id, generation FROM sync_outbox").map { row in
                SyncOutboxEntry(kind: SyncRecordKind(rawValue: row[0]) ?? .tab, localID: row[1], generation: row[2])
            }
            let request = try Int64.fetchOne(db, sql: "SELECT full_sync_needed FROM sync_state WHERE id = 1") ?? 0
            return (entries, request)
        }
    }

    /// Records that a full sync ended: the server holds what the rows held when it
    /// started. A request made since (a snapshot restored meanwhile) stays, and the
    /// next sync is a full one again.
    package func fullSyncDone(request: Int64) throws {
        try database.mutate { db in
            try db.execute(
                sql: "UPDATE sync_state SET full_sync_needed = 0 WHERE id = 1 AND full_sync_needed = ?",
                arguments: [request])
        }
    }

    /// Remembers the URL of the server synced with. Another server than the last
    /// one (`anotherServer`: the client tells by the server's id, not its URL) holds
    /// other sequence numbers and perhaps none of this device's records: the cursor
    /// starts again at 0 and the next sync is a full one.
    package func setServerURL(_ url: String, anotherServer: Bool) throws {
        try database.mutate { db in
            try db.execute(sql: "UPDATE sync_state SET server_url = ? WHERE id = 1", arguments: [url])
            if anotherServer {
                try db.execute(sql: "UPDATE sync_state SET cursor = 0, full_sync_needed = 1 + abs(random() % 4611686018427387903) WHERE id = 1")
                try SyncRows.forgetRemote(db)
            }
        }
    }

    /// Renames this device as the other devices show it: its device record is
    /// marked and goes out with the next upload (names travel sealed; the
    /// server never sees one).
    public func rename(deviceName: String) throws {
        try database.mutate { db in
            try db.execute(sql: "UPDATE sync_state SET device_name = ? WHERE id = 1", arguments: [deviceName])
            try SyncRows.markDevice(db)
        }
    }

    /// Forgets the other devices' records and sets the cursor back to 0, in one
    /// transaction: the server no longer holds what changed since the cursor
    /// (`410`), or holds less than the cursor says (it was restored), so the
    /// next fetch reads everything again.
    package func restartFetch() throws {
        try database.mutate { db in
            try SyncRows.forgetRemote(db)
            try db.execute(sql: "UPDATE sync_state SET cursor = 0 WHERE id = 1")
        }
    }

    /// Records how a sync ended: `nil` for success (which also sets the last sync time).
    package func recordResult(error: String?) throws {
        try database.mutate { db in
            if let error {
                try db.execute(sql: "UPDATE sync_state SET last_error = ? WHERE id = 1", arguments: [error])
            } else {
                try db.execute(
                    sql: "UPDATE sync_state SET last_error = NULL, last_sync_at = ? WHERE id = 1",
                    arguments: [StoredTime.text(Date())])
            }
        }
    }

    /// The first `limit` records of the outbox, each built from the rows as they are now.
    package func pending(limit: Int) throws -> [SyncPendingRecord] {
        try database.read { db in
            let state = try SyncRows.state(db, countingPending: false)
            guard state.isEnabled else { return [] }
            let entries = try Row.fetchAll(
                db, sql: "SELECT kind, local_id, generation FROM sync_outbox ORDER BY kind, local_id LIMIT ?",
                arguments: [limit])
            return try entries.map { row in
                let entry = SyncOutboxEntry(
                    kind: SyncRecordKind(rawValue: row[0]) ?? .tab, localID: row[1], generation: row[2])
                let content = try SyncRows.content(db, entry: entry, state: state)
                var expiresAt: Int64?
                if case .closed(let closed) = content {
                    expiresAt = closed.closedAt / 1000 + Int64(database.configuration.closedEntryLifetime)
                }
                return SyncPendingRecord(entry: entry, content: content, expiresAt: expiresAt)
            }
        }
    }

    /// Takes `count` versions from the device's counter and returns the first,
    /// never below `floor` (kept outside the file, so that a store brought back
    /// from a snapshot or a backup does not reuse versions it already sent).
    ///
    /// Committed before the upload they are used for, so a version once sent is
    /// never sent again, whatever happens to the upload.
    package func reserveVersions(_ count: Int, atLeast floor: Int64 = 1) throws -> Int64 {
        try database.mutate { db in
            let next = try Int64.fetchOne(db, sql: "SELECT next_version FROM sync_state WHERE id = 1") ?? 1
            let first = max(next, floor)
            try db.execute(
                sql: "UPDATE sync_state SET next_version = ? WHERE id = 1", arguments: [first + Int64(count)])
            return first
        }
    }

    /// Removes what the server acknowledged from the outbox: each entry still at
    /// the generation that was sent (one marked again since stays).
    package func acknowledge(_ entries: [SyncOutboxEntry]) throws {
        try database.mutate { db in
            for entry in entries {
                try db.execute(
                    sql: "DELETE FROM sync_outbox WHERE kind = ? AND local_id = ? AND generation = ?",
                    arguments: [entry.kind.rawValue, entry.localID, entry.generation])
            }
        }
    }

    /// Stores other devices' records and the cursor they were read up to, in one
    /// transaction (docs/sync-protocol.md, "What a device detects"):
    ///
    /// - this device's own records are skipped;
    /// - a record below the highest version seen of it, or at that version with
    ///   other sealed bytes, is a replay: reported and ignored (the floor outlives
    ///   deletions and ``restartFetch()``); the same version again is skipped, or
    ///   stored again when a fetch from 0 forgot it;
    /// - an unauthenticated tombstone (``SyncReceivedRecord/isAuthenticated``)
    ///   of a record seen here removes it only when this device last heard from
    ///   its device (by its own clock) before `silentSince`, the server's sweep of
    ///   silent devices; otherwise it is a forged deletion: reported, the record
    ///   kept. One of a record never seen here is skipped.
    @discardableResult
    package func apply(_ records: [SyncReceivedRecord], cursor: Int64, silentSince: Date? = nil) throws -> SyncApplyResult {
        try database.mutate { db in
            let own = try String.fetchOne(db, sql: "SELECT device_id FROM sync_state WHERE id = 1")
            let now = StoredTime.text(Date())
            var result = SyncApplyResult()
            for record in records {
                guard record.deviceID != own else {
                    result.skipped += 1
                    continue
                }
                // Cached statements: a cold start applies every record of the account in a few transactions.
                let held = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT version, payload != '' FROM sync_remote_records WHERE record_id = ?"),
                    arguments: [record.recordID])
                let heldVersion: Int64? = held?[0]
                let heldLive: Bool = held?[1] ?? false
                let floor = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT version, digest FROM sync_record_floors WHERE record_id = ?"),
                    arguments: [record.recordID])
                // A store synced before the floors kept its versions in `sync_remote_records` only.
                let floorSeen: Int64 = floor?[0] ?? 0
                let floorVersion = max(floorSeen, heldVersion ?? 0)
                if record.version < floorVersion
                    || (record.version == floorVersion && floor != nil && (floor?[1] as String?) != record.digest)
                {
                    result.replayed.append(record.recordID)
                    continue
                }
                if record.version == floorVersion, heldVersion == floorVersion || record.content == nil {
                    // Delivered again (a fetch from 0): the same version is held, or was a deletion.
                    result.skipped += 1
                    continue
                }
                if record.content == nil, !record.isAuthenticated {
                    // A record never seen here has nothing to lose; one seen (held, or forgotten
                    // by a fetch from 0) is checked.
                    guard heldLive || floor != nil else {
                        result.skipped += 1
                        continue
                    }
                    let heard = try String.fetchOne(
                        db, sql: "SELECT max(received_at) FROM sync_record_floors WHERE device_id = ?",
                        arguments: [record.deviceID])
                    // Never heard of here (a store that synced before the floors): not believed.
                    let swept = heard.flatMap(StoredTime.date).flatMap { heard in silentSince.map { heard < $0 } } ?? false
                    guard swept else {
                        result.forgedDeletions.append(record.recordID)
                        continue
                    }
                }
                if heldVersion != nil { try SyncRows.removeRemote(db, recordID: record.recordID) }
                if let (content, payload) = record.content {
                    try SyncRows.storeRemote(db, record: record, content: content, payload: payload)
                    result.applied += 1
                } else {
                    result.removed += heldLive ? 1 : 0
                    result.skipped += heldLive ? 0 : 1
                }
                // Only a newer version sealed by its device is news from that device: one delivered
                // again, or a tombstone the server made, leaves the time this device last heard from it.
                if record.version > floorVersion || floor == nil {
                    let fromDevice = !record.digest.isEmpty
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO sync_record_floors (record_id, device_id, version, digest, received_at)
                            VALUES (?, ?, ?, ?, ?)
                            ON CONFLICT (record_id) DO UPDATE SET device_id = excluded.device_id,
                                version = excluded.version, digest = excluded.digest,
                                received_at = CASE WHEN ? THEN excluded.received_at ELSE received_at END
                            """
                    ).execute(
                        arguments: [
                            record.recordID, record.deviceID, record.version, record.digest,
                            fromDevice ? now : StoredTime.text(Date(timeIntervalSince1970: 0)), fromDevice,
                        ])
                }
                try db.cachedStatement(
                    sql: """
                        INSERT INTO sync_remote_devices (device_id, last_seen_at) VALUES (?, ?)
                        ON CONFLICT (device_id) DO UPDATE SET last_seen_at = max(last_seen_at, excluded.last_seen_at)
                        """
                ).execute(arguments: [record.deviceID, StoredTime.text(record.modifiedAt)])
            }
            try db.execute(sql: "UPDATE sync_state SET cursor = max(cursor, ?) WHERE id = 1", arguments: [cursor])
            if result.applied + result.removed > 0 {
                // The remote tables are WITHOUT ROWID, whose changes GRDB's observations do not see by
                // themselves: without this, this process's observers (the other devices' tabs on screen)
                // learned of them only at the next poll for other processes' commits, up to 250 ms later.
                for table in SyncRows.remoteTables { try db.notifyChanges(in: Table(table)) }
            }
            return result
        }
    }

    /// The other devices with their windows, tabs and recently closed tabs.
    public func remoteDevices() throws -> [RemoteDevice] {
        try database.read { db in try SyncRows.remoteDevices(db) }
    }

    /// The device another device's record came from.
    package func remoteDeviceID(ofRecord recordID: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(
                db, sql: "SELECT device_id FROM sync_remote_records WHERE record_id = ?", arguments: [recordID])
        }
    }

    /// The payload of another device's record, as received.
    package func remoteRecord(_ recordID: String) throws -> SyncRecordContent? {
        try database.read { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT kind, payload FROM sync_remote_records WHERE record_id = ? AND payload <> ''",
                arguments: [recordID]),
                let kind = SyncRecordKind(rawValue: row[0])
            else { return nil }
            let payload: String = row[1]
            return try SyncRecordContent.decoded(Data(payload.utf8), kind: kind)
        }
    }
}

extension SyncStorage {
    /// Observes the other devices: the initial value, then one after each commit
    /// that changed them (a sync that brought their records, a clear of browsing
    /// data), on a private queue. Other processes' commits are noticed too.
    public func observeRemoteDevices(
        onChange: @escaping @Sendable (Result<[RemoteDevice], any Error>) -> Void
    ) -> any StoreObservation {
        SnapshotObserver(
            database: database,
            // Not `sync_state`, which every sync writes (its time): a sync that brought nothing reads nothing.
            tables: SyncRows.remoteTables,
            fetch: { db in try SyncRows.remoteDevices(db) }, onChange: onChange)
    }

    /// Observes how many records wait in the outbox: the initial count, then the
    /// count after each commit that touched the outbox, equal ones included (a
    /// record acknowledged and another marked leave the count as it was, and the
    /// second still needs sending). Other processes' commits are noticed too.
    package func observePendingCount(onChange: @escaping @Sendable (Result<Int, any Error>) -> Void) -> any StoreObservation {
        // Saved groups' marks and unacknowledged records (migration 0012) wake an upload too.
        let savedGroups = (try? database.read { db in try db.tableExists("sync_saved_group_marks") }) ?? false
        return SnapshotObserver(
            database: database,
            tables: savedGroups ? ["sync_outbox", "sync_saved_group_marks", "sync_saved_group_records"] : ["sync_outbox"],
            fetch: { db in
                try Int.fetchOne(db, sql: savedGroups ? """
                    SELECT (SELECT count(*) FROM sync_outbox) + (SELECT count(*) FROM sync_saved_group_marks)
                         + (SELECT count(*) FROM sync_saved_group_records WHERE dirty = 1)
                    """ : "SELECT count(*) FROM sync_outbox") ?? 0
            },
            isSame: { _, _ in false }, onChange: onChange)
    }
}
