import Foundation
import Testing

@Suite("hostile clients")
struct HostileClientTests {
    @Test func clientsThatNeverSendTheirBodyDoNotHoldUpOthers() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let slowDevice = TestDevice(account: TestAccount())
            let slowToken = try await server.client.token(for: slowDevice)
            // Requests that promise 1000 bytes of body and send none: some before
            // authentication (register), some after it (upload), more than two cores.
            var held: [RawConnection] = []
            for index in 0..<12 {
                let connection = try RawConnection(to: server.process.baseURL)
                let head = index.isMultiple(of: 2)
                    ? "POST /v1/devices HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    : "POST /v1/records HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(slowToken)\r\n"
                        + "Idempotency-Key: slow-\(index)\r\nContent-Type: application/json\r\n"
                try await connection.send(head + "Content-Length: 1000\r\n\r\n")
                held.append(connection)
            }

            // Meanwhile another account registers, uploads and reads.
            let other = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: other)
            let upload = try await server.client.upload([try other.tabRecord(version: 1)], token: token)
            #expect(upload.status == 200)
            let changes = try await server.client.changes(token: token)
            #expect(changes.records.count == 1)
            #expect(try await server.client.send("GET", "/health").status == 200)

            // The held requests were waiting, not dropped: the rest of a body gets its answer.
            try await held[1].send(String(repeating: " ", count: 1000))
            let response = try await held[1].readResponseHead()
            #expect(response.hasPrefix("HTTP/1.1 400"), "\(response)")
            #expect(try await server.scalar("SELECT count(*) FROM records WHERE device_id = \(slowDevice.id)") == 0)
        }
    }

    @Test func garbageBodiesAre400OnEveryEndpointAndTheServerKeepsServing() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let device = TestDevice(account: account), target = TestDevice(account: account)
            let token = try await server.client.token(for: device)
            _ = try await server.client.register(target)
            let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            let bodies: [Data] = [
                Data(), Data("null".utf8), Data("[]".utf8), Data("\"records\"".utf8), Data([0xff, 0xfe, 0x00, 0x7b]),
                Data("{\"records\": {}, \"commands\": 3, \"ids\": null}".utf8),
                Data("{\"records\": [1e999999], \"commands\": [-0.0e-99999]}".utf8),
                Data(nested.utf8), Data(("{\"a\":" + nested + "}").utf8),
                Data((0..<4096).map { _ in UInt8.random(in: 0...255) }),
            ]
            let endpoints = ["/v1/devices", "/v1/token", "/v1/records", "/v1/commands", "/v1/commands/ack"]
            let headers = ["Authorization": "Bearer \(token)", "Idempotency-Key": "garbage"]
            for endpoint in endpoints {
                for body in bodies {
                    let answer = try await server.client.send("POST", endpoint, rawBody: body, headers: headers)
                    #expect(answer.status == 400, "\(endpoint) \(String(decoding: body.prefix(24), as: UTF8.self))")
                    #expect(answer.errorCode != nil)
                }
            }
            #expect(try await server.client.send("GET", "/health").status == 200)
            #expect(try await server.client.upload([try device.tabRecord(version: 1)], token: token).status == 200)
            #expect(try await server.scalar("SELECT count(*) FROM records") == 1)
            #expect(try await server.scalar("SELECT count(*) FROM commands") == 0)
        }
    }

    @Test func anotherAccountsRecordIDIsItsOwnRecordAndTheOriginalIsUntouched() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let alice = TestDevice(account: TestAccount()), mallory = TestDevice(account: TestAccount())
            let aliceToken = try await server.client.token(for: alice)
            let malloryToken = try await server.client.token(for: mallory)
            let original = try alice.tabRecord(version: 1)
            _ = try await server.client.upload([original], token: aliceToken)
            // Mallory knows the id (the server's dump, say) and writes a newer version and a tombstone under it.
            let id = original["id"] as! String
            var forged = rawRecord(bytes: 64, id: id, version: 9)
            forged["sealed"] = Data(repeating: 1, count: 64).base64EncodedString()
            #expect(try await server.client.upload([forged], token: malloryToken).status == 200)
            #expect(try await server.client.upload([tombstoneRecord(id: id, version: 10)], token: malloryToken).status == 200)

            let alices = try await server.client.changes(token: aliceToken)
            #expect(alices.records.count == 1)
            #expect(alices.records.first?["version"] as? Int == 1)
            #expect(alices.records.first?["sealed"] as? String == original["sealed"] as? String)
            #expect(alices.json["cursor"] as? Int == 1)
            #expect(try await server.scalar("SELECT counter FROM accounts WHERE account_id = \(alice.account.accountID)") == 1)
            // And Mallory reads only its own.
            #expect(try await server.client.changes(token: malloryToken).records.allSatisfy { $0["device_id"] as? String == mallory.id })
        }
    }
}
