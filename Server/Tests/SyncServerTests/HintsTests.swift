import Foundation
import SyncServerHarness
import Testing

@Suite("hints")
struct HintsTests {
    @Test func aHintAnswersAtOnceWhenTheCounterDiffersFromTheCursor() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            _ = try await server.client.upload([try device.tabRecord(version: 1), try device.tabRecord(version: 2)],
                                               token: token)
            let client = server.client
            // Waiting the whole 55 s would outlast the bound: only an answer at once passes.
            let stale = try await withTimeout("a hint with a stale cursor", .seconds(40)) {
                try await client.hints(token: token, after: 1, wait: 55)
            }
            #expect(stale.status == 200)
            #expect(stale.json["counter"] as? Int == 2)
            #expect(stale.json["commands"] as? Int == 0)
            let fresh = try await withTimeout("a hint from cursor 0", .seconds(40)) {
                try await client.hints(token: token, after: 0, wait: 55)
            }
            #expect(fresh.json["counter"] as? Int == 2)
        }
    }

    @Test func aHintWithNothingNewAnswersWithTheSameCounterWhenItsWaitEnds() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            _ = try await server.client.upload([try device.tabRecord(version: 1)], token: token)
            let answer = try await server.client.hints(token: token, after: 1, wait: 1)
            #expect(answer.status == 200)
            #expect(answer.json["counter"] as? Int == 1)
            #expect(answer.json["commands"] as? Int == 0)
            let noWait = try await server.client.hints(token: token, after: 1)
            #expect(noWait.json["counter"] as? Int == 1)
        }
    }

    @Test func aHintPollOnOneProcessIsWokenByAnUploadThroughAnother() async throws {
        try await TestServer.withSecondProcess { (server: TestServer, otherClient: APIClient) async throws in
            // Both processes on the default bus: PostgreSQL LISTEN/NOTIFY.
            let account = TestAccount()
            let reader = TestDevice(account: account), writer = TestDevice(account: account)
            let readerToken = try await server.client.token(for: reader)
            let writerToken = try await otherClient.token(for: writer)
            let client = server.client
            let answer = try await withTimeout("the hint poll to be woken", .seconds(45)) {
                let poll = Task { try await client.hints(token: readerToken, after: 0, wait: 55) }
                try await client.waitUntilWaiting(1)
                let upload = try await otherClient.upload([try writer.tabRecord(version: 1)], token: writerToken)
                #expect(upload.status == 200)
                return try await poll.valueCancellingWithCaller
            }
            // A poll that only timed out answers with the counter it read before waiting (0).
            #expect(answer.status == 200)
            #expect(answer.json["counter"] as? Int == 1)
        }
    }

    @Test func aCommandForTheCallerWakesItsHintAndIsCounted() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), target = TestDevice(account: account)
            let bystander = TestDevice(account: account)
            let senderToken = try await server.client.token(for: sender)
            let targetToken = try await server.client.token(for: target)
            let bystanderToken = try await server.client.token(for: bystander)
            _ = try await server.client.upload([try sender.tabRecord(version: 1)], token: senderToken)
            let client = server.client
            let answer = try await withTimeout("the target's hint poll to be woken", .seconds(45)) {
                let poll = Task { try await client.hints(token: targetToken, after: 1, wait: 55) }
                try await client.waitUntilWaiting(1)
                let posted = try await client.postCommands([testCommand(to: target.id)], token: senderToken)
                #expect(posted.json["stored"] as? Int == 1)
                return try await poll.valueCancellingWithCaller
            }
            #expect(answer.json["counter"] as? Int == 2)
            #expect(answer.json["commands"] as? Int == 1)
            // Another device sees the counter move, and no command of its own.
            let other = try await client.hints(token: bystanderToken, after: 1)
            #expect(other.json["counter"] as? Int == 2)
            #expect(other.json["commands"] as? Int == 0)
            // Acknowledged, it is no longer counted.
            let ids = try await client.pendingCommands(token: targetToken).commandIDs
            #expect(try await client.acknowledge(ids, token: targetToken).json["acknowledged"] as? Int == 1)
            #expect(try await client.hints(token: targetToken, after: 2).json["commands"] as? Int == 0)
        }
    }

    /// Commands take sequence numbers from the account's counter too, and an
    /// expired record is not returned: a client that follows `/v1/changes`'s
    /// cursor must still reach the counter, or its next hint answers at once,
    /// and again, for ever.
    @Test func aClientFollowingTheChangesCursorGetsAHintThatWaits() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), reader = TestDevice(account: account)
            let senderToken = try await server.client.token(for: sender)
            let readerToken = try await server.client.token(for: reader)
            let now = Int64(Date().timeIntervalSince1970)
            var expiring = rawRecord(bytes: 10)
            expiring["expires_at"] = now - 60
            _ = try await server.client.upload([rawRecord(bytes: 10), expiring], token: senderToken)  // seq 1, 2
            _ = try await server.client.postCommands([testCommand(to: reader.id)], token: senderToken)  // seq 3

            // The client's loop: a hint, then the changes from its cursor.
            let hint = try await server.client.hints(token: readerToken, after: 0)
            #expect(hint.json["counter"] as? Int == 3)
            let changes = try await server.client.changes(token: readerToken, after: 0)
            #expect(changes.records.compactMap { $0["seq"] as? Int } == [1])
            let cursor = Int64(try #require(changes.json["cursor"] as? Int))
            #expect(cursor == 3)
            // From there, its next hint waits for something new.
            let client = server.client
            let answer = try await withTimeout("the next hint poll", .seconds(45)) {
                let poll = Task { try await client.hints(token: readerToken, after: cursor, wait: 55) }
                try await client.waitUntilWaiting(1)
                _ = try await client.upload([rawRecord(bytes: 10)], token: senderToken)
                return try await poll.valueCancellingWithCaller
            }
            #expect(answer.json["counter"] as? Int == 4)
        }
    }

    @Test func aLocalHintBusWakesThePollsOfItsOwnProcess() async throws {
        try await TestServer.with(arguments: ["--hint-bus", "local"]) { (server: TestServer) async throws in
            let account = TestAccount()
            let reader = TestDevice(account: account), writer = TestDevice(account: account)
            let readerToken = try await server.client.token(for: reader)
            let writerToken = try await server.client.token(for: writer)
            let client = server.client
            let answer = try await withTimeout("the hint poll to be woken", .seconds(45)) {
                let poll = Task { try await client.hints(token: readerToken, after: 0, wait: 55) }
                try await client.waitUntilWaiting(1)
                _ = try await client.upload([try writer.tabRecord(version: 1)], token: writerToken)
                return try await poll.valueCancellingWithCaller
            }
            #expect(answer.json["counter"] as? Int == 1)
        }
    }

    @Test func hintParametersAndTokenAreChecked() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let auth = ["Authorization": "Bearer \(token)"]
            #expect(try await server.client.send("GET", "/v1/hints?after=-1", headers: auth).status == 400)
            #expect(try await server.client.send("GET", "/v1/hints?wait=soon", headers: auth).status == 400)
            #expect(try await server.client.send("GET", "/v1/hints?after=0").status == 401)
            #expect(try await server.client.hints(token: "garbage").status == 401)
        }
    }
}
