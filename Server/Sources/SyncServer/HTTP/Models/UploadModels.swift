/// Body of `POST /v1/records`.
struct UploadRequest: Decodable {
    var records: [UploadRecord]
}

/// One record of an upload, as sent.
struct UploadRecord: Decodable {
    var id: String
    var version: Int64
    var tombstone: Bool?
    var expiresAt: Int64?
    var sealed: String?
    /// `"account"` for an account-wide record (protocol version 3); absent or `"device"` for the
    /// caller's own.
    var scope: String?

    enum CodingKeys: String, CodingKey {
        case id, version, tombstone, expiresAt = "expires_at", sealed, scope
    }
}

/// Answer of `POST /v1/records`.
struct UploadResponse: Codable {
    var cursor: Int64
}
