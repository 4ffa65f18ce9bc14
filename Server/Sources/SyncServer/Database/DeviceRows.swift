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
