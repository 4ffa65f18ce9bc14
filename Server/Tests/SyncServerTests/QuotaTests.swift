import Foundation
import SyncServerHarness
import Testing

@Suite("quotas")
struct QuotaTests {
    @Test func aDeviceOverMaxDevicesIs413UntilOneIsRevoked() async throws {
        try await TestServer.with(arguments: ["--max-devices", "2"]) { (server: TestServer) async throws in
            let account = TestAccount()
            let one = TestDevice(account: account), two = TestDevice(account: account), three = TestDevice(account: account)
            let oneToken = try await server.client.token(for: one)
            #expect(try await server.client.register(two).status == 201)
            let refused = try await server.client.register(three)
            #expect(refused.status == 413)
            #expect(refused.errorCode == "quota_devices")
            // A device already registered registers again; another account has its own quota.
            #expect(try await server.client.register(two).status == 200)
            #expect(try await server.client.register(TestDevice(account: TestAccount())).status == 201)
            // Revoked devices do not count.
            #expect(try await server.client.revoke(two.id, token: oneToken).status == 200)
            #expect(try await server.client.register(three).status == 201)
            #expect(try await server.scalar("SELECT count(*) FROM devices WHERE account_id = \(account.accountID)") == 3)
        }
    }

    @Test func growingPastMaxAccountRecordsIs413ButShrinkingIsAllowed() async throws {
        try await TestServer.with(arguments: ["--max-account-records", "3"]) { (server: TestServer) async throws in
            let account = TestAccount()
            let device = TestDevice(account: account), other = TestDevice(account: account)
            let token = try await server.client.token(for: device)
            let otherToken = try await server.client.token(for: other)
            let records = (0..<3).map { _ in rawRecord(bytes: 10) }
            #expect(try await server.client.upload(records, token: token).status == 200)

            let over = try await server.client.upload([rawRecord(bytes: 10)], token: otherToken)
            #expect(over.status == 413)
            #expect(over.errorCode == "quota_records")
            // New versions of held records do not grow the account.
            let ids = records.map { $0["id"] as! String }
            let newer = try await server.client.upload([rawRecord(bytes: 10, id: ids[0], version: 2)], token: token)
            #expect(newer.status == 200)
            // A tombstone shrinks it, even alongside a new record in the same batch.
            let swap = try await server.client.upload(
                [tombstoneRecord(id: ids[1], version: 2), rawRecord(bytes: 10)], token: token)
            #expect(swap.status == 200)
            #expect(try await server.client.upload([tombstoneRecord(id: ids[2], version: 2)], token: token).status == 200)
            #expect(try await server.client.upload([rawRecord(bytes: 10)], token: otherToken).status == 200)
            #expect(try await server.client.upload([rawRecord(bytes: 10)], token: otherToken).status == 413)
            #expect(try await server.scalar("SELECT live_records FROM accounts") == 3)
        }
    }

    @Test func growingPastMaxAccountBytesIs413ButShrinkingIsAllowed() async throws {
        try await TestServer.with(arguments: ["--max-account-bytes", "1000"]) { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let first = rawRecord(bytes: 400), second = rawRecord(bytes: 400)
            #expect(try await server.client.upload([first, second], token: token).status == 200)
            let over = try await server.client.upload([rawRecord(bytes: 300)], token: token)
            #expect(over.status == 413)
            #expect(over.errorCode == "quota_bytes")
            // A larger version of a held record grows the account too.
            let firstID = first["id"] as! String
            #expect(try await server.client.upload([rawRecord(bytes: 700, id: firstID, version: 2)], token: token).status == 413)
            // A smaller version shrinks it, and makes room.
            #expect(try await server.client.upload([rawRecord(bytes: 100, id: firstID, version: 2)], token: token).status == 200)
            #expect(try await server.client.upload([rawRecord(bytes: 300)], token: token).status == 200)
            #expect(try await server.scalar("SELECT live_bytes FROM accounts") == 800)
        }
    }

    @Test func aRecordOrCommandOverMaxRecordBytesIs413() async throws {
        try await TestServer.with(arguments: ["--max-record-bytes", "100"]) { (server: TestServer) async throws in
            let account = TestAccount()
            let device = TestDevice(account: account), target = TestDevice(account: account)
            let token = try await server.client.token(for: device)
            _ = try await server.client.register(target)
            #expect(try await server.client.upload([rawRecord(bytes: 100)], token: token).status == 200)
            let record = try await server.client.upload([rawRecord(bytes: 101)], token: token)
            #expect(record.status == 413)
            #expect(record.errorCode == "too_large")
            #expect(try await server.client.postCommands([testCommand(to: target.id, sealedBytes: 100)], token: token).status == 200)
            #expect(try await server.client.postCommands([testCommand(to: target.id, sealedBytes: 101)], token: token).status == 413)
        }
    }

    /// (Records over `max_batch_records` are covered by `UploadTests.oversizedRecordsAndBatchesAre413`.)
    @Test func aCommandBatchOverMaxBatchRecordsIs413() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let device = TestDevice(account: account), target = TestDevice(account: account)
            let token = try await server.client.token(for: device)
            _ = try await server.client.register(target)
            let most = try await server.client.send("GET", "/v1/info").json["max_batch_records"] as? Int ?? 0
            #expect(most == 1_000)
            let commands = (0...most).map { _ in testCommand(to: target.id, sealedBytes: 4) }
            let answer = try await server.client.postCommands(commands, token: token)
            #expect(answer.status == 413)
            #expect(answer.errorCode == "too_large")
            #expect(try await server.scalar("SELECT count(*) FROM commands") == 0)
        }
    }

    @Test func uploadsPastUploadsPerSecondAre429WithRetryAfter() async throws {
        try await TestServer.with(arguments: ["--uploads-per-second", "2"]) { (server: TestServer) async throws in
            let account = TestAccount()
            let device = TestDevice(account: account), target = TestDevice(account: account)
            let token = try await server.client.token(for: device)
            _ = try await server.client.register(target)
            // A full allowance: two uploads, records or commands alike.
            #expect(try await server.client.upload([rawRecord(bytes: 4)], token: token).status == 200)
            #expect(try await server.client.postCommands([testCommand(to: target.id)], token: token).status == 200)
            // The next quick ones find it empty (the loop only absorbs a slow machine's refill).
            var limited: HTTPAnswer?
            for _ in 0..<10 {
                let answer = try await server.client.upload([rawRecord(bytes: 4)], token: token)
                if answer.status != 200 {
                    limited = answer
                    break
                }
            }
            let answer = try #require(limited)
            #expect(answer.status == 429)
            #expect(answer.errorCode == "rate_limited")
            let retryAfter = try #require(Int(answer.header("Retry-After") ?? ""))
            #expect(retryAfter >= 1)
            // Another device has its own allowance.
            let otherToken = try await server.client.token(for: target, register: false)
            #expect(try await server.client.upload([rawRecord(bytes: 4)], token: otherToken).status == 200)
            // After waiting as told, the device uploads again.
            try await Task.sleep(for: .seconds(retryAfter))
            try await eventually("the allowance to refill") {
                try await server.client.upload([rawRecord(bytes: 4)], token: token).status == 200
            }
        }
    }

    @Test func concurrentRegistrationsNeverExceedMaxDevices() async throws {
        try await TestServer.with(arguments: ["--max-devices", "2"]) { (server: TestServer) async throws in
            let account = TestAccount()
            let client = server.client
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    let device = TestDevice(account: account)
                    group.addTask { try await client.register(device).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [201, 201, 413, 413, 413, 413, 413, 413])
            #expect(try await server.scalar("SELECT count(*) FROM devices") == 2)
        }
    }

    @Test func concurrentUploadsNeverExceedMaxAccountRecords() async throws {
        try await TestServer.with(arguments: ["--max-account-records", "5"]) { (server: TestServer) async throws in
            let account = TestAccount()
            let devices = (0..<4).map { _ in TestDevice(account: account) }
            var tokens: [String] = []
            for device in devices { tokens.append(try await server.client.token(for: device)) }
            let client = server.client
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for token in tokens {
                    let batch = (0..<3).map { _ in rawRecord(bytes: 10) }
                    group.addTask { try await client.upload(batch, token: token).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [200, 413, 413, 413])
            #expect(try await server.scalar("SELECT count(*) FROM records") == 3)
            #expect(try await server.scalar("SELECT live_records FROM accounts") == 3)
        }
    }

    @Test func infoPublishesEveryLimit() async throws {
        let arguments = [
            "--max-devices", "7", "--max-account-records", "1234", "--max-account-bytes", "99999",
            "--max-record-bytes", "2048", "--max-pending-commands", "17", "--uploads-per-second", "5",
            "--tombstone-days", "11", "--hide-device-days", "12", "--sweep-device-days", "90",
            "--max-account-saved-group-records", "321",
        ]
        try await TestServer.with(arguments: arguments) { (server: TestServer) async throws in
            let answer = try await server.client.send("GET", "/v1/info")
            #expect(answer.status == 200)
            let expected: [String: Int] = [
                "version": 3, "max_account_saved_group_records": 321, "max_devices": 7, "max_account_records": 1234, "max_account_bytes": 99999,
                "max_record_bytes": 2048, "max_pending_commands": 17, "uploads_per_second": 5,
                "tombstone_days": 11, "hide_device_days": 12, "sweep_device_days": 90,
                "max_batch_records": 1_000, "max_batch_bytes": 4_194_304, "max_wait_seconds": 30,
                "max_hint_wait_seconds": 60, "token_lifetime_seconds": 900,
                "max_command_lifetime_seconds": 30 * 24 * 3600,
            ]
            for (key, value) in expected {
                #expect(answer.json[key] as? Int == value, "\(key)")
            }
        }
    }

    @Test func aLimitBelowOneIsRefusedAtStartup() throws {
        let executable = try ServerProcess.executableURL().path
        for command in ["serve", "sweep"] {
            #expect(throws: ChildProcess.Failure.self, "\(command)") {
                try ChildProcess.run([executable, command, "--database-url", "postgres://nobody@localhost/none",
                                      "--max-devices", "0"])
            }
        }
    }
}
