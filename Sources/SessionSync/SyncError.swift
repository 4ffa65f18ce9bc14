import Foundation

/// Why sync failed, in words an app can show (`errorDescription`).
///
/// ## Topics
/// - ``notPaired(path:)``
/// - ``invalidSeed(_:)``
/// - ``invalidKeys(path:reason:)``
/// - ``server(status:code:message:)``
/// - ``rateLimited(retryAfter:)``
/// - ``tooLarge(_:)``
/// - ``quotaExceeded(_:message:retryAfter:)``
/// - ``cursorExpired``
/// - ``accountDeleted(serverURL:)``
/// - ``accountRestored(serverURL:serverCounter:cursor:)``
/// - ``unreachable(_:)``
/// - ``malformedResponse(_:)``
public enum SyncError: Error, LocalizedError, Sendable, Hashable {
    /// This store is not paired with an account: run pairing first.
    case notPaired(path: String)
    /// A seed given to pair a device is not one.
    case invalidSeed(String)
    /// The kept credentials cannot be used.
    case invalidKeys(path: String, reason: String)
    /// The server refused a request.
    case server(status: Int, code: String, message: String)
    /// The server asked to wait before the next request (`429`), in seconds.
    case rateLimited(retryAfter: Int?)
    /// The server refused a request as too large (`413`).
    case tooLarge(String)
    /// The account or the target device reached one of the server's quotas.
    /// Nothing was trimmed to fit: the store keeps every record, and the sync
    /// resumes once there is room (after `retryAfter` seconds, when given).
    case quotaExceeded(SyncQuota, message: String, retryAfter: Int?)
    /// The cursor is older than the deletions the server keeps (`410`): the
    /// client fetches everything again, by itself.
    case cursorExpired
    /// The account this device joined is gone from the server: deleted, or deleted and made
    /// again by another device (another generation). Nothing was uploaded; the device never
    /// makes the account again by itself. Pair again to make it anew, or restore the server.
    case accountDeleted(serverURL: String)
    /// The server holds less of the account than this device has seen (its counter is below
    /// the device's cursor): it was restored from an older backup, or lost commits. Nothing
    /// was uploaded or fetched; pair again to publish this device's tabs anew.
    case accountRestored(serverURL: String, serverCounter: Int64?, cursor: Int64)
    /// The server could not be reached.
    case unreachable(String)
    /// The server answered something that is not the protocol.
    case malformedResponse(String)

    public var errorDescription: String? {
        switch self {
        case .notPaired(let path):
            "The store \(path) is not set up for sync. Pair it first (sessionstore pair)."
        case .invalidSeed(let reason):
            "That is not an account seed: \(reason)."
        case .invalidKeys(let path, let reason):
            "The sync keys at \(path) cannot be used: \(reason)."
        case .server(let status, let code, let message):
            "The sync server refused the request (\(status) \(code)): \(message)"
        case .rateLimited(let retryAfter):
            "The sync server is busy" + (retryAfter.map { "; try again in \($0) s." } ?? "; try again later.")
        case .tooLarge(let message):
            "The sync server refused a request as too large: \(message)"
        case .quotaExceeded(let quota, let message, _):
            "\(quota.explanation) (\(message))"
        case .cursorExpired:
            "The sync server no longer holds what changed since the last sync; fetching everything again."
        case .accountDeleted(let url):
            "This account was deleted on the sync server (\(url)); pair again or restore. Nothing was uploaded."
        case .accountRestored(let url, let counter, let cursor):
            "The sync server (\(url)) holds an older state of this account than this device saw (its counter is "
                + (counter.map { "\($0)" } ?? "below that") + ", this device read up to \(cursor)): it was restored from "
                + "an older backup. Pair again or restore. Nothing was uploaded."
        case .unreachable(let reason):
            "The sync server cannot be reached: \(reason)"
        case .malformedResponse(let reason):
            "The sync server's answer is not understood: \(reason)"
        }
    }
}

/// A quota of the sync server (`GET /v1/info` publishes them).
public enum SyncQuota: String, Sendable, Hashable, CaseIterable {
    /// Devices per account.
    case devices = "quota_devices"
    /// Live records per account.
    case records = "quota_records"
    /// Bytes of records per account.
    case bytes = "quota_bytes"
    /// Commands waiting for one device.
    case pendingCommands = "commands_full"

    /// The quota an error code names, if it names one.
    init?(code: String) {
        self.init(rawValue: code)
    }

    /// What the quota means to a user.
    public var explanation: String {
        switch self {
        case .devices: "The sync account has as many devices as it may: remove one first."
        case .records: "The sync account holds as many tabs as it may: close some, or remove a device."
        case .bytes: "The sync account holds as much data as it may: close some tabs, or remove a device."
        case .pendingCommands: "That device has too many tabs waiting to be sent or closed: try again once it is online."
        }
    }
}
