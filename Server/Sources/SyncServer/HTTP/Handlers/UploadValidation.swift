import Foundation

extension SyncAPI {
    /// Checks an upload's shape and sizes before any database work: `400` for
    /// malformed records, `413` for too many or too large ones.
    func validate(_ upload: UploadRequest) throws -> [RecordWrite] {
        guard upload.records.count <= limits.maxBatchRecords else {
            throw APIError.tooLarge("more than \(limits.maxBatchRecords) records")
        }
        var totalBytes = 0
        var writes: [RecordWrite] = []
        writes.reserveCapacity(upload.records.count)
        for record in upload.records {
            guard Hex.isID32(record.id) else { throw APIError.badRequest("record id must be 32 lowercase hex digits") }
            guard record.version >= 1 else { throw APIError.badRequest("version must be at least 1") }
            let tombstone = record.tombstone ?? false
            let accountWide: Bool
            switch record.scope {
            case nil, "device": accountWide = false
            case "account": accountWide = true
            default: throw APIError.badRequest("scope must be \"device\" or \"account\"")
            }
            // An account-wide record is never deleted: its delete is a write of its content.
            if accountWide, tombstone || record.sealed == nil || record.expiresAt != nil {
                throw APIError.badRequest("account-wide record \(record.id) must be sealed, with no tombstone or expires_at")
            }
            var sealed: [UInt8]?
            // A tombstone may be sealed (version 2: the deletion is authenticated) or not (version 1).
            if let text = record.sealed {
                guard let bytes = Self.base64(text), !bytes.isEmpty else {
                    throw APIError.badRequest("sealed must be non-empty base64")
                }
                guard bytes.count <= limits.maxRecordBytes else {
                    throw APIError.tooLarge("record \(record.id) is over \(limits.maxRecordBytes) bytes")
                }
                totalBytes += bytes.count
                sealed = bytes
            } else if !tombstone {
                throw APIError.badRequest("record \(record.id) has no sealed value")
            }
            var expiresAt: Date?
            if let seconds = record.expiresAt {
                guard (0...253_402_300_799).contains(seconds) else { throw APIError.badRequest("expires_at out of range") }
                expiresAt = Date(timeIntervalSince1970: TimeInterval(seconds))
            }
            writes.append(RecordWrite(
                recordID: record.id, version: record.version, tombstone: tombstone,
                expiresAt: expiresAt, sealed: sealed, accountWide: accountWide))
        }
        guard totalBytes <= limits.maxBatchBytes else {
            throw APIError.tooLarge("batch is over \(limits.maxBatchBytes) bytes")
        }
        return writes
    }
}
