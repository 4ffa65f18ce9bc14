import Foundation
import SessionModel
import SessionSync

/// The library's URLSession transport, counting the bytes of every upload's body.
final class CountingTransport: SyncTransport, @unchecked Sendable {
    private let base = URLSessionSyncTransport()
    private let lock = NSLock()
    private var uploaded = 0
    private var uploads = 0

    func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPResponse {
        if request.method == "POST", request.url.path.hasSuffix("/v1/records") {
            lock.withLock {
                uploaded += request.body?.count ?? 0
                uploads += 1
            }
        }
        return try await base.send(request)
    }

    /// Bytes of upload bodies so far, and how many uploads.
    var totals: (bytes: Int, requests: Int) {
        lock.withLock { (uploaded, uploads) }
    }
}
