import Foundation
import NIOCore
import PostgresNIO

/// Who owns a stored record and at which version.
struct StoredRecordHead: Sendable {
    var deviceID: String
    var version: Int64
    /// Whether it is a tombstone (not counted in the account's usage).
    var tombstone: Bool
    /// Its sealed size (0 for a tombstone, sealed or not).
    var size: Int64
}

/// A record as `/v1/changes` returns it.
struct ChangedRecord: Sendable {
    var recordID: String
    var deviceID: String
    var seq: Int64
    var version: Int64
    var tombstone: Bool
    var modifiedAt: Date
    var sealed: [UInt8]?
    /// For an unsealed tombstone of a device revoked with a signed statement: that statement.
    var revocation: RevocationStatement?
}

/// The account's signed statement that revoked a device.
struct RevocationStatement: Sendable, Hashable {
    /// When the revoking device says it revoked (seconds since 1970), as signed.
    var revokedAt: Int64
    /// The account key's Ed25519 signature of the revocation message.
    var signature: [UInt8]
}

/// One record to store, already validated.
struct RecordWrite: Sendable {
    var recordID: String
    var version: Int64
    var tombstone: Bool
    var expiresAt: Date?
    var sealed: [UInt8]?
    /// Written by any device of the account, owned by none (`account_records`, protocol version 3).
    var accountWide = false

    /// The bytes it counts in the account's usage: a tombstone, even a sealed one, counts none.
    var countedSize: Int {
        tombstone ? 0 : sealed?.count ?? 0
    }
}

/// Queries on `records`.
extension Transaction {

    /// Owner and version of those of `recordIDs` the account already holds.
    func recordHeads(accountID: String, recordIDs: [String]) async throws -> [String: StoredRecordHead] {
        let rows = try await query("""
            SELECT record_id, device_id, version, tombstone, size FROM records
            WHERE account_id = \(accountID) AND record_id = ANY(\(recordIDs))
            """)
        var heads: [String: StoredRecordHead] = [:]
        for try await (id, device, version, tombstone, size) in rows.decode((String, String, Int64, Bool, Int32).self) {
            heads[id] = StoredRecordHead(deviceID: device, version: version, tombstone: tombstone, size: Int64(size))
        }
        return heads
    }

    /// Inserts or replaces one record with sequence number `seq`.
    func upsertRecord(accountID: String, deviceID: String, seq: Int64, record: RecordWrite) async throws {
        let sealed = record.sealed.map { ByteBuffer(bytes: $0) }
        let size = Int32(record.countedSize)
        try await query("""
            INSERT INTO records (account_id, record_id, device_id, seq, version, tombstone, sealed, size,
                                 modified_at, expires_at)
            VALUES (\(accountID), \(record.recordID), \(deviceID), \(seq), \(record.version),
                    \(record.tombstone), \(sealed), \(size), now(), \(record.expiresAt))
            ON CONFLICT (account_id, record_id) DO UPDATE SET
                device_id = EXCLUDED.device_id, seq = EXCLUDED.seq, version = EXCLUDED.version,
                tombstone = EXCLUDED.tombstone, sealed = EXCLUDED.sealed, size = EXCLUDED.size,
                modified_at = EXCLUDED.modified_at, expires_at = EXCLUDED.expires_at
            """)
    }

    /// Up to `limit` unexpired records with `seq > after`, in ascending order; with `accountWide`
    /// (a protocol version 3 reader), the account-wide records too, whose device is `account`
    /// (no device id is: device ids are UUIDs), up to `counter` (the account's counter, read
    /// before this).
    func changes(
        accountID: String, after: Int64, limit: Int, accountWide: Bool = false, counter: Int64 = .max
    ) async throws -> [ChangedRecord] {
        // The revocation statement goes with each unsealed tombstone of its device (the ones
        // the server made); readers check it before they apply them.
        let rows = try await query("""
            SELECT r.record_id, r.device_id, r.seq, r.version, r.tombstone, r.modified_at, r.sealed,
                   CASE WHEN r.tombstone AND r.sealed IS NULL THEN d.revocation_at END,
                   CASE WHEN r.tombstone AND r.sealed IS NULL THEN d.revocation_signature END
            FROM records r
            LEFT JOIN devices d ON d.account_id = r.account_id AND d.device_id = r.device_id
            WHERE r.account_id = \(accountID) AND r.seq > \(after)
              AND (r.expires_at IS NULL OR r.expires_at > now())
            ORDER BY r.seq
            LIMIT \(Int64(limit))
            """)
        var records = try await Self.changedRecords(rows)
        guard accountWide else { return records }
        // A second statement, its own index scan (a UNION of both, ordered and cut, read a 10,000-record
        // cold start slower). Up to the last device record of a full page, or else up to the counter:
        // every commit at or below either was visible to the first statement, so none is skipped.
        let upTo = records.count == limit ? records.last!.seq : counter
        let shared = try await query("""
            SELECT record_id, 'account'::text, seq, version, false, modified_at, sealed, NULL::bigint, NULL::bytea
            FROM account_records
            WHERE account_id = \(accountID) AND seq > \(after) AND seq <= \(upTo)
            ORDER BY seq
            LIMIT \(Int64(limit))
            """)
        let accountRecords = try await Self.changedRecords(shared)
        guard !accountRecords.isEmpty else { return records }
        records = (records + accountRecords).sorted { $0.seq < $1.seq }
        return Array(records.prefix(limit))
    }

    private static func changedRecords(_ rows: PostgresRowSequence) async throws -> [ChangedRecord] {
        var records: [ChangedRecord] = []
        for try await row in rows.decode(
            (String, String, Int64, Int64, Bool, Date, ByteBuffer?, Int64?, ByteBuffer?).self)
        {
            var revocation: RevocationStatement?
            if let revokedAt = row.7, let signature = row.8 {
                revocation = RevocationStatement(revokedAt: revokedAt, signature: Array(buffer: signature))
            }
            records.append(ChangedRecord(
                recordID: row.0, deviceID: row.1, seq: row.2, version: row.3,
                tombstone: row.4, modifiedAt: row.5, sealed: row.6.map { Array(buffer: $0) }, revocation: revocation))
        }
        return records
    }
}
