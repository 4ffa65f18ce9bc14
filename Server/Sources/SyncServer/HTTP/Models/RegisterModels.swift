/// Body of `POST /v1/devices`.
struct RegisterRequest: Decodable {
    var accountID: String
    var accountKey: String
    var deviceID: String
    var deviceKey: String
    var signature: String

    enum CodingKeys: String, CodingKey {
        case accountID = "account_id", accountKey = "account_key"
        case deviceID = "device_id", deviceKey = "device_key", signature
    }
}

/// Answer of `POST /v1/devices`.
struct RegisterResponse: Encodable {
    var accountID: String
    var deviceID: String

    enum CodingKeys: String, CodingKey {
        case accountID = "account_id", deviceID = "device_id"
    }
}
