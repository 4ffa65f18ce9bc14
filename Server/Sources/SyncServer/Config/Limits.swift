/// The server's limits and quotas, as published by `GET /v1/info`.
///
/// The defaults hold two devices of 100,000 tabs each with realistic URLs (a
/// sealed tab record is 1 to 4 KB): 500,000 live records and 1 GB per account.
/// `serve` takes each as an option, for tests and small deployments.
public struct Limits: Sendable, Codable, Equatable {
    /// Protocol version: 3 adds account-wide saved-group records (docs/sync-protocol.md, "Saved groups").
    public var version: Int = 3
    /// Largest sealed record or command, in bytes (`413`).
    public var maxRecordBytes: Int = 16_384
    /// Most records or commands in one request (`413`).
    public var maxBatchRecords: Int = 1_000
    /// Most sealed bytes in one request (`413`).
    public var maxBatchBytes: Int = 4_194_304
    /// Longest long-poll wait on `/v1/changes`.
    public var maxWaitSeconds: Int = 30
    /// Longest wait of one `/v1/hints` poll.
    public var maxHintWaitSeconds: Int = 60
    /// Lifetime of a bearer token.
    public var tokenLifetimeSeconds: Int = 900
    /// Most devices an account registers, revoked ones excluded (`413`).
    public var maxDevices: Int = 50
    /// Most live (not tombstoned) records an account holds (`413`).
    public var maxAccountRecords: Int = 500_000
    /// Most sealed bytes of live records an account holds (`413`).
    public var maxAccountBytes: Int = 1_073_741_824
    /// Most account-wide saved-group records (groups and their tabs) an account holds (`413`).
    /// They are never deleted, only rewritten, so this bounds them for good.
    public var maxAccountSavedGroupRecords: Int = 50_000
    /// Most commands waiting for one target device (`429`: the target drains them).
    public var maxPendingCommands: Int = 1_000
    /// Longest lifetime of a command, in seconds (a later `expires_at` is cut to it).
    public var maxCommandLifetimeSeconds: Int = 30 * 24 * 3600
    /// Uploads (of records or commands) per second per device (`429` with `Retry-After`).
    public var uploadsPerSecond: Int = 10
    /// How long a tombstone is kept; a cursor from before the pruned ones gets `410`.
    public var tombstoneDays: Int = 30
    /// After how many silent days a device is shown as hidden by `GET /v1/devices`.
    public var hideDeviceDays: Int = 28
    /// After how many silent days the sweeper deletes a device's records.
    public var sweepDeviceDays: Int = 180

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

    /// The default limits of protocol version 3.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case version
        case maxRecordBytes = "max_record_bytes"
        case maxBatchRecords = "max_batch_records"
        case maxBatchBytes = "max_batch_bytes"
        case maxWaitSeconds = "max_wait_seconds"
        case maxHintWaitSeconds = "max_hint_wait_seconds"
        case tokenLifetimeSeconds = "token_lifetime_seconds"
        case maxDevices = "max_devices"
        case maxAccountRecords = "max_account_records"
        case maxAccountBytes = "max_account_bytes"
        case maxAccountSavedGroupRecords = "max_account_saved_group_records"
        case maxPendingCommands = "max_pending_commands"
        case maxCommandLifetimeSeconds = "max_command_lifetime_seconds"
        case uploadsPerSecond = "uploads_per_second"
        case tombstoneDays = "tombstone_days"
        case hideDeviceDays = "hide_device_days"
        case sweepDeviceDays = "sweep_device_days"
    }
}
