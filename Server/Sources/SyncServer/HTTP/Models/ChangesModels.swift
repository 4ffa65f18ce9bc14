/// Answer of `GET /v1/changes`.
struct ChangesResponse: Encodable {
    var records: [Record]
    var cursor: Int64
    var more: Bool

    /// One record as returned to a reader (`sealed` is left out for an unsealed tombstone;
    /// `revocation` is there only for an unsealed tombstone of a device revoked with a statement).
    struct Record: Encodable {
        var id: String
        var deviceID: String
        var seq: Int64
        var version: Int64
        var tombstone: Bool
        var modifiedAt: Int64
        var sealed: String?
        var revocation: Revocation?

        enum CodingKeys: String, CodingKey {
            case id, deviceID = "device_id", seq, version, tombstone, modifiedAt = "modified_at", sealed, revocation
        }
    }

    /// The account's signed statement that revoked the record's device.
    struct Revocation: Encodable {
        var revokedAt: Int64
        var signature: String

        enum CodingKeys: String, CodingKey {
            case revokedAt = "revoked_at", signature
        }
    }
}
