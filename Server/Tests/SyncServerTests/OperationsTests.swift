import Foundation
import SyncServerHarness
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("operations")
struct OperationsTests {
    @Test func healthIsOK() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let answer = try await server.client.send("GET", "/health")
            #expect(answer.status == 200)
            #expect(answer.json["status"] as? String == "ok")
        }
    }

    @Test func metricsCountStoredRecordsAndCommandsAndRequests() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let device = TestDevice(account: account), target = TestDevice(account: account)
            let token = try await server.client.token(for: device)
            _ = try await server.client.register(target)
            _ = try await server.client.upload([try device.tabRecord(version: 1), try device.tabRecord(version: 2)],
                                               token: token)
            _ = try await server.client.postCommands([testCommand(to: target.id)], token: token)
            // Ids in paths must not become labels: any client could grow the metrics without bound.
            _ = try await server.client.revoke(target.id, token: token)
            let stray = UUID().uuidString.lowercased()
            #expect(try await server.client.send("GET", "/v1/\(stray)").status == 404)
            let answer = try await server.client.send("GET", "/metrics")
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type")?.hasPrefix("text/plain") == true)
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(APIClient.sample("sessionstore_records_stored_total", in: text) == 2)
            #expect(APIClient.sample("sessionstore_commands_stored_total", in: text) == 1)
            #expect(APIClient.sample("sessionstore_waiting_requests", in: text) == 0)
            // Hummingbird's request metrics, by route pattern (not by id).
            #expect(text.contains("hb_requests"), "\(text)")
            #expect(text.contains("/v1/records"))
            #expect(text.contains("/v1/devices/{device}"))
            #expect(!text.contains(target.id))
            #expect(!text.contains(stray))
        }
    }

    @Test func metricsShowTheRequestsWaiting() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let reader = TestDevice(account: account), writer = TestDevice(account: account)
            let readerToken = try await server.client.token(for: reader)
            let writerToken = try await server.client.token(for: writer)
            let client = server.client
            let hint = Task { try await client.hints(token: readerToken, after: 0, wait: 55) }
            let poll = Task { try await client.changes(token: readerToken, after: 0, wait: 30) }
            try await client.waitUntilWaiting(2)
            _ = try await client.upload([try writer.tabRecord(version: 1)], token: writerToken)
            #expect(try await hint.value.json["counter"] as? Int == 1)
            #expect(try await poll.value.records.count == 1)
            try await client.waitUntilWaiting(0)
        }
    }

    @Test func sigtermAnswersTheWaitingPollsAndTheProcessExits() async throws {
        try await SignalableServer.with { server in
            let client = APIClient(baseURL: server.baseURL)
            let device = TestDevice(account: TestAccount())
            let token = try await client.token(for: device)
            _ = try await client.upload([try device.tabRecord(version: 1)], token: token)
            let (hint, changes) = try await withTimeout("the waiting polls to be answered at shutdown", .seconds(45)) {
                let hint = Task { try await client.hints(token: token, after: 1, wait: 55) }
                let changes = Task { try await client.changes(token: token, after: 1, wait: 30) }
                try await client.waitUntilWaiting(2)
                server.signal(SIGTERM)
                return (try await hint.valueCancellingWithCaller, try await changes.valueCancellingWithCaller)
            }
            #expect(hint.status == 200)
            #expect(hint.json["counter"] as? Int == 1)
            #expect(changes.status == 200)
            #expect(changes.records.isEmpty)
            #expect(changes.json["cursor"] as? Int == 1)
            #expect(try await server.exitStatus() == 0)
        }
    }

    @Test func sigtermEndsTheProcessEvenWhileAClientHoldsARequestBodyBack() async throws {
        try await SignalableServer.with(arguments: ["--shutdown-grace", "2"]) { server in
            let client = APIClient(baseURL: server.baseURL)
            #expect(try await client.send("GET", "/health").status == 200)
            let held = try RawConnection(to: server.baseURL)
            try await held.send("POST /v1/devices HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
            // The server has read the head and waits for the body.
            try await eventually("the held request to reach a handler") {
                try await client.metricsText().contains("http_server_active_requests{http_request_method=\"POST\"} 1")
            }
            server.signal(SIGTERM)
            // Cancelled after the grace period (2 s here), it still exits cleanly.
            #expect(try await server.exitStatus(timeout: .seconds(60)) == 0)
            withExtendedLifetime(held) {}
        }
    }
}
