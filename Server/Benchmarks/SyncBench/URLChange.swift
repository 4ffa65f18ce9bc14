import Foundation
import SessionStore
import SessionSync

/// The same server behind another URL (`localhost` for `127.0.0.1`): what the
/// device's next launch sends and receives before it is in sync again.
enum URLChange {
    /// The bytes (up and down) and requests of one sync of `device`'s next launch
    /// through `server` with its host swapped, and the records it uploaded.
    static func measure(device: BenchDevice, server: URL) async throws -> (bytes: Int, requests: Int, uploaded: Int) {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)!
        components.host = components.host == "localhost" ? "127.0.0.1" : "localhost"
        let transport = WireCountingTransport()
        let client = try SyncClient(
            storage: device.sync, keyStore: device.keys, serverURL: components.url!, transport: transport,
            applier: IncomingCommandApplier(
                sync: device.sync, browsers: device.browsers, tabs: device.tabs, histories: device.histories))
        let report = try await client.sync()
        return (transport.totals.bytes, transport.totals.requests, report.uploaded)
    }
}

/// The library's URLSession transport, counting every request and answer: the
/// request line, headers and body, and the answer's headers and body (HTTP/1.1
/// framing, as on the wire without TLS).
final class WireCountingTransport: SyncTransport, @unchecked Sendable {
    private let base = URLSessionSyncTransport()
    private let lock = NSLock()
    private var bytes = 0
    private var requests = 0

    func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPResponse {
        let response = try await base.send(request)
        let target = request.url.path + (request.url.query.map { "?" + $0 } ?? "")
        var count = "\(request.method) \(target) HTTP/1.1\r\nHost: \(request.url.host ?? "")\r\n".utf8.count
        count += request.headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 4 } + 2
        count += request.body?.count ?? 0
        count += "HTTP/1.1 \(response.status) OK\r\n".utf8.count
        count += response.headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 4 } + 2
        count += response.body.count
        lock.withLock {
            bytes += count
            requests += 1
        }
        return response
    }

    /// Bytes both ways so far, and how many requests.
    var totals: (bytes: Int, requests: Int) {
        lock.withLock { (bytes, requests) }
    }
}
