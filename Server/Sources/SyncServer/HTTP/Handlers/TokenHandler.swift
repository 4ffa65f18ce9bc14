import Foundation
import Hummingbird

extension SyncAPI {
    /// `POST /v1/token`: a bearer token for a registered device that signed a
    /// fresh `issued_at`.
    func token(_ request: Request, context: some RequestContext) async throws -> Response {
        let body = try await JSONBody.decode(TokenRequest.self, from: request)
        guard let signature = Self.base64(body.signature) else { throw APIError.badRequest("signature must be base64") }
        let now = Date()
        guard abs(Self.seconds(now) - body.issuedAt) <= Limits.tokenClockSkewSeconds else {
            throw APIError.forbidden(
                "issued_at is more than \(Limits.tokenClockSkewSeconds) s from the server's clock (\(Self.seconds(now)); "
                    + "the Date header has it too)")
        }
        let message = AccountIdentity.tokenMessage(
            accountID: body.accountID, deviceID: body.deviceID, issuedAt: body.issuedAt)
        try await database.transaction("token") { tx in
            guard let device = try await tx.device(accountID: body.accountID, deviceID: body.deviceID),
                  device.revokedAt == nil
            else {
                guard try await tx.generation(accountID: body.accountID) != nil else { throw APIError.noAccount() }
                throw APIError.forbidden("unknown or revoked device")
            }
            guard AccountIdentity.verify(signature: Data(signature), of: message, publicKey: device.publicKey) else {
                throw APIError.forbidden("bad signature")
            }
            try await tx.touchDevice(accountID: body.accountID, deviceID: body.deviceID)
        }
        let issued = try await tokens.issue(accountID: body.accountID, deviceID: body.deviceID, now: now)
        return JSONResponse.make(body: TokenResponse(token: issued.token, expiresAt: issued.expiresAt))
    }
}
