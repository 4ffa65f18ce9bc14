import Foundation
import Hummingbird

extension SyncAPI {
    /// `POST /v1/devices`: registers a device under an account signed for by
    /// the account key; creates the account on first use, unless the device
    /// says it joined it before (`create: false`: then `404 no_account`, as for
    /// an account of another generation than the one the device names).
    func register(_ request: Request, context: some RequestContext) async throws -> Response {
        let body = try await JSONBody.decode(RegisterRequest.self, from: request)
        guard Hex.isID32(body.accountID) else { throw APIError.badRequest("account_id must be 32 lowercase hex digits") }
        guard AccountIdentity.isLowercaseUUID(body.deviceID) else {
            throw APIError.badRequest("device_id must be a lowercase UUID")
        }
        guard let accountKey = Self.base64(body.accountKey), accountKey.count == 32 else {
            throw APIError.badRequest("account_key must be a base64 Ed25519 public key")
        }
        guard let deviceKey = Self.base64(body.deviceKey), deviceKey.count == 32 else {
            throw APIError.badRequest("device_key must be a base64 Ed25519 public key")
        }
        guard let signature = Self.base64(body.signature) else {
            throw APIError.badRequest("signature must be base64")
        }
        guard AccountIdentity.accountID(publicKey: accountKey) == body.accountID else {
            throw APIError.forbidden("account_id is not derived from account_key")
        }
        let message = AccountIdentity.registrationMessage(
            accountID: body.accountID, deviceID: body.deviceID, deviceKeyBase64: body.deviceKey)
        guard AccountIdentity.verify(signature: Data(signature), of: message, publicKey: accountKey) else {
            throw APIError.forbidden("bad signature")
        }
        let (created, account, serverID) = try await database.transaction("register") { tx in
            if body.create ?? true {
                try await tx.insertAccountIfAbsent(accountID: body.accountID, publicKey: accountKey)
            }
            guard let heldKey = try await tx.lockAccountKey(accountID: body.accountID) else { throw APIError.noAccount() }
            guard heldKey == accountKey else {
                throw APIError.forbidden("account_key is not the account's key")
            }
            guard let account = try await tx.generation(accountID: body.accountID),
                  body.generation == nil || body.generation == account.generation,
                  let serverID = try await tx.serverID()
            else { throw APIError.noAccount() }
            return (try await Self.registerDevice(body, deviceKey: deviceKey, limits: limits, in: tx), account, serverID)
        }.value
        return JSONResponse.make(
            status: created ? .created : .ok,
            body: RegisterResponse(
                accountID: body.accountID, deviceID: body.deviceID, generation: account.generation,
                counter: account.counter, serverID: serverID))
    }

    /// Adds the device to the locked account; `false` when it was there already with the same key.
    private static func registerDevice(
        _ body: RegisterRequest, deviceKey: [UInt8], limits: Limits, in tx: Transaction
    ) async throws -> Bool {
        if let existing = try await tx.device(accountID: body.accountID, deviceID: body.deviceID) {
            guard existing.publicKey == deviceKey else {
                throw APIError.conflict("device already registered with another key")
            }
            guard existing.revokedAt == nil else { throw APIError.forbidden("device revoked") }
            return false
        }
        guard try await tx.activeDeviceCount(accountID: body.accountID) < limits.maxDevices else {
            throw APIError.quota("quota_devices", "the account has \(limits.maxDevices) devices; revoke one first")
        }
        try await tx.insertDevice(accountID: body.accountID, deviceID: body.deviceID, publicKey: deviceKey)
        return true
    }
}
