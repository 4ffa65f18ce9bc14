import Foundation
import SessionStore
import SessionSync
import Testing

/// `SyncClient.run()` with its default configuration: a burst of changes is
/// coalesced into a few uploads, within the server's allowance, and its last
/// state reaches the other device.
@Suite("end to end: upload pacing")
struct UploadPacingEndToEndTests {
    /// The library's transport, noting each upload's answer.
    final class UploadLog: SyncTransport, @unchecked Sendable {
        private let base = URLSessionSyncTransport()
        private let lock = NSLock()
        private var statuses: [Int] = []

        func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPResponse {
            let response = try await base.send(request)
            if request.method == "POST", request.url.path.hasSuffix("/v1/records") {
                lock.withLock { statuses.append(response.status) }
            }
            return response
        }

        /// The status of every upload so far.
        var uploads: [Int] { lock.withLock { statuses } }
    }

    @Test func aBurstOfAHundredChangesASecond_takesAFewUploads_noneRefused() async throws {
        try await TestServer.with { server in
            let log = UploadLog()
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL, transport: log)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let (_, tabs) = try laptop.window((0..<20).map { ("Tab \($0)", "https://start.example/\($0)") })
            try await laptop.client.sync()
            let running = [Task { await laptop.client.run() }, Task { await phone.client.run() }]
            defer { running.forEach { $0.cancel() } }
            #expect(try await eventually { try phone.remoteURLs()["Laptop"]?.count == 20 })
            let before = log.uploads.count

            // 200 commits, 100 a second, on 20 tabs.
            let start = ContinuousClock.now
            for change in 0..<200 {
                try await Task.sleep(until: start + .milliseconds(10 * change), clock: .continuous)
                try await laptop.histories.commit(
                    NavigationItem(url: "https://burst.example/\(change)", title: "\(change)"), in: tabs[change % 20])
            }
            let last = (180..<200).map { "https://burst.example/\($0)" }
            #expect(try await eventually { try phone.remoteURLs()["Laptop"].map(Set.init) == Set(last) })
            let burst = log.uploads.dropFirst(before)
            #expect(burst.allSatisfy { $0 == 200 }, "\(burst)")
            // About 4 a second while it lasts (200 commits take 2 s, more on a loaded machine), not 200.
            #expect(burst.count <= 50, "\(burst.count) uploads")
            #expect(await laptop.client.status.lastError == nil)
        }
    }
}
