/// The server's limits, as published by `GET /v1/info`.
public struct Limits: Sendable, Codable, Equatable {
    /// Protocol version.
    public var version: Int = 1
    /// Largest sealed record, in bytes.
    public var maxRecordBytes: Int = 16_384
    /// Most records in one upload.
    public var maxBatchRecords: Int = 1_000
    /// Most sealed bytes in one upload.
    public var maxBatchBytes: Int = 4_194_304
    /// Longest long-poll wait on `/v1/changes`.
    public var maxWaitSeconds: Int = 30
    /// Lifetime of a bearer token.
    public var tokenLifetimeSeconds: Int = 900

    /// Largest request body accepted (anything longer is `413`): room for a
    /// full batch (`max_batch_bytes` of sealed bytes grow by 4/3 in base64,
    /// about 5.3 MiB) plus the JSON around it.
    public static let maxRequestBodyBytes = 6 * 1024 * 1024
    /// Most records returned by one `/v1/changes`.
    public static let maxChangesLimit = 1_000
    /// How far `issued_at` of a token request may be from the server's clock.
    public static let tokenClockSkewSeconds: Int64 = 300
    /// How long an idempotency key is remembered.
    public static let idempotencyWindowSeconds = 24 * 60 * 60

    /// The limits of protocol version 1.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case version
        case maxRecordBytes = "max_record_bytes"
        case maxBatchRecords = "max_batch_records"
        case maxBatchBytes = "max_batch_bytes"
        case maxWaitSeconds = "max_wait_seconds"
        case tokenLifetimeSeconds = "token_lifetime_seconds"
    }
}
