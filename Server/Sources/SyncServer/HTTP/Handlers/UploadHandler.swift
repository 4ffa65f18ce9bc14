import Foundation
import Hummingbird

extension SyncAPI {
    /// The header telling how many attempts of an upload's transaction were retried.
    static let retriesHeader = HTTPFields.Element.Name("Sessionstore-Retries")!
    /// The header naming an upload for idempotent repeats.
    static let idempotencyKeyHeader = HTTPFields.Element.Name("Idempotency-Key")!

    /// `POST /v1/records`: stores a batch under the account's row lock, each
    /// record with the next sequence number; a repeated `Idempotency-Key`
    /// returns the first response.
    func upload(_ request: Request, context: some RequestContext) async throws -> Response {
        let caller = try await authenticate(request)
        guard let key = request.headers[Self.idempotencyKeyHeader], (1...64).contains(key.count) else {
            throw APIError.badRequest("Idempotency-Key header (1-64 characters) is required")
        }
        let upload = try await JSONBody.decode(UploadRequest.self, from: request)
        let writes = try validate(upload)
        try await takeUploadAllowance(caller)

        let outcome = try await database.transaction("upload", injectFaults: true) { tx in
            try await store(writes, for: caller, idempotencyKey: key, in: tx)
        }
        if outcome.value.stored {
            await notifier.notify(accountID: caller.accountID)
            ServerMetrics.recordsStored.increment(by: writes.count)
        }
        var headers = HTTPFields()
        headers[Self.retriesHeader] = String(outcome.retries)
        return JSONResponse.make(json: outcome.value.response, headers: headers)
    }

    /// The body of the transaction: returns the response JSON and whether
    /// anything was stored (not for an idempotent repeat).
    private func store(
        _ writes: [RecordWrite], for caller: AuthenticatedDevice, idempotencyKey key: String, in tx: Transaction
    ) async throws -> (response: String, stored: Bool) {
        let account = caller.accountID
        guard let usage = try await tx.lockUsage(accountID: account) else {
            throw APIError.unauthorized("unknown account")
        }
        let counter = usage.counter
        if let stored = try await tx.storedResponse(accountID: account, deviceID: caller.deviceID, key: key) {
            return (stored, false)
        }
        // Checked in batch order, so a record id sent twice must grow within the batch too.
        let ids = writes.map(\.recordID)
        var heads = try await tx.recordHeads(accountID: account, recordIDs: ids)
        var shared = try await tx.accountRecordVersions(accountID: account, recordIDs: ids)
        var addedRecords: Int64 = 0
        var addedBytes: Int64 = 0
        var addedShared: Int64 = 0
        for write in writes {
            if write.accountWide {
                // Any device of the account may write it; none may take its id for a record of its own.
                guard heads[write.recordID] == nil else {
                    throw APIError.forbidden("record \(write.recordID) belongs to a device")
                }
                if let version = shared[write.recordID], write.version <= version {
                    throw APIError.conflict("record \(write.recordID) version \(write.version) is not newer than \(version)")
                }
                if shared[write.recordID] == nil { addedShared += 1 }
                shared[write.recordID] = write.version
                continue
            }
            guard shared[write.recordID] == nil else {
                throw APIError.forbidden("record \(write.recordID) is account-wide")
            }
            let size = Int64(write.countedSize)
            if let head = heads[write.recordID] {
                guard head.deviceID == caller.deviceID else {
                    throw APIError.forbidden("record \(write.recordID) belongs to another device")
                }
                guard write.version > head.version else {
                    throw APIError.conflict("record \(write.recordID) version \(write.version) is not newer than \(head.version)")
                }
            }
            let before = heads[write.recordID]
            addedRecords += (write.tombstone ? 0 : 1) - (before.map { $0.tombstone ? 0 : 1 } ?? 0)
            addedBytes += size - (before?.size ?? 0)
            heads[write.recordID] = StoredRecordHead(
                deviceID: caller.deviceID, version: write.version, tombstone: write.tombstone, size: size)
        }
        // Only growth is refused: an account over its quota can always shrink.
        if addedRecords > 0, usage.liveRecords + addedRecords > Int64(limits.maxAccountRecords) {
            throw APIError.quota(
                "quota_records", "the account would hold more than \(limits.maxAccountRecords) records")
        }
        if addedBytes > 0, usage.liveBytes + addedBytes > Int64(limits.maxAccountBytes) {
            throw APIError.quota(
                "quota_bytes", "the account would hold more than \(limits.maxAccountBytes) bytes")
        }
        if addedShared > 0,
           try await tx.accountRecordCount(accountID: account) + addedShared > Int64(limits.maxAccountSavedGroupRecords)
        {
            throw APIError.quota(
                "quota_saved_group_records",
                "the account would hold more than \(limits.maxAccountSavedGroupRecords) saved-group records")
        }
        var seq = counter
        for write in writes {
            seq += 1
            if write.accountWide {
                try await tx.upsertAccountRecord(accountID: account, writer: caller.deviceID, seq: seq, record: write)
            } else {
                try await tx.upsertRecord(accountID: account, deviceID: caller.deviceID, seq: seq, record: write)
            }
        }
        if seq != counter {
            try await tx.setCounter(accountID: account, to: seq)
            try await announce(accountID: account, in: tx)
        }
        try await tx.addUsage(accountID: account, records: addedRecords, bytes: addedBytes)
        try await tx.touchDevice(accountID: account, deviceID: caller.deviceID)
        let response = JSONResponse.encode(UploadResponse(cursor: seq))
        try await tx.storeResponse(accountID: account, deviceID: caller.deviceID, key: key, response: response)
        return (response, !writes.isEmpty)
    }
}
