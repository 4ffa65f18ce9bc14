import Foundation
import Hummingbird
import Logging

/// The handlers of the HTTP API and what they share.
struct SyncAPI: Sendable {
    let database: Database
    let tokens: TokenIssuer
    let notifier: ChangeNotifier
    let limits: Limits
    let logger: Logger
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
