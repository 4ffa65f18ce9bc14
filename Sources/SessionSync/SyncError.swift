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
        case .unreachable(let reason):
            "The sync server cannot be reached: \(reason)"
        case .malformedResponse(let reason):
            "The sync server's answer is not understood: \(reason)"
        }
    }
}
