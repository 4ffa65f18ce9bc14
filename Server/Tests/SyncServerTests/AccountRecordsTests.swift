import Foundation
import Testing

/// Account-wide records (protocol version 3, docs/sync-protocol.md, "Saved groups"): any device
/// of the account writes them, only version 3 readers get them, none can delete them.
@Suite("account-wide records")
struct AccountRecordsTests {
    /// An account-wide record of `device`'s account: sealed with `account` in place of the device.
    static func sharedRecord(_ device: TestDevice, localID: String, version: Int64, title: String = "g") throws -> [String: Any] {
        let recordID = device.account.recordID(kind: "saved_group", deviceID: "account", localID: localID)
        let payload = try JSONSerialization.data(withJSONObject: ["id": localID, "title": title])
        let sealed = try device.account.seal(
            payload, deviceID: "account", recordID: recordID, kind: "saved_group", version: version)
        return ["id": recordID, "version": version, "sealed": sealed.base64EncodedString(), "scope": "account"]
    }

    @Test func anyDeviceWritesTheNextVersion_andOnlyVersion3ReadersGetIt() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let phone = TestDevice(account: account), laptop = TestDevice(account: account)
            let phoneToken = try await server.client.token(for: phone)
            let laptopToken = try await server.client.token(for: laptop)
            let group = UUID().uuidString.lowercased()

            #expect(try await server.client.upload([try Self.sharedRecord(phone, localID: group, version: 1)],
                                                   token: phoneToken).status == 200)
            #expect(try await server.client.upload([try laptop.tabRecord(version: 1)], token: laptopToken).status == 200)
            // Another device writes the next version; an older or equal one is a conflict.
            #expect(try await server.client.upload([try Self.sharedRecord(laptop, localID: group, version: 2, title: "h")],
                                                   token: laptopToken).status == 200)
            let stale = try await server.client.upload(
                [try Self.sharedRecord(phone, localID: group, version: 2)], token: phoneToken)
            #expect(stale.status == 409)

            let old = try await server.client.changes(token: phoneToken)
            #expect(old.records.map { $0["device_id"] as? String } == [laptop.id])
            #expect(old.json["cursor"] as? Int == 3)
            let new = try await server.client.changes(token: phoneToken, protocolVersion: 3)
            #expect(new.records.map { $0["device_id"] as? String } == [laptop.id, "account"])
            #expect(new.records.map { $0["seq"] as? Int } == [2, 3])
            let shared = new.records[1]
            #expect(shared["version"] as? Int == 2)
            #expect(shared["tombstone"] as? Bool == false)
            let plain = try account.open(
                Data(base64Encoded: shared["sealed"] as! String)!, deviceID: "account",
                recordID: shared["id"] as! String, kind: "saved_group", version: 2)
            #expect(String(decoding: plain, as: UTF8.self).contains("\"h\""))
        }
    }

    @Test func noDeviceDeletesOrTakesAnAccountWideID_andRevocationLeavesThem() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let phone = TestDevice(account: account), laptop = TestDevice(account: account)
            let phoneToken = try await server.client.token(for: phone)
            let laptopToken = try await server.client.token(for: laptop)
            let record = try Self.sharedRecord(phone, localID: UUID().uuidString.lowercased(), version: 1)
            let id = record["id"] as! String
            #expect(try await server.client.upload([record], token: phoneToken).status == 200)

            // A tombstone, as a device record or an account-wide one, is refused.
            let asDevice = try await server.client.upload([["id": id, "version": 5, "tombstone": true]], token: laptopToken)
            #expect(asDevice.status == 403)
            let asShared = try await server.client.upload(
                [["id": id, "version": 5, "tombstone": true, "scope": "account"]], token: laptopToken)
            #expect(asShared.status == 400)
            // A device's record id cannot become account-wide.
            let tab = try laptop.tabRecord(version: 1)
            #expect(try await server.client.upload([tab], token: laptopToken).status == 200)
            var taken = try Self.sharedRecord(laptop, localID: "x", version: 2)
            taken["id"] = tab["id"]
            #expect(try await server.client.upload([taken], token: laptopToken).status == 403)
            #expect(try await server.client.upload([["id": id, "version": 6, "sealed": "AA==", "scope": "team"]],
                                                   token: laptopToken).status == 400)

            // The writer's revocation deletes its own records, not the account's.
            #expect(try await server.client.revoke(phone.id, token: laptopToken).status == 200)
            let changes = try await server.client.changes(token: laptopToken, protocolVersion: 3)
            let shared = changes.records.filter { $0["device_id"] as? String == "account" }
            #expect(shared.map { $0["id"] as? String } == [id])
            #expect(shared.first?["tombstone"] as? Bool == false)
        }
    }

    @Test func theSavedGroupQuotaRefusesNewRecords_notNewVersions() async throws {
        try await TestServer.with(arguments: ["--max-account-saved-group-records", "2"]) { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let ids = (0..<3).map { _ in UUID().uuidString.lowercased() }
            let two = try ids.prefix(2).map { try Self.sharedRecord(device, localID: $0, version: 1) }
            #expect(try await server.client.upload(two, token: token).status == 200)
            let third = try await server.client.upload([try Self.sharedRecord(device, localID: ids[2], version: 1)], token: token)
            #expect(third.status == 413)
            #expect(third.json["error"] as? String == "quota_saved_group_records")
            #expect(try await server.client.upload([try Self.sharedRecord(device, localID: ids[0], version: 2)],
                                                   token: token).status == 200)
            // Device records are not counted against it.
            #expect(try await server.client.upload([try device.tabRecord(version: 1)], token: token).status == 200)
        }
    }

    @Test func deletingTheAccountDeletesThem() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let record = try Self.sharedRecord(device, localID: UUID().uuidString.lowercased(), version: 1)
            #expect(try await server.client.upload([record], token: token).status == 200)
            #expect(try await server.scalar("SELECT count(*) FROM account_records") == 1)
            #expect(try await server.client.deleteAccount(token: token).status == 200)
            #expect(try await server.scalar("SELECT count(*) FROM account_records") == 0)
        }
    }
}
