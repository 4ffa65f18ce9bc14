import Foundation

/// The bodies of the server's API, version 1 (docs/sync-protocol.md, "HTTP API").
enum SyncAPI {
    struct Registration: Codable {
        var accountID: String
        var accountKey: String
        var deviceID: String
        var deviceKey: String
        var signature: String
        /// `false` once this device joined the account: the server must not make it again.
        var create: Bool?
        /// The generation of the account this device joined: the server refuses another.
        var generation: String?

        enum CodingKeys: String, CodingKey {
            case signature, create, generation
            case accountID = "account_id"
            case accountKey = "account_key"
            case deviceID = "device_id"
            case deviceKey = "device_key"
        }
    }

    /// `POST /v1/devices`'s answer; version 1 servers send neither the generation, the counter nor the id.
    struct Registered: Codable {
        var generation: String?
        var counter: Int64?
        var serverID: String?

        enum CodingKeys: String, CodingKey {
            case generation, counter
            case serverID = "server_id"
        }
    }

    /// `GET /v1/info`, the part a client reads.
    struct Info: Codable {
        var version: Int
        var serverID: String?
        var sweepDeviceDays: Int?

        enum CodingKeys: String, CodingKey {
            case version
            case serverID = "server_id"
            case sweepDeviceDays = "sweep_device_days"
        }
    }

    struct TokenRequest: Codable {
        var accountID: String
        var deviceID: String
        var issuedAt: Int64
        var signature: String

        enum CodingKeys: String, CodingKey {
            case signature
            case accountID = "account_id"
            case deviceID = "device_id"
            case issuedAt = "issued_at"
        }
    }

    struct Token: Codable {
        var token: String
        var expiresAt: Int64

        enum CodingKeys: String, CodingKey {
            case token
            case expiresAt = "expires_at"
        }
    }

    struct UploadRecord: Codable {
        var id: String
        var version: Int64
        var tombstone: Bool
        var expiresAt: Int64?
        var sealed: String?
        /// `account` for an account-wide record (protocol version 3); absent for this device's own.
        var scope: String? = nil

        enum CodingKeys: String, CodingKey {
            case id, version, tombstone, sealed, scope
            case expiresAt = "expires_at"
        }
    }

    struct Upload: Codable {
        var records: [UploadRecord]
    }

    struct Cursor: Codable {
        var cursor: Int64
    }

    struct ChangedRecord: Codable {
        var id: String
        var deviceID: String
        var seq: Int64
        var version: Int64
        var tombstone: Bool
        var modifiedAt: Int64
        var sealed: String?
        /// With an unsealed tombstone the server made when the device was revoked:
        /// the account's signed statement (protocol version 2).
        var revocation: Revocation?

        enum CodingKeys: String, CodingKey {
            case id, seq, version, tombstone, sealed, revocation
            case deviceID = "device_id"
            case modifiedAt = "modified_at"
        }
    }

    /// The account key's statement that a device is revoked: the body of
    /// `DELETE /v1/devices/{id}`, and what `/v1/changes` returns with the
    /// tombstones the server made of that device's records.
    struct Revocation: Codable, Hashable {
        var revokedAt: Int64
        var signature: String

        enum CodingKeys: String, CodingKey {
            case signature
            case revokedAt = "revoked_at"
        }
    }

    /// What the client reads of `GET /v1/info`.
    struct Changes: Codable {
        var records: [ChangedRecord]
        var cursor: Int64
        var more: Bool
    }

    struct Hint: Codable {
        var counter: Int64
        var commands: Int64
    }

    struct OutgoingCommand: Codable {
        var id: String
        var target: String
        var expiresAt: Int64
        var sealed: String

        enum CodingKeys: String, CodingKey {
            case id, target, sealed
            case expiresAt = "expires_at"
        }
    }

    struct CommandsUpload: Codable {
        var commands: [OutgoingCommand]
    }

    struct CommandsStored: Codable {
        var stored: Int
        var duplicates: Int
    }

    struct PendingCommand: Codable {
        var id: String
        var sender: String
        var seq: Int64
        var createdAt: Int64
        var expiresAt: Int64
        var sealed: String

        enum CodingKeys: String, CodingKey {
            case id, sender, seq, sealed
            case createdAt = "created_at"
            case expiresAt = "expires_at"
        }
    }

    struct PendingCommands: Codable {
        var commands: [PendingCommand]
    }

    struct Acknowledge: Codable {
        var ids: [String]
    }

    struct Acknowledged: Codable {
        var acknowledged: Int
    }

    struct ServerDevice: Codable {
        var deviceID: String
        var registeredAt: Int64
        var lastSeenAt: Int64
        var hidden: Bool?

        enum CodingKeys: String, CodingKey {
            case hidden
            case deviceID = "device_id"
            case registeredAt = "registered_at"
            case lastSeenAt = "last_seen_at"
        }
    }

    struct ServerDevices: Codable {
        var devices: [ServerDevice]
    }

    struct Failure: Codable {
        var error: String
        var message: String
    }
}
