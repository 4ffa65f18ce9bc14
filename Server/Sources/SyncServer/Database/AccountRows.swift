import Foundation
import NIOCore
import PostgresNIO

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

    /// The account's counter, taking the account's row lock.
    func lockCounter(accountID: String) async throws -> Int64? {
        let rows = try await query("SELECT counter FROM accounts WHERE account_id = \(accountID) FOR UPDATE")
        for try await counter in rows.decode(Int64.self) { return counter }
        return nil
    }

    /// The account's counter, without locking.
    func counter(accountID: String) async throws -> Int64? {
        let rows = try await query("SELECT counter FROM accounts WHERE account_id = \(accountID)")
        for try await counter in rows.decode(Int64.self) { return counter }
        return nil
    }

    /// Stores the account's new counter.
    func setCounter(accountID: String, to counter: Int64) async throws {
        try await query("UPDATE accounts SET counter = \(counter) WHERE account_id = \(accountID)")
    }
}
