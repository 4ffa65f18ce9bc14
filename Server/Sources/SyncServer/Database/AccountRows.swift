import Foundation
import NIOCore
import PostgresNIO

/// An account's row: its counter, what it holds, and how far tombstones were pruned.
struct AccountUsage: Sendable {
    var counter: Int64
    var liveRecords: Int64
    var liveBytes: Int64
    var prunedSeq: Int64
}

/// Queries on `accounts`.
extension Transaction {
    /// Creates the account if it does not exist yet.
    func insertAccountIfAbsent(accountID: String, publicKey: [UInt8]) async throws {
        try await query("""
            INSERT INTO accounts (account_id, public_key) VALUES (\(accountID), \(ByteBuffer(bytes: publicKey)))
            ON CONFLICT (account_id) DO NOTHING
            """)
    }

    /// The account's public key, taking the account's row lock.
    func lockAccountKey(accountID: String) async throws -> [UInt8]? {
        let rows = try await query(
            "SELECT public_key FROM accounts WHERE account_id = \(accountID) FOR UPDATE")
        for try await key in rows.decode(ByteBuffer.self) { return Array(buffer: key) }
        return nil
    }

    /// The account's generation and counter, without locking; `nil` when there is no such account.
    func generation(accountID: String) async throws -> (generation: String, counter: Int64)? {
        let rows = try await query("SELECT generation, counter FROM accounts WHERE account_id = \(accountID)")
        for try await row in rows.decode((String, Int64).self) { return (row.0, row.1) }
        return nil
    }

    /// The server's own id (made by migration 3), kept with the database.
    func serverID() async throws -> String? {
        let rows = try await query("SELECT value FROM server_meta WHERE key = 'server_id'")
        for try await value in rows.decode(String.self) { return value }
        return nil
    }

    /// The account's counter, taking the account's row lock.
    func lockCounter(accountID: String) async throws -> Int64? {
        try await lockUsage(accountID: accountID)?.counter
    }

    /// The account's counter and usage, taking the account's row lock.
    func lockUsage(accountID: String) async throws -> AccountUsage? {
        let rows = try await query("""
            SELECT counter, live_records, live_bytes, pruned_seq FROM accounts
            WHERE account_id = \(accountID) FOR UPDATE
            """)
        for try await row in rows.decode((Int64, Int64, Int64, Int64).self) {
            return AccountUsage(counter: row.0, liveRecords: row.1, liveBytes: row.2, prunedSeq: row.3)
        }
        return nil
    }

    /// The account's counter and how far its tombstones were pruned, without locking.
    func cursorBounds(accountID: String) async throws -> (counter: Int64, prunedSeq: Int64)? {
        let rows = try await query("SELECT counter, pruned_seq FROM accounts WHERE account_id = \(accountID)")
        for try await row in rows.decode((Int64, Int64).self) { return (row.0, row.1) }
        return nil
    }

    /// Moves the account's live record and byte counts by the deltas.
    func addUsage(accountID: String, records: Int64, bytes: Int64) async throws {
        guard records != 0 || bytes != 0 else { return }
        try await query("""
            UPDATE accounts SET live_records = live_records + \(records), live_bytes = live_bytes + \(bytes)
            WHERE account_id = \(accountID)
            """)
    }

    /// Stores the account's new counter.
    func setCounter(accountID: String, to counter: Int64) async throws {
        try await query("UPDATE accounts SET counter = \(counter) WHERE account_id = \(accountID)")
    }
}
