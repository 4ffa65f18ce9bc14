import Foundation
import SessionStorage

/// Saved groups: account-wide records that any device writes (docs/sync-protocol.md, "Saved
/// groups"), against a protocol version 3 server only.
extension SyncClient {
    /// How many times an upload of saved-group records is tried again after another device's
    /// newer version got there first (`409`): each time, the newer one is fetched and merged in.
    static let savedGroupConflictRetries = 5

    /// Merges this device's edits into its saved-group records, then uploads the records that hold
    /// writes the server has not acknowledged, each as the next version of what the server holds.
    func uploadSavedGroups(into report: inout SyncReport) async throws {
        // Nothing marked and nothing unsent: no write transaction (the common case of an upload).
        guard savedGroupsSupported, try storage.pendingSavedGroupCount() > 0 else { return }
        let sealer = SavedGroupSealer(account: credentials.account)
        for _ in 0...Self.savedGroupConflictRetries {
            try await mergeSavedGroups([])
            var conflict = false
            for _ in 0..<1_000 {
                let dirty = try storage.dirtySavedGroupRecords(limit: configuration.batchRecords)
                guard !dirty.isEmpty else { return }
                // As many as fit one request's bytes (a tab record may hold a long URL).
                var uploads: [SyncAPI.UploadRecord] = []
                var sealedBytes = 0
                var batchBytes = 0
                for record in dirty {
                    let version = record.version + 1
                    let sealed = try sealer.seal(
                        Data(record.payload.utf8), recordID: record.recordID, kind: record.kind, version: version)
                    let text = sealed.base64EncodedString()
                    if !uploads.isEmpty, batchBytes + text.utf8.count + 128 > configuration.batchBytes { break }
                    uploads.append(SyncAPI.UploadRecord(
                        id: record.recordID, version: version, tombstone: false, expiresAt: nil, sealed: text,
                        scope: SavedGroupSealer.accountDevice))
                    sealedBytes += sealed.count
                    batchBytes += text.utf8.count + 128
                }
                do {
                    _ = try await server.upload(uploads, idempotencyKey: UUID().uuidString.lowercased())
                } catch SyncError.server(let status, _, _) where status == 409 {
                    conflict = true
                    break
                }
                try storage.acknowledgeSavedGroupRecords(
                    zip(dirty, uploads).map { (recordID: $0.recordID, version: $1.version, payload: $0.payload) })
                report.uploaded += uploads.count
                report.uploadedBytes += sealedBytes
            }
            guard conflict else { return }
            // Another device wrote a newer version: fetch it, merge, and upload the merge.
            try await fetchFromCursor(into: &report)
        }
        throw SyncError.server(
            status: 409, code: "conflict",
            message: "saved groups: other devices kept writing newer versions; the next sync tries again")
    }

    /// Opens the account-wide records among `changes` and merges them into the records the store
    /// keeps, marking the groups they touch; the rows follow at the fetch's end
    /// (``mergeSavedGroups(_:writingRows:)`` with no records). One that opens under neither kind is
    /// reported as rejected. Returns whether any was merged.
    @discardableResult
    func mergeSavedGroups(from changes: [SyncAPI.ChangedRecord], into report: inout SyncReport) async throws -> Bool {
        let sealer = SavedGroupSealer(account: credentials.account)
        var incoming: [SavedGroupMerger.Incoming] = []
        for change in changes where change.deviceID == SavedGroupSealer.accountDevice {
            guard let text = change.sealed, let sealed = Data(base64Encoded: text),
                  let record = sealer.open(sealed, recordID: change.id, version: change.version)
            else {
                report.rejected.append(change.id)
                continue
            }
            incoming.append(.init(recordID: change.id, version: change.version, record: record))
        }
        guard !incoming.isEmpty else { return false }
        try await mergeSavedGroups(incoming, writingRows: false)
        report.applied += incoming.count
        return true
    }

    /// One run of ``SavedGroupMerger`` over the store, at the server's time.
    ///
    /// The store's marks hold the system clock's time of each edit (SQLite's `now`), so their
    /// offset is the server's clock minus the system clock: the client's measured offset, plus
    /// how far this client's clock is from the system's (nothing, unless a test skews it).
    func mergeSavedGroups(_ incoming: [SavedGroupMerger.Incoming], writingRows: Bool = true) async throws {
        let offset = await server.clockOffset
        let now = clock()
        let wall = Int64(((now.timeIntervalSince1970 + offset) * 1000).rounded())
        let marksOffset = Int64(((offset + now.timeIntervalSince(Date())) * 1000).rounded())
        let merger = SavedGroupMerger(
            sealer: SavedGroupSealer(account: credentials.account), device: credentials.device.deviceID)
        _ = try storage.withSavedGroups { rows in
            try merger.run(rows, incoming: incoming, wall: wall, offset: marksOffset, writingRows: writingRows)
        }
    }
}
