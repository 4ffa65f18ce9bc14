/// Answer of `GET /v1/devices`.
struct DevicesResponse: Encodable {
    var devices: [Device]

    /// One device (times in seconds since 1970).
    struct Device: Encodable {
        var deviceID: String
        var registeredAt: Int64
        var lastSeenAt: Int64
        /// Silent for longer than `hide_device_days`: a client lists it apart, or not at all.
        var hidden: Bool

        enum CodingKeys: String, CodingKey {
            case deviceID = "device_id", registeredAt = "registered_at", lastSeenAt = "last_seen_at", hidden
        }
    }
}

/// Body of `DELETE /v1/devices/{device_id}` (protocol version 2; a version 1
/// client sends none): the account key's signature of the revocation message.
struct RevokeRequest: Decodable {
    var revokedAt: Int64
    var signature: String

    enum CodingKeys: String, CodingKey {
        case revokedAt = "revoked_at", signature
    }
}

/// Answer of `DELETE /v1/devices/{device_id}`.
struct RevokeResponse: Codable {
    var deviceID: String
    /// Records tombstoned now.
    var tombstoned: Int64

    enum CodingKeys: String, CodingKey {
        case deviceID = "device_id", tombstoned
    }
}

/// Answer of `DELETE /v1/account`.
struct DeleteAccountResponse: Codable {
    var accountID: String
    var deleted: Bool

    enum CodingKeys: String, CodingKey {
        case accountID = "account_id", deleted
    }
}
