import Foundation
import Hummingbird

extension SyncAPI {
    /// Records tombstoned per transaction when a device goes (revoked, or swept).
    static let tombstoneBatch = 500

    /// `DELETE /v1/devices/{device_id}`: revokes a device of the caller's
    /// account (the caller itself included). Its tokens stop working at once,
    /// the commands waiting for it are dropped, and its records are tombstoned
    /// in small batches so the other devices remove them. Revoking again is
    /// harmless.
    ///
    /// The body, when there is one, is the account key's signed statement
    /// (`403` when it does not verify); it is kept with the device and goes with
    /// each tombstone the server makes of its records, so that readers can tell
    /// them from forged ones. A version 1 client sends none: the device is revoked
    /// all the same, and version 2 readers keep its tabs.
    func revoke(_ request: Request, context: some RequestContext) async throws -> Response {
        let caller = try await authenticate(request)
        let target = try context.parameters.require("device")
        guard AccountIdentity.isLowercaseUUID(target) else { throw APIError.badRequest("device id must be a lowercase UUID") }
        let statement = try await revocationStatement(request)
        try await database.transaction("revoke") { tx in
            guard let accountKey = try await tx.lockAccountKey(accountID: caller.accountID) else {
                throw APIError.unauthorized("unknown account")
            }
            guard try await tx.device(accountID: caller.accountID, deviceID: target) != nil else {
                throw APIError.notFound("no device \(target) in this account")
            }
            if let statement {
                let message = AccountIdentity.revocationMessage(
                    accountID: caller.accountID, deviceID: target, revokedAt: statement.revokedAt)
                guard AccountIdentity.verify(signature: Data(statement.signature), of: message, publicKey: accountKey)
                else { throw APIError.forbidden("bad revocation signature") }
            }
            _ = try await tx.revokeDevice(accountID: caller.accountID, deviceID: target, statement: statement)
        }
        let tombstoned = try await tombstoneAll(accountID: caller.accountID, deviceID: target)
        return JSONResponse.make(body: RevokeResponse(deviceID: target, tombstoned: tombstoned))
    }

    /// The signed statement of a revocation's body; `nil` for an empty body (a version 1 client).
    private func revocationStatement(_ request: Request) async throws -> RevocationStatement? {
        let buffer = try await JSONBody.collect(request)
        guard buffer.readableBytes > 0 else { return nil }
        let body: RevokeRequest
        do {
            body = try JSONDecoder().decode(RevokeRequest.self, from: Data(buffer: buffer))
        } catch {
            throw APIError(.badRequest, "malformed_json", "the body is not a revocation statement")
        }
        guard let signature = Self.base64(body.signature), signature.count == 64 else {
            throw APIError.badRequest("signature must be a base64 Ed25519 signature")
        }
        return RevocationStatement(revokedAt: body.revokedAt, signature: signature)
    }

    /// Tombstones every live record of the device, a batch per transaction.
    func tombstoneAll(accountID: String, deviceID: String) async throws -> Int64 {
        var total: Int64 = 0
        while true {
            let count = try await database.transaction("tombstone device") { tx -> Int64 in
                guard let usage = try await tx.lockUsage(accountID: accountID) else { return 0 }
                let (count, bytes) = try await tx.tombstoneRecords(
                    accountID: accountID, deviceID: deviceID, above: usage.counter, limit: Self.tombstoneBatch)
                guard count > 0 else { return 0 }
                try await tx.setCounter(accountID: accountID, to: usage.counter + count)
                try await tx.addUsage(accountID: accountID, records: -count, bytes: -bytes)
                try await announce(accountID: accountID, in: tx)
                return count
            }.value
            guard count > 0 else { return total }
            total += count
            await notifier.notify(accountID: accountID)
        }
    }

    /// `DELETE /v1/account`: deletes every row the server holds of the
    /// caller's account: devices, records, commands, idempotency keys.
    func deleteAccount(_ request: Request, context: some RequestContext) async throws -> Response {
        let caller = try await authenticate(request)
        // Records first, in batches (an account may hold half a million); the
        // rest, and the account's row, in one last transaction.
        var deleted = 0
        repeat {
            deleted = try await database.transaction("delete account records") { tx in
                try await tx.deleteRecordsBatch(accountID: caller.accountID, limit: 10_000)
            }.value
        } while deleted > 0
        try await database.transaction("delete account") { tx in
            guard try await tx.lockCounter(accountID: caller.accountID) != nil else {
                throw APIError.unauthorized("unknown account")
            }
            _ = try await tx.deleteAccount(accountID: caller.accountID)
            try await announce(accountID: caller.accountID, in: tx)
        }
        await notifier.notify(accountID: caller.accountID)
        return JSONResponse.make(body: DeleteAccountResponse(accountID: caller.accountID, deleted: true))
    }
}
