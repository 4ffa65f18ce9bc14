import Foundation
import Hummingbird

/// The device a request's bearer token names, checked against its row.
struct AuthenticatedDevice: Sendable {
    var accountID: String
    var deviceID: String
}

extension SyncAPI {
    /// Checks `Authorization: Bearer <token>`: a valid, unexpired token of ours
    /// naming a device that exists and is not revoked; `401` otherwise.
    func authenticate(_ request: Request) async throws -> AuthenticatedDevice {
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthorized("missing bearer token")
        }
        let prefix = "Bearer "
        guard header.hasPrefix(prefix) else { throw APIError.unauthorized("malformed authorization header") }
        let token = String(header.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
        guard let claims = await tokens.verify(token) else {
            throw APIError.unauthorized("invalid or expired token")
        }
        let device = try await database.transaction("authenticate") { tx in
            try await tx.device(accountID: claims.accountID, deviceID: claims.deviceID)
        }.value
        guard let device, device.revokedAt == nil else {
            throw APIError.unauthorized("unknown or revoked device")
        }
        return AuthenticatedDevice(accountID: claims.accountID, deviceID: claims.deviceID)
    }
}
