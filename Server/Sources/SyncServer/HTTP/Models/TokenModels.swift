/// Body of `POST /v1/token`.
struct TokenRequest: Decodable {
    var accountID: String
    var deviceID: String
    var issuedAt: Int64
    var signature: String

    enum CodingKeys: String, CodingKey {
        case accountID = "account_id", deviceID = "device_id", issuedAt = "issued_at", signature
    }
}

/// Answer of `POST /v1/token`.
struct TokenResponse: Encodable {
    var token: String
    var expiresAt: Int64

    enum CodingKeys: String, CodingKey {
        case token, expiresAt = "expires_at"
    }
}
