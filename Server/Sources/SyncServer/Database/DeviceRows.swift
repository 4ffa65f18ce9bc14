import Foundation
import NIOCore
import PostgresNIO

/// A row of `devices`.
struct DeviceRow: Sendable {
    var deviceID: String
    var publicKey: [UInt8]
    var registeredAt: Date
    var lastSeenAt: Date
    var revokedAt: Date?
}

/// Queries on `devices`.
extension Transaction {
    /// One device of the account, or `nil`.
    func device(accountID: String, deviceID: String) async throws -> DeviceRow? {
        let rows = try await query("""
            SELECT device_id, public_key, registered_at, last_seen_at, revoked_at FROM devices
            WHERE account_id = \(accountID) AND device_id = \(deviceID)
            """)
        for try await row in rows.decode((String, ByteBuffer, Date, Date, Date?).self) {
            return DeviceRow(deviceID: row.0, publicKey: Array(buffer: row.1),
                             registeredAt: row.2, lastSeenAt: row.3, revokedAt: row.4)
        }
        return nil
    }

    /// Every device of the account that is not revoked, oldest first.
    func activeDevices(accountID: String) async throws -> [DeviceRow] {
        let rows = try await query("""
            SELECT device_id, public_key, registered_at, last_seen_at, revoked_at FROM devices
            WHERE account_id = \(accountID) AND revoked_at IS NULL
            ORDER BY registered_at, device_id
            """)
        var devices: [DeviceRow] = []
        for try await row in rows.decode((String, ByteBuffer, Date, Date, Date?).self) {
            devices.append(DeviceRow(deviceID: row.0, publicKey: Array(buffer: row.1),
                                     registeredAt: row.2, lastSeenAt: row.3, revokedAt: row.4))
        }
        return devices
    }

    /// Adds a device to the account.
    func insertDevice(accountID: String, deviceID: String, publicKey: [UInt8]) async throws {
        try await query("""
            INSERT INTO devices (account_id, device_id, public_key)
            VALUES (\(accountID), \(deviceID), \(ByteBuffer(bytes: publicKey)))
            """)
    }

    /// Sets the device's `last_seen_at` to now.
    func touchDevice(accountID: String, deviceID: String) async throws {
        try await query("""
            UPDATE devices SET last_seen_at = now()
            WHERE account_id = \(accountID) AND device_id = \(deviceID)
            """)
    }
}

/// Revoking devices and deleting accounts.
extension Transaction {
    /// Marks the device revoked (its tokens stop working at once) and drops the
    /// commands waiting for it; `false` when it was already revoked. The signed
    /// `statement`, when given, is kept unless the device holds one already (a
    /// device revoked by a version 1 client gains one when revoked again).
    func revokeDevice(accountID: String, deviceID: String, statement: RevocationStatement? = nil) async throws -> Bool {
        let rows = try await query("""
            UPDATE devices SET revoked_at = now()
            WHERE account_id = \(accountID) AND device_id = \(deviceID) AND revoked_at IS NULL
            RETURNING 1
            """)
        var revoked = false
        for try await _ in rows.decode(Int32.self) { revoked = true }
        if let statement {
            try await query("""
                UPDATE devices SET revocation_at = \(statement.revokedAt),
                    revocation_signature = \(ByteBuffer(bytes: statement.signature))
                WHERE account_id = \(accountID) AND device_id = \(deviceID) AND revocation_signature IS NULL
                """)
        }
        try await query("""
            DELETE FROM commands WHERE account_id = \(accountID) AND target_device_id = \(deviceID)
            """)
        return revoked
    }

    /// Tombstones up to `limit` of the device's live records, each with a new
    /// sequence number above `counter` and a version one higher (so every
    /// reader applies it); returns how many and their sealed bytes.
    func tombstoneRecords(accountID: String, deviceID: String, above counter: Int64, limit: Int)
        async throws -> (count: Int64, bytes: Int64)
    {
        let rows = try await query("""
            WITH doomed AS (
                SELECT record_id, size, row_number() OVER (ORDER BY seq) AS n FROM records
                WHERE account_id = \(accountID) AND device_id = \(deviceID) AND NOT tombstone
                ORDER BY seq LIMIT \(Int64(limit)))
            UPDATE records r SET tombstone = true, sealed = NULL, size = 0, version = r.version + 1,
                seq = \(counter) + d.n, modified_at = now(), expires_at = NULL
            FROM doomed d
            WHERE r.account_id = \(accountID) AND r.record_id = d.record_id
            RETURNING d.size
            """)
        var count: Int64 = 0
        var bytes: Int64 = 0
        for try await size in rows.decode(Int32.self) {
            count += 1
            bytes += Int64(size)
        }
        return (count, bytes)
    }

    /// How many devices of the account are not revoked.
    func activeDeviceCount(accountID: String) async throws -> Int {
        let rows = try await query("""
            SELECT count(*) FROM devices WHERE account_id = \(accountID) AND revoked_at IS NULL
            """)
        for try await count in rows.decode(Int64.self) { return Int(count) }
        return 0
    }

    /// Deletes up to `limit` of the account's records; returns how many.
    func deleteRecordsBatch(accountID: String, limit: Int) async throws -> Int {
        let rows = try await query("""
            WITH gone AS (
                DELETE FROM records WHERE account_id = \(accountID) AND record_id IN (
                    SELECT record_id FROM records WHERE account_id = \(accountID) LIMIT \(Int64(limit)))
                RETURNING 1)
            SELECT count(*) FROM gone
            """)
        for try await count in rows.decode(Int64.self) { return Int(count) }
        return 0
    }

    /// Deletes every row of the account; `false` when there was none.
    func deleteAccount(accountID: String) async throws -> Bool {
        for table in ["commands", "records", "account_records", "idempotency", "devices"] {
            try await query(PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE account_id = $1", binds: {
                var binds = PostgresBindings()
                binds.append(accountID)
                return binds
            }()))
        }
        let rows = try await query("DELETE FROM accounts WHERE account_id = \(accountID) RETURNING 1")
        for try await _ in rows.decode(Int32.self) { return true }
        return false
    }
}
