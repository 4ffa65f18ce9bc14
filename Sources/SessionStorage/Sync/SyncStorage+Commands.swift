import Foundation
internal import GRDB

/// Commands (migration `0005_sync_commands`): the ones this device sends wait in
/// `sync_outgoing_commands` until the server has them; the ids of the ones it
/// applied are kept in `sync_applied_commands`.
extension SyncStorage {
    /// Queues a command to leave once its undo window ends, in one transaction.
    package func queue(_ outgoing: SyncOutgoingCommand) throws {
        let payload = String(decoding: try SyncCommandCoding.encoder.encode(outgoing.command), as: UTF8.self)
        try database.mutate { db in
            try db.execute(
                sql: """
                    INSERT INTO sync_outgoing_commands (command_id, target_device_id, payload, created_at, send_after, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    outgoing.id, outgoing.targetDeviceID, payload, StoredTime.text(outgoing.createdAt),
                    StoredTime.text(outgoing.sendAfter), StoredTime.text(outgoing.expiresAt),
                ])
        }
    }

    /// Undoes a queued command: `true` when it had not left yet (it never will),
    /// `false` when it is gone already (sent, or undone before).
    @discardableResult
    package func cancelCommand(_ id: String) throws -> Bool {
        try database.mutate { db in
            try db.execute(sql: "DELETE FROM sync_outgoing_commands WHERE command_id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    // SPI, not `package`: the `Server/` package's end-to-end tests check it (`@_spi(SyncInternals) import`).
    /// The queued commands whose undo window ended by `now`, oldest first; those
    /// already expired are dropped instead. A row whose payload this binary
    /// cannot read (a newer binary's command) is left out here, and still sent
    /// by ``dueEnvelopes(at:limit:)``.
    @_spi(SyncInternals) public func dueCommands(at now: Date = Date(), limit: Int = 1000) throws -> [SyncOutgoingCommand] {
        try dueEnvelopes(at: now, limit: limit).compactMap { envelope -> SyncOutgoingCommand? in
            guard let command = try? SyncCommandCoding.decoder.decode(SyncCommand.self, from: envelope.payload) else {
                return nil
            }
            return SyncOutgoingCommand(
                id: envelope.id, targetDeviceID: envelope.targetDeviceID, command: command,
                createdAt: envelope.createdAt, sendAfter: envelope.sendAfter, expiresAt: envelope.expiresAt)
        }
    }

    /// The queued commands whose undo window ended by `now`, oldest first, as
    /// stored: what a client seals and sends, whether or not it knows the
    /// command's kind. Expired ones are dropped.
    package func dueEnvelopes(at now: Date = Date(), limit: Int = 1000) throws -> [SyncCommandEnvelope] {
        try database.mutate { db in
            try db.execute(
                sql: "DELETE FROM sync_outgoing_commands WHERE expires_at <= ?", arguments: [StoredTime.text(now)])
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT command_id, target_device_id, payload, created_at, send_after, expires_at
                    FROM sync_outgoing_commands WHERE send_after <= ? ORDER BY send_after, command_id LIMIT ?
                    """,
                arguments: [StoredTime.text(now), limit])
            return rows.map { row in
                let payload: String = row[2]
                let distantPast = Date(timeIntervalSince1970: 0)
                return SyncCommandEnvelope(
                    id: row[0], targetDeviceID: row[1], payload: Data(payload.utf8),
                    createdAt: StoredTime.date(row[3]) ?? distantPast, sendAfter: StoredTime.date(row[4]) ?? distantPast,
                    expiresAt: StoredTime.date(row[5]) ?? distantPast)
            }
        }
    }

    /// When the next queued command's undo window ends (`nil`: none is queued).
    package func nextCommandDue() throws -> Date? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT min(send_after) FROM sync_outgoing_commands").flatMap(StoredTime.date)
        }
    }

    /// Removes commands the server acknowledged.
    package func commandsSent(_ ids: [String]) throws {
        try database.mutate { db in
            for id in ids {
                try db.execute(sql: "DELETE FROM sync_outgoing_commands WHERE command_id = ?", arguments: [id])
            }
        }
    }

    // SPI, not `package`: the `Server/` package's end-to-end tests check it (`@_spi(SyncInternals) import`).
    /// Whether a received command was applied here already.
    @_spi(SyncInternals) public func isCommandApplied(_ id: String) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM sync_applied_commands WHERE command_id = ?)", arguments: [id])
                ?? false
        }
    }

    /// Remembers that a received command was applied (or decided against: a
    /// close of a tab that shows another page is done with too).
    package func markCommandApplied(_ id: String, at date: Date = Date()) throws {
        try database.mutate { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO sync_applied_commands (command_id, applied_at) VALUES (?, ?)",
                arguments: [id, StoredTime.text(date)])
        }
    }

    /// Where one of this store's open tabs is, and the URL it shows: what a
    /// `close_tab` command checks before closing it.
    package func openTab(_ id: String) throws -> (browser: String, index: Int, url: String)? {
        try database.read { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT t.browser_id, t.sort_key, coalesce(p.url, '') FROM tabs t
                    JOIN browsers b ON b.id = t.browser_id AND b.closed_entry_id IS NULL
                    LEFT JOIN tab_pages p ON p.tab_id = t.id
                    WHERE t.id = ?\(try BrowserRows.onlyWindows(db, column: "b.id"))
                    """,
                arguments: [id.lowercased()])
            else { return nil }
            let browser: String = row[0]
            let sortKey: Int64 = row[1]
            let index = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM tabs WHERE browser_id = ? AND sort_key < ?",
                arguments: [browser, sortKey]) ?? 0
            return (browser, index, row[2])
        }
    }

    /// Whether a tab with this id exists here, open or in recently closed.
    package func tabExists(_ id: String) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM tabs WHERE id = ?)", arguments: [id.lowercased()])
                ?? false
        }
    }

    /// The open window used last: where tabs sent from other devices open.
    package func lastActiveOpenBrowser() throws -> String? {
        try database.read { db in
            try String.fetchOne(
                db,
                sql: "SELECT id FROM browsers WHERE closed_entry_id IS NULL ORDER BY last_active_at DESC, id LIMIT 1")
        }
    }

    /// Observes the outgoing queue: its count, then the count after each commit
    /// that touched it (equal ones included), on a private queue.
    package func observeOutgoingCommands(onChange: @escaping @Sendable (Result<Int, any Error>) -> Void)
        -> any StoreObservation
    {
        SnapshotObserver(
            database: database, tables: ["sync_outgoing_commands"],
            fetch: { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_outgoing_commands") ?? 0 },
            isSame: { _, _ in false }, onChange: onChange)
    }
}

/// The JSON form of a command's payload (sorted keys, URLs unescaped).
package enum SyncCommandCoding {
    /// Encodes a ``SyncCommand`` payload.
    package static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Decodes a ``SyncCommand`` payload.
    package static var decoder: JSONDecoder { JSONDecoder() }
}
