import Foundation
import SyncServerHarness
import Testing

@Suite("changes and concurrency")
struct ChangesTests {
    @Test func aCursorFromTheFutureIs400() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            _ = try await server.client.upload([try device.tabRecord(version: 1)], token: token)
            #expect(try await server.client.changes(token: token, after: 1).status == 200)
            let future = try await server.client.changes(token: token, after: 2)
            #expect(future.status == 400)
            #expect(future.errorCode != nil)
            #expect(try await server.client.changes(token: token, after: -1).status == 400)
            #expect(try await server.client.send("GET", "/v1/changes?wait=abc", headers: ["Authorization": "Bearer \(token)"]).status == 400)
        }
    }

    @Test func aLongPollWakesOnAnUpload() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let reader = TestDevice(account: account), writer = TestDevice(account: account)
            let readerToken = try await server.client.token(for: reader)
            let writerToken = try await server.client.token(for: writer)
            let client = server.client
            let poll = Task { try await client.changes(token: readerToken, after: 0, wait: 30) }
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await client.upload([try writer.tabRecord(version: 1)], token: writerToken).status == 200)
            let answer = try await poll.value
            #expect(answer.status == 200)
            #expect(answer.records.map { $0["device_id"] as? String } == [writer.id])
            #expect(answer.json["cursor"] as? Int == 1)
        }
    }

    @Test func aLongPollSeesAnUploadThroughAnotherServerProcess() async throws {
        try await TestServer.withSecondProcess { (server: TestServer, otherClient: APIClient) async throws in
            let account = TestAccount()
            let reader = TestDevice(account: account), writer = TestDevice(account: account)
            let readerToken = try await server.client.token(for: reader)
            let writerToken = try await otherClient.token(for: writer)
            let client = server.client
            let poll = Task { try await client.changes(token: readerToken, after: 0, wait: 30) }
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await otherClient.upload([try writer.tabRecord(version: 1)], token: writerToken).status == 200)
            let answer = try await poll.value
            #expect(answer.records.map { $0["device_id"] as? String } == [writer.id])
        }
    }

    @Test func aLongPollWithNothingNewReturnsEmpty() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let answer = try await server.client.changes(token: token, wait: 1)
            #expect(answer.status == 200)
            #expect(answer.records.isEmpty)
            #expect(answer.json["cursor"] as? Int == 0)
        }
    }

    @Test func injectedSerializationFailuresAreRetried() async throws {
        try await TestServer.with(arguments: ["--fault-serialization-failures", "2"]) { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let answer = try await server.client.upload([try device.tabRecord(version: 1)], token: token)
            #expect(answer.status == 200)
            #expect(answer.json["cursor"] as? Int == 1)
            #expect(Int(answer.header("Sessionstore-Retries") ?? "") ?? 0 >= 1)
            let next = try await server.client.upload([try device.tabRecord(version: 2)], token: token)
            #expect(next.header("Sessionstore-Retries") == "0")
            #expect(try await server.scalar("SELECT count(*) FROM records") == 2)
            let log = try String(contentsOfFile: server.process.logPath, encoding: .utf8)
            #expect(log.contains("sqlstate=40001"))
        }
    }

    @Test func concurrentUploadsGetDistinctGapFreeSequenceNumbers() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let devices = (0..<4).map { _ in TestDevice(account: account) }
            var tokens: [String] = []
            for device in devices { tokens.append(try await server.client.token(for: device)) }
            let client = server.client
            let batches = 5, perBatch = 10
            let cursors = try await withThrowingTaskGroup(of: Int.self) { group in
                for (device, token) in zip(devices, tokens) {
                    for batch in 0..<batches {
                        let records = try (0..<perBatch).map { try device.tabRecord(version: Int64(batch * perBatch + $0 + 1)) }
                        group.addTask {
                            let answer = try await client.upload(records, token: token)
                            #expect(answer.status == 200)
                            return answer.json["cursor"] as? Int ?? -1
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let total = devices.count * batches * perBatch
            #expect(Set(cursors).count == cursors.count)
            #expect(cursors.max() == total)
            #expect(cursors.allSatisfy { $0 % perBatch == 0 })
            let changes = try await client.changes(token: tokens[0])
            let seqs = changes.records.compactMap { $0["seq"] as? Int }
            #expect(seqs == Array(1...total))
        }
    }
}
