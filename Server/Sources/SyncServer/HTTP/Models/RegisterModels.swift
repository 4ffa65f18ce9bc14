/// Body of `POST /v1/devices`.
struct RegisterRequest: Decodable {
    var accountID: String
    var accountKey: String
    var deviceID: String
    var deviceKey: String
    var signature: String
    /// Whether an account that does not exist may be made (absent: yes, as version 1 did). A device
    /// that joined the account before sends `false`, so a deleted account is never made again behind
    /// its back.
    var create: Bool?
    /// The generation of the account the device joined (version 2): another one is
    /// `404 no_account`, and the device is not added to the account made since.
    var generation: String?

    enum CodingKeys: String, CodingKey {
        case accountID = "account_id", accountKey = "account_key"
        case deviceID = "device_id", deviceKey = "device_key", signature, create, generation
    }
}

/// Answer of `POST /v1/devices`.
struct RegisterResponse: Encodable {
    var accountID: String
    var deviceID: String
    /// The account's generation: another one means the account was deleted and made again.
    var generation: String
    /// The account's counter: below a device's cursor, the server lost commits the device saw.
    var counter: Int64
    /// The server's id.
    var serverID: String

    enum CodingKeys: String, CodingKey {
        case accountID = "account_id", deviceID = "device_id", generation, counter, serverID = "server_id"
    }
}
