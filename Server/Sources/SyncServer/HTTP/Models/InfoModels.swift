/// Answer of `GET /v1/info`: the limits, and the server's id beside them.
struct ServerInfo: Encodable {
    var limits: Limits
    var serverID: String

    enum CodingKeys: String, CodingKey {
        case serverID = "server_id"
    }

    func encode(to encoder: any Encoder) throws {
        try limits.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(serverID, forKey: .serverID)
    }
}
