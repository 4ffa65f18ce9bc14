import Foundation
import Hummingbird
import Logging
import Prometheus

/// The handlers of the HTTP API and what they share.
struct SyncAPI: Sendable {
    let database: Database
    let tokens: TokenIssuer
    let notifier: ChangeNotifier
    let bus: any HintBus
    let rateLimiter: UploadRateLimiter
    let limits: Limits
    /// The server's id, read once from the database.
    let serverIdentity = ServerIdentity()
    let logger: Logger
    /// Where `/metrics` reads from (`nil`: metrics are off).
    let metricsRegistry: PrometheusCollectorRegistry?

    /// Announces a commit to the account: to other processes through the bus
    /// (call inside the transaction), and to this process's waiters (after it).
    func announce(accountID: String, in tx: Transaction) async throws {
        try await bus.announce(accountID: accountID, in: tx)
    }

    /// Takes one upload from the device's allowance, or throws `429`.
    func takeUploadAllowance(_ caller: AuthenticatedDevice) async throws {
        if let wait = await rateLimiter.take(device: caller.accountID + "/" + caller.deviceID) {
            throw APIError.tooManyRequests(
                "rate_limited", retryAfter: wait, "more than \(limits.uploadsPerSecond) uploads a second")
        }
    }
}

/// Small helpers the handlers share.
extension SyncAPI {
    /// Seconds since 1970, rounded down.
    static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// Standard base64 with padding, or `nil`.
    static func base64(_ string: String) -> [UInt8]? {
        Data(base64Encoded: string).map(Array.init)
    }
}
