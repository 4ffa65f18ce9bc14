import Foundation
import Testing

@Suite("commands")
struct CommandsTests {
    @Test func aCommandReachesItsTargetAndIsNotReturnedOnceAcknowledged() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), target = TestDevice(account: account)
            let senderToken = try await server.client.token(for: sender)
            let targetToken = try await server.client.token(for: target)
            let command = testCommand(to: target.id)
            let id = command["id"] as! String
            let posted = try await server.client.postCommands([command], token: senderToken)
            #expect(posted.status == 200)
            #expect(posted.json["stored"] as? Int == 1)
            #expect(posted.json["duplicates"] as? Int == 0)

            let pending = try await server.client.pendingCommands(token: targetToken)
            #expect(pending.status == 200)
            #expect(pending.commandIDs == [id])
            let delivered = pending.commands[0]
            #expect(delivered["sender"] as? String == sender.id)
            #expect(delivered["sealed"] as? String == command["sealed"] as? String)
            #expect((delivered["expires_at"] as? Int).map(Int64.init) == command["expires_at"] as? Int64)
            #expect(delivered["seq"] is Int && delivered["created_at"] is Int)
            // Only the target receives it.
            #expect(try await server.client.pendingCommands(token: senderToken).commands.isEmpty)

            let ack = try await server.client.acknowledge([id], token: targetToken)
            #expect(ack.status == 200)
            #expect(ack.json["acknowledged"] as? Int == 1)
            #expect(try await server.client.pendingCommands(token: targetToken).commands.isEmpty)
            #expect(try await server.client.acknowledge([id], token: targetToken).json["acknowledged"] as? Int == 0)
        }
    }

    @Test func aReplayOfAnAcknowledgedCommandIsADuplicateAndNeverRedelivered() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), target = TestDevice(account: account)
            let senderToken = try await server.client.token(for: sender)
            let targetToken = try await server.client.token(for: target)
            let command = testCommand(to: target.id)
            let id = command["id"] as! String
            _ = try await server.client.postCommands([command], token: senderToken)
            _ = try await server.client.acknowledge([id], token: targetToken)
            // The sealed bytes are gone; the id stays to refuse a replay.
            #expect(try await server.scalar("SELECT count(*) FROM commands WHERE sealed IS NULL AND command_id = \(id)") == 1)

            let replay = try await server.client.postCommands([command], token: senderToken)
            #expect(replay.status == 200)
            #expect(replay.json["stored"] as? Int == 0)
            #expect(replay.json["duplicates"] as? Int == 1)
            #expect(try await server.client.pendingCommands(token: targetToken).commands.isEmpty)
            // A duplicate moves nothing: no new counter value wakes anyone.
            #expect(try await server.scalar("SELECT counter FROM accounts") == 1)
        }
    }

    @Test func aCommandToAnUnknownOrRevokedDeviceIs404AndNothingIsStored() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), target = TestDevice(account: account)
            let gone = TestDevice(account: account)
            let senderToken = try await server.client.token(for: sender)
            _ = try await server.client.register(target)
            _ = try await server.client.register(gone)
            #expect(try await server.client.revoke(gone.id, token: senderToken).status == 200)

            let unknown = try await server.client.postCommands(
                [testCommand(to: target.id), testCommand(to: UUID().uuidString.lowercased())], token: senderToken)
            #expect(unknown.status == 404)
            #expect(unknown.errorCode == "not_found")
            let revoked = try await server.client.postCommands([testCommand(to: gone.id)], token: senderToken)
            #expect(revoked.status == 404)
            #expect(try await server.scalar("SELECT count(*) FROM commands") == 0)
        }
    }

    @Test func aDeviceOfAnotherAccountIsNotATarget() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let alice = TestDevice(account: TestAccount()), bob = TestDevice(account: TestAccount())
            let aliceToken = try await server.client.token(for: alice)
            let bobToken = try await server.client.token(for: bob)
            let answer = try await server.client.postCommands([testCommand(to: bob.id)], token: aliceToken)
            #expect(answer.status == 404)
            #expect(try await server.client.pendingCommands(token: bobToken).commands.isEmpty)
            #expect(try await server.scalar("SELECT count(*) FROM commands") == 0)
        }
    }

    @Test func anAcknowledgementActsOnlyOnTheCallersOwnQueue() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), target = TestDevice(account: account)
            let stranger = TestDevice(account: TestAccount())
            let senderToken = try await server.client.token(for: sender)
            let targetToken = try await server.client.token(for: target)
            let strangerToken = try await server.client.token(for: stranger)
            let command = testCommand(to: target.id)
            let id = command["id"] as! String
            _ = try await server.client.postCommands([command], token: senderToken)

            let bySender = try await server.client.acknowledge([id], token: senderToken)
            #expect(bySender.status == 200)
            #expect(bySender.json["acknowledged"] as? Int == 0)
            let byStranger = try await server.client.acknowledge([id], token: strangerToken)
            #expect(byStranger.json["acknowledged"] as? Int == 0)
            #expect(try await server.client.pendingCommands(token: targetToken).commandIDs == [id])
        }
    }

    @Test func anExpiredCommandIsNotReturnedNorCounted() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), target = TestDevice(account: account)
            let senderToken = try await server.client.token(for: sender)
            let targetToken = try await server.client.token(for: target)
            let soon = testCommand(to: target.id), later = testCommand(to: target.id)
            _ = try await server.client.postCommands([soon, later], token: senderToken)
            let expiring = soon["id"] as! String
            try await server.execute(
                "UPDATE commands SET expires_at = now() - interval '1 second' WHERE command_id = \(expiring)")
            #expect(try await server.client.pendingCommands(token: targetToken).commandIDs == [later["id"] as! String])
            #expect(try await server.client.hints(token: targetToken).json["commands"] as? Int == 1)
        }
    }

    @Test func anExpiryPastTheLongestLifetimeIsCut() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), target = TestDevice(account: account)
            let senderToken = try await server.client.token(for: sender)
            let targetToken = try await server.client.token(for: target)
            let info = try await server.client.send("GET", "/v1/info")
            let lifetime = Int64(info.json["max_command_lifetime_seconds"] as? Int ?? 0)
            #expect(lifetime > 0)
            _ = try await server.client.postCommands([testCommand(to: target.id, expiresIn: 10 * lifetime)], token: senderToken)
            let expiresAt = try await server.client.pendingCommands(token: targetToken).commands.first?["expires_at"] as? Int
            #expect(Int64(try #require(expiresAt)) <= Int64(Date().timeIntervalSince1970) + lifetime)
        }
    }

    @Test func aFullQueueIs429WithRetryAfterUntilTheTargetDrainsIt() async throws {
        try await TestServer.with(arguments: ["--max-pending-commands", "3"]) { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), target = TestDevice(account: account)
            let other = TestDevice(account: account)
            let senderToken = try await server.client.token(for: sender)
            let targetToken = try await server.client.token(for: target)
            _ = try await server.client.register(other)
            let three = (0..<3).map { _ in testCommand(to: target.id) }
            #expect(try await server.client.postCommands(three, token: senderToken).json["stored"] as? Int == 3)

            let full = try await server.client.postCommands([testCommand(to: target.id)], token: senderToken)
            #expect(full.status == 429)
            #expect(full.errorCode == "commands_full")
            #expect(Int(full.header("Retry-After") ?? "") ?? 0 >= 1)
            // Another target has its own queue.
            #expect(try await server.client.postCommands([testCommand(to: other.id)], token: senderToken).status == 200)

            _ = try await server.client.acknowledge([three[0]["id"] as! String], token: targetToken)
            let after = try await server.client.postCommands([testCommand(to: target.id)], token: senderToken)
            #expect(after.status == 200)
            #expect(after.json["stored"] as? Int == 1)
            #expect(try await server.client.pendingCommands(token: targetToken).commands.count == 3)
        }
    }

    @Test func concurrentPostsNeverOverfillAQueue() async throws {
        try await TestServer.with(arguments: ["--max-pending-commands", "3"]) { (server: TestServer) async throws in
            let account = TestAccount()
            let target = TestDevice(account: account)
            let senders = (0..<3).map { _ in TestDevice(account: account) }
            var tokens: [String] = []
            for sender in senders { tokens.append(try await server.client.token(for: sender)) }
            let targetToken = try await server.client.token(for: target)
            let client = server.client
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for token in tokens {
                    for _ in 0..<3 {
                        let command = testCommand(to: target.id)
                        group.addTask { try await client.postCommands([command], token: token).status }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 3)
            #expect(statuses.filter { $0 == 429 }.count == 6)
            #expect(try await client.pendingCommands(token: targetToken).commands.count == 3)
        }
    }

    @Test func aRetryIntoAFullQueueIsADuplicateNotA429() async throws {
        try await TestServer.with(arguments: ["--max-pending-commands", "2"]) { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), target = TestDevice(account: account)
            let senderToken = try await server.client.token(for: sender)
            let targetToken = try await server.client.token(for: target)
            let batch = [testCommand(to: target.id), testCommand(to: target.id)]
            #expect(try await server.client.postCommands(batch, token: senderToken).json["stored"] as? Int == 2)
            // The answer was lost; the sender sends the same batch again.
            let retry = try await server.client.postCommands(batch, token: senderToken)
            #expect(retry.status == 200)
            #expect(retry.json["stored"] as? Int == 0)
            #expect(retry.json["duplicates"] as? Int == 2)
            #expect(try await server.client.pendingCommands(token: targetToken).commands.count == 2)
        }
    }

    @Test func malformedCommandBodiesAre400() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), target = TestDevice(account: account)
            let token = try await server.client.token(for: sender)
            _ = try await server.client.register(target)
            let auth = ["Authorization": "Bearer \(token)"]
            let garbage = try await server.client.send("POST", "/v1/commands", rawBody: Data("{\"commands\": [".utf8), headers: auth)
            #expect(garbage.status == 400)
            #expect(garbage.errorCode == "malformed_json")
            let missing = try await server.client.send("POST", "/v1/commands", json: ["commands": [["id": "x"]]], headers: auth)
            #expect(missing.status == 400)
            var cases: [[String: Any]] = []
            var upper = testCommand(to: target.id)
            upper["id"] = UUID().uuidString
            cases.append(upper)
            var badTarget = testCommand(to: target.id)
            badTarget["target"] = "not-a-device"
            cases.append(badTarget)
            var notBase64 = testCommand(to: target.id)
            notBase64["sealed"] = "%%%"
            cases.append(notBase64)
            var empty = testCommand(to: target.id)
            empty["sealed"] = ""
            cases.append(empty)
            cases.append(testCommand(to: target.id, expiresIn: -60))
            for command in cases {
                let answer = try await server.client.postCommands([command], token: token)
                #expect(answer.status == 400, "\(command)")
            }
            let badAck = try await server.client.acknowledge(["NOT-A-UUID"], token: token)
            #expect(badAck.status == 400)
            let garbageAck = try await server.client.send("POST", "/v1/commands/ack", rawBody: Data("ids".utf8), headers: auth)
            #expect(garbageAck.status == 400)
            #expect(try await server.client.pendingCommands(token: token).commands.isEmpty)
            #expect(try await server.client.send("GET", "/v1/commands?limit=0", headers: auth).status == 400)
            #expect(try await server.scalar("SELECT count(*) FROM commands") == 0)
        }
    }

    @Test func anOversizedCommandOrBatchIs413() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let sender = TestDevice(account: account), target = TestDevice(account: account)
            let token = try await server.client.token(for: sender)
            _ = try await server.client.register(target)
            let largest = try await server.client.postCommands([testCommand(to: target.id, sealedBytes: 16_384)], token: token)
            #expect(largest.status == 200)
            let over = try await server.client.postCommands([testCommand(to: target.id, sealedBytes: 16_385)], token: token)
            #expect(over.status == 413)
            #expect(over.errorCode == "too_large")
            // More commands than max_batch_records in one request.
            let many = (0..<1_001).map { _ in testCommand(to: target.id, sealedBytes: 4) }
            #expect(try await server.client.postCommands(many, token: token).status == 413)
            #expect(try await server.scalar("SELECT count(*) FROM commands") == 1)
        }
    }
}
