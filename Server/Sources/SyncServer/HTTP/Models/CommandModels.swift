/// Body of `POST /v1/commands`.
struct CommandsUploadRequest: Decodable {
    var commands: [Command]

    /// One command, as sent.
    struct Command: Decodable {
        var id: String
        var target: String
        var expiresAt: Int64
        var sealed: String

        enum CodingKeys: String, CodingKey {
            case id, target, sealed, expiresAt = "expires_at"
        }
    }
}

/// Answer of `POST /v1/commands`.
struct CommandsUploadResponse: Codable {
    /// Commands stored now.
    var stored: Int
    /// Commands already known by id (a retry, or a replay): not stored again.
    var duplicates: Int
}

/// Answer of `GET /v1/commands`.
struct PendingCommandsResponse: Codable {
    var commands: [Command]

    /// One pending command (times in seconds since 1970).
    struct Command: Codable {
        var id: String
        var sender: String
        var seq: Int64
        var createdAt: Int64
        var expiresAt: Int64
        var sealed: String

        enum CodingKeys: String, CodingKey {
            case id, sender, seq, sealed, createdAt = "created_at", expiresAt = "expires_at"
        }
    }
}

/// Body of `POST /v1/commands/ack`.
struct CommandsAckRequest: Decodable {
    var ids: [String]
}

/// Answer of `POST /v1/commands/ack`.
struct CommandsAckResponse: Codable {
    /// Commands acknowledged now (a repeat acknowledges none).
    var acknowledged: Int
}
