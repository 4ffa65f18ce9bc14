import Foundation
import NIOCore
import PostgresNIO

/// Queries on `account_records`: records any device of the account writes (protocol version 3).
extension Transaction {
    /// The versions of those of `recordIDs` the account holds as account-wide records.
    func accountRecordVersions(accountID: String, recordIDs: [String]) async throws -> [String: Int64] {
        let rows = try await query("""
            SELECT record_id, version FROM account_records
            WHERE account_id = \(accountID) AND record_id = ANY(\(recordIDs))
            """)
        var versions: [String: Int64] = [:]
        for try await (id, version) in rows.decode((String, Int64).self) { versions[id] = version }
        return versions
    }

    /// How many account-wide records the account holds.
    func accountRecordCount(accountID: String) async throws -> Int64 {
        let rows = try await query("SELECT count(*) FROM account_records WHERE account_id = \(accountID)")
        for try await count in rows.decode(Int64.self) { return count }
        return 0
    }

    /// Inserts or replaces one account-wide record with sequence number `seq`, written by `writer`.
    func upsertAccountRecord(accountID: String, writer: String, seq: Int64, record: RecordWrite) async throws {
        let sealed = ByteBuffer(bytes: record.sealed ?? [])
        let size = Int32(record.countedSize)
        try await query("""
            INSERT INTO account_records (account_id, record_id, seq, version, sealed, size, writer_device_id, modified_at)
            VALUES (\(accountID), \(record.recordID), \(seq), \(record.version), \(sealed), \(size), \(writer), now())
            ON CONFLICT (account_id, record_id) DO UPDATE SET
                seq = EXCLUDED.seq, version = EXCLUDED.version, sealed = EXCLUDED.sealed, size = EXCLUDED.size,
                writer_device_id = EXCLUDED.writer_device_id, modified_at = EXCLUDED.modified_at
            """)
    }
}
