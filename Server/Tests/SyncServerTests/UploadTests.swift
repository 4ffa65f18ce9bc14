import Foundation
import Testing

@Suite("uploads")
struct UploadTests {
    @Test func twoDevicesOfOneAccountSeeEachOthersRecordsWithCursors() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let phone = TestDevice(account: account), laptop = TestDevice(account: account)
            let phoneToken = try await server.client.token(for: phone)
            let laptopToken = try await server.client.token(for: laptop)

            let first = try await server.client.upload([try phone.tabRecord(version: 1, title: "one"),
                                                        try phone.tabRecord(version: 2, title: "two")], token: phoneToken)
            #expect(first.status == 200)
            #expect(first.json["cursor"] as? Int == 2)

            let all = try await server.client.changes(token: laptopToken)
            #expect(all.status == 200)
            #expect(all.records.map { $0["seq"] as? Int } == [1, 2])
            #expect(all.json["cursor"] as? Int == 2)
            #expect(all.json["more"] as? Bool == false)
            let record = all.records[0]
            #expect(record["device_id"] as? String == phone.id)
            #expect(record["version"] as? Int == 1)
            #expect(record["tombstone"] as? Bool == false)
            #expect(record["modified_at"] is Int)
            let sealed = Data(base64Encoded: record["sealed"] as? String ?? "") ?? Data()
            let plain = try account.open(sealed, deviceID: phone.id, recordID: record["id"] as! String, kind: "tab", version: 1)
            #expect(String(decoding: plain, as: UTF8.self).contains("\"one\""))

            let second = try await server.client.upload([try laptop.tabRecord(version: 1)], token: laptopToken)
            #expect(second.json["cursor"] as? Int == 3)
            let newer = try await server.client.changes(token: phoneToken, after: 2)
            #expect(newer.records.map { $0["device_id"] as? String } == [laptop.id])
            #expect(newer.json["cursor"] as? Int == 3)

            let page = try await server.client.changes(token: phoneToken, after: 0, limit: 2)
            #expect(page.records.count == 2)
            #expect(page.json["more"] as? Bool == true)
            #expect(page.json["cursor"] as? Int == 2)
            let empty = try await server.client.changes(token: phoneToken, after: 3)
            #expect(empty.records.isEmpty)
            #expect(empty.json["cursor"] as? Int == 3)
        }
    }

    @Test func aNewerVersionReplacesTheRecordAndATombstoneHasNoSealed() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let tab = UUID().uuidString.lowercased()
            _ = try await server.client.upload([try device.tabRecord(localID: tab, version: 1)], token: token)
            let id = device.account.recordID(kind: "tab", deviceID: device.id, localID: tab)
            let tombstone: [String: Any] = ["id": id, "version": 2, "tombstone": true]
            #expect(try await server.client.upload([tombstone], token: token).json["cursor"] as? Int == 2)
            let changes = try await server.client.changes(token: token)
            #expect(changes.records.count == 1)
            #expect(changes.records[0]["seq"] as? Int == 2)
            #expect(changes.records[0]["tombstone"] as? Bool == true)
            #expect(changes.records[0]["sealed"] == nil)
        }
    }

    @Test func aSealedTombstoneIsStoredAndReturnedSealed_andCountsNoRecordOrByte() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let tab = UUID().uuidString.lowercased()
            _ = try await server.client.upload([try device.tabRecord(localID: tab, version: 1)], token: token)
            #expect(try await server.scalar("SELECT live_records FROM accounts") == 1)
            let id = device.account.recordID(kind: "tab", deviceID: device.id, localID: tab)
            let sealed = try device.account.seal(
                Data(#"{"deleted":true,"v":2}"#.utf8), deviceID: device.id, recordID: id, kind: "tab", version: 2)
            let tombstone: [String: Any] = ["id": id, "version": 2, "tombstone": true, "sealed": sealed.base64EncodedString()]
            #expect(try await server.client.upload([tombstone], token: token).status == 200)
            let changes = try await server.client.changes(token: token)
            #expect(changes.records.count == 1)
            #expect(changes.records[0]["tombstone"] as? Bool == true)
            #expect(changes.records[0]["sealed"] as? String == sealed.base64EncodedString())
            #expect(try await server.scalar("SELECT live_records FROM accounts") == 0)
            #expect(try await server.scalar("SELECT live_bytes FROM accounts") == 0)
            #expect(try await server.scalar("SELECT size FROM records") == 0)
        }
    }

    @Test func anIdempotentRepeatReturnsTheSameCursorAndStoresNothingTwice() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let records = [try device.tabRecord(version: 1), try device.tabRecord(version: 2)]
            let first = try await server.client.upload(records, token: token, key: "batch-1")
            let repeated = try await server.client.upload(records, token: token, key: "batch-1")
            #expect(first.status == 200)
            #expect(repeated.status == 200)
            #expect(repeated.json["cursor"] as? Int == first.json["cursor"] as? Int)
            #expect(try await server.scalar("SELECT counter FROM accounts") == 2)
            #expect(try await server.scalar("SELECT count(*) FROM records") == 2)
            let next = try await server.client.upload([try device.tabRecord(version: 3)], token: token, key: "batch-2")
            #expect(next.json["cursor"] as? Int == 3)
        }
    }

    @Test func anotherDevicesRecordIs403AndNothingIsStored() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let owner = TestDevice(account: account), other = TestDevice(account: account)
            let ownerToken = try await server.client.token(for: owner)
            let otherToken = try await server.client.token(for: other)
            let tab = UUID().uuidString.lowercased()
            _ = try await server.client.upload([try owner.tabRecord(localID: tab, version: 1)], token: ownerToken)
            // The other device writes under the owner's record id (its own id for the tab would differ).
            var forged = try other.tabRecord(localID: tab, version: 5)
            forged["id"] = account.recordID(kind: "tab", deviceID: owner.id, localID: tab)
            let answer = try await server.client.upload([try other.tabRecord(version: 1), forged], token: otherToken)
            #expect(answer.status == 403)
            #expect(try await server.scalar("SELECT count(*) FROM records") == 1)
            #expect(try await server.scalar("SELECT counter FROM accounts") == 1)
        }
    }

    @Test func aReplayedOrOlderVersionIs409() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let tab = UUID().uuidString.lowercased()
            #expect(try await server.client.upload([try device.tabRecord(localID: tab, version: 5)], token: token).status == 200)
            #expect(try await server.client.upload([try device.tabRecord(localID: tab, version: 5)], token: token).status == 409)
            #expect(try await server.client.upload([try device.tabRecord(localID: tab, version: 4)], token: token).status == 409)
            #expect(try await server.client.upload([try device.tabRecord(localID: tab, version: 6)], token: token).status == 200)
        }
    }

    @Test func aRecordSentTwiceInOneBatchMustGrowWithinIt() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let tab = UUID().uuidString.lowercased()
            let older = [try device.tabRecord(localID: tab, version: 2), try device.tabRecord(localID: tab, version: 1)]
            #expect(try await server.client.upload(older, token: token).status == 409)
            let growing = [try device.tabRecord(localID: tab, version: 1), try device.tabRecord(localID: tab, version: 2)]
            let answer = try await server.client.upload(growing, token: token)
            #expect(answer.status == 200)
            #expect(answer.json["cursor"] as? Int == 2)
            let changes = try await server.client.changes(token: token)
            #expect(changes.records.map { $0["version"] as? Int } == [2])
            #expect(changes.records.map { $0["seq"] as? Int } == [2])
        }
    }

    @Test func oversizedRecordsAndBatchesAre413() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            func raw(_ bytes: Int) -> [String: Any] {
                ["id": hex((0..<16).map { _ in UInt8.random(in: 0...255) }), "version": 1,
                 "sealed": Data(repeating: 7, count: bytes).base64EncodedString()]
            }
            #expect(try await server.client.upload([raw(16_384)], token: token).status == 200)
            #expect(try await server.client.upload([raw(16_385)], token: token).status == 413)
            let tooMany = (0..<1_001).map { _ in raw(10) }
            #expect(try await server.client.upload(tooMany, token: token).status == 413)
            let tooHeavy = (0..<257).map { _ in raw(16_384) }  // 4,210,688 bytes > 4,194,304
            let heavy = try await server.client.upload(tooHeavy, token: token)
            #expect(heavy.status == 413)
            #expect(heavy.errorCode != nil)
            #expect(try await server.scalar("SELECT count(*) FROM records") == 1)
        }
    }

    @Test func aFullBatchFitsAndAnOversizedBodyIs413() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let full = (0..<256).map { _ in
                ["id": hex((0..<16).map { _ in UInt8.random(in: 0...255) }), "version": 1,
                 "sealed": Data(repeating: 1, count: 16_384).base64EncodedString()] as [String: Any]
            }  // exactly max_batch_bytes of sealed data: about 5.3 MiB of JSON
            let stored = try await server.client.upload(full, token: token)
            #expect(stored.status == 200)
            #expect(stored.json["cursor"] as? Int == 256)
            let huge = Data(repeating: UInt8(ascii: " "), count: 7 * 1024 * 1024)
            let answer = try await server.client.send(
                "POST", "/v1/records", rawBody: huge,
                headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": "huge"])
            #expect(answer.status == 413)
        }
    }

    @Test func malformedUploadsAre400() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let auth = ["Authorization": "Bearer \(token)", "Idempotency-Key": "k"]
            let notJSON = try await server.client.send("POST", "/v1/records", rawBody: Data("{records: [".utf8), headers: auth)
            #expect(notJSON.status == 400)
            #expect(notJSON.errorCode == "malformed_json")
            #expect(notJSON.json["message"] is String)
            let wrongShape = try await server.client.send("POST", "/v1/records", json: ["records": [["id": 1]]], headers: auth)
            #expect(wrongShape.status == 400)
            var badID = try device.tabRecord(version: 1)
            badID["id"] = "XYZ"
            #expect(try await server.client.upload([badID], token: token).status == 400)
            var zero = try device.tabRecord(version: 1)
            zero["version"] = 0
            #expect(try await server.client.upload([zero], token: token).status == 400)
            let noKey = try await server.client.send(
                "POST", "/v1/records", json: ["records": []], headers: ["Authorization": "Bearer \(token)"])
            #expect(noKey.status == 400)
            #expect(try await server.scalar("SELECT count(*) FROM records") == 0)
        }
    }

    @Test func anotherAccountsDataIsInvisible() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let alice = TestDevice(account: TestAccount()), bob = TestDevice(account: TestAccount())
            let aliceToken = try await server.client.token(for: alice)
            let bobToken = try await server.client.token(for: bob)
            _ = try await server.client.upload([try alice.tabRecord(version: 1)], token: aliceToken)
            let bobs = try await server.client.changes(token: bobToken)
            #expect(bobs.status == 200)
            #expect(bobs.records.isEmpty)
            #expect(bobs.json["cursor"] as? Int == 0)
            #expect(try await server.client.upload([try bob.tabRecord(version: 1)], token: bobToken).json["cursor"] as? Int == 1)
        }
    }

    @Test func expiredRecordsAreNotReturned() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let now = Int64(Date().timeIntervalSince1970)
            _ = try await server.client.upload([try device.tabRecord(version: 1, expiresAt: now - 60),
                                                try device.tabRecord(version: 2, expiresAt: now + 3600)], token: token)
            let changes = try await server.client.changes(token: token)
            #expect(changes.records.map { $0["seq"] as? Int } == [2])
        }
    }
}
