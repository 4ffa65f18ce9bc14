import Foundation
import Testing

@Suite("device revocation and account deletion")
struct RevocationTests {
    @Test func aRevokedDevicesTokenIs401AndItCannotComeBack() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let keeper = TestDevice(account: account), lost = TestDevice(account: account)
            let keeperToken = try await server.client.token(for: keeper)
            let lostToken = try await server.client.token(for: lost)
            #expect(try await server.client.changes(token: lostToken).status == 200)

            let revoked = try await server.client.revoke(lost.id, token: keeperToken)
            #expect(revoked.status == 200)
            #expect(revoked.json["device_id"] as? String == lost.id)
            #expect(try await server.client.changes(token: lostToken).status == 401)
            #expect(try await server.client.hints(token: lostToken).status == 401)
            #expect(try await server.client.upload([try lost.tabRecord(version: 1)], token: lostToken).status == 401)
            let again = try await server.client.register(lost)
            #expect(again.status == 403)
            #expect(try await server.client.send("POST", "/v1/token", json: try lost.tokenRequest()).status == 403)
            let listed = try await server.client.devices(token: keeperToken).json["devices"] as? [[String: Any]] ?? []
            #expect(listed.compactMap { $0["device_id"] as? String } == [keeper.id])
            // Revoking again is harmless.
            #expect(try await server.client.revoke(lost.id, token: keeperToken).status == 200)
        }
    }

    @Test func aDeviceCanRevokeItself() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            #expect(try await server.client.revoke(device.id, token: token).status == 200)
            #expect(try await server.client.changes(token: token).status == 401)
        }
    }

    @Test func aRevokedDevicesRecordsComeBackAsTombstonesWithHigherVersions() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let keeper = TestDevice(account: account), lost = TestDevice(account: account)
            let keeperToken = try await server.client.token(for: keeper)
            let lostToken = try await server.client.token(for: lost)
            let lostRecords = [try lost.tabRecord(version: 3), try lost.tabRecord(version: 4)]
            _ = try await server.client.upload(lostRecords, token: lostToken)
            let kept = try await server.client.upload([try keeper.tabRecord(version: 1)], token: keeperToken)
            let cursor = Int64(try #require(kept.json["cursor"] as? Int))

            let revoked = try await server.client.revoke(lost.id, token: keeperToken)
            #expect(revoked.json["tombstoned"] as? Int == 2)
            let changes = try await server.client.changes(token: keeperToken, after: cursor)
            #expect(changes.status == 200)
            let tombstones = changes.records
            #expect(tombstones.count == 2)
            #expect(tombstones.allSatisfy { $0["tombstone"] as? Bool == true && $0["sealed"] == nil })
            #expect(tombstones.allSatisfy { $0["device_id"] as? String == lost.id })
            #expect(Set(tombstones.compactMap { $0["id"] as? String }) == Set(lostRecords.map { $0["id"] as! String }))
            let versions = Dictionary(uniqueKeysWithValues: lostRecords.map { ($0["id"] as! String, $0["version"] as! Int64) })
            for tombstone in tombstones {
                let id = tombstone["id"] as? String ?? ""
                #expect((tombstone["version"] as? Int).map(Int64.init) == versions[id].map { $0 + 1 })
                #expect(tombstone["seq"] as? Int ?? 0 > Int(cursor))
            }
            // The keeper's record is untouched and the usage counts only it.
            let all = try await server.client.changes(token: keeperToken)
            #expect(all.records.filter { $0["tombstone"] as? Bool == false }.map { $0["device_id"] as? String } == [keeper.id])
            #expect(try await server.scalar("SELECT live_records FROM accounts") == 1)
        }
    }

    @Test func aSignedRevocationIsKept_andGoesWithEachTombstoneTheServerMade() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let keeper = TestDevice(account: account), lost = TestDevice(account: account)
            let keeperToken = try await server.client.token(for: keeper)
            let lostToken = try await server.client.token(for: lost)
            let lostTab = UUID().uuidString.lowercased()
            _ = try await server.client.upload(
                [try lost.tabRecord(localID: lostTab, version: 1), try lost.tabRecord(version: 2)], token: lostToken)
            // The lost device sealed one deletion itself before it was lost: that one keeps its seal.
            let sealedID = account.recordID(kind: "tab", deviceID: lost.id, localID: lostTab)
            let tombstone = try account.seal(
                Data(#"{"deleted":true,"v":2}"#.utf8), deviceID: lost.id, recordID: sealedID, kind: "tab", version: 3)
            #expect(try await server.client.upload(
                [["id": sealedID, "version": 3, "tombstone": true, "sealed": tombstone.base64EncodedString()]],
                token: lostToken).status == 200)

            // A statement signed by another key, or for another device, is refused and revokes nothing.
            let forged = try account.revocation(of: lost.id, signedBy: .init())
            #expect(try await server.client.revoke(lost.id, token: keeperToken, statement: forged).status == 403)
            let misdirected = try account.revocation(of: keeper.id)
            #expect(try await server.client.revoke(lost.id, token: keeperToken, statement: misdirected).status == 403)
            #expect(try await server.client.revoke(lost.id, token: keeperToken, statement: ["revoked_at": 1]).status == 400)
            #expect(try await server.scalar("SELECT count(*) FROM devices WHERE revoked_at IS NOT NULL") == 0)

            let statement = try account.revocation(of: lost.id, at: 1_795_000_000)
            let revoked = try await server.client.revoke(lost.id, token: keeperToken, statement: statement)
            #expect(revoked.status == 200)
            #expect(revoked.json["tombstoned"] as? Int == 1)
            let changes = try await server.client.changes(token: keeperToken).records
            let made = changes.filter { $0["sealed"] == nil }
            #expect(made.count == 1)
            let revocation = try #require(made.first?["revocation"] as? [String: Any])
            #expect(revocation["revoked_at"] as? Int == 1_795_000_000)
            #expect(revocation["signature"] as? String == statement["signature"] as? String)
            // The device's own sealed tombstone carries no statement: its seal authenticates it.
            let own = try #require(changes.first { $0["id"] as? String == sealedID })
            #expect(own["tombstone"] as? Bool == true && own["sealed"] != nil && own["revocation"] == nil)
        }
    }

    @Test func aRevocationWithoutAStatement_isStillAccepted_andItsTombstonesCarryNone() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let keeper = TestDevice(account: account), lost = TestDevice(account: account)
            let keeperToken = try await server.client.token(for: keeper)
            let lostToken = try await server.client.token(for: lost)
            _ = try await server.client.upload([try lost.tabRecord(version: 1)], token: lostToken)
            #expect(try await server.client.revoke(lost.id, token: keeperToken).status == 200)
            let made = try await server.client.changes(token: keeperToken).records
            #expect(made.count == 1 && made[0]["tombstone"] as? Bool == true && made[0]["revocation"] == nil)
            // Revoking again with a statement adds it (a version 2 device can vouch for a version 1 revocation).
            let statement = try account.revocation(of: lost.id)
            #expect(try await server.client.revoke(lost.id, token: keeperToken, statement: statement).status == 200)
            let vouched = try await server.client.changes(token: keeperToken).records
            #expect((vouched.first?["revocation"] as? [String: Any])?["signature"] as? String == statement["signature"] as? String)
        }
    }

    @Test func commandsToARevokedDeviceAreDropped() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let keeper = TestDevice(account: account), lost = TestDevice(account: account)
            let keeperToken = try await server.client.token(for: keeper)
            let lostToken = try await server.client.token(for: lost)
            _ = try await server.client.postCommands([testCommand(to: lost.id), testCommand(to: lost.id)], token: keeperToken)
            _ = try await server.client.postCommands([testCommand(to: keeper.id)], token: lostToken)
            #expect(try await server.scalar("SELECT count(*) FROM commands WHERE target_device_id = \(lost.id)") == 2)

            #expect(try await server.client.revoke(lost.id, token: keeperToken).status == 200)
            #expect(try await server.scalar("SELECT count(*) FROM commands WHERE target_device_id = \(lost.id)") == 0)
            #expect(try await server.client.postCommands([testCommand(to: lost.id)], token: keeperToken).status == 404)
            // What the revoked device sent before still reaches its target.
            #expect(try await server.client.pendingCommands(token: keeperToken).commands.count == 1)
        }
    }

    @Test func anotherAccountCannotRevokeADevice() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let alice = TestDevice(account: TestAccount()), mallory = TestDevice(account: TestAccount())
            let aliceToken = try await server.client.token(for: alice)
            let malloryToken = try await server.client.token(for: mallory)
            _ = try await server.client.upload([try alice.tabRecord(version: 1)], token: aliceToken)
            let answer = try await server.client.revoke(alice.id, token: malloryToken)
            #expect(answer.status == 404)
            #expect(try await server.client.changes(token: aliceToken).records.count == 1)
            #expect(try await server.scalar("SELECT count(*) FROM devices WHERE revoked_at IS NOT NULL") == 0)
            #expect(try await server.scalar("SELECT count(*) FROM records WHERE tombstone") == 0)
            #expect(try await server.client.revoke("NOT-A-UUID", token: malloryToken).status == 400)
            #expect(try await server.client.revoke(alice.id, token: "garbage").status == 401)
        }
    }

    @Test func deletingTheAccountLeavesNoRowOfItAndOtherAccountsUntouched() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            // Two accounts holding a row in every table: devices, records, tombstones, commands
            // (one acknowledged), idempotency keys, an account-wide record.
            func populate(_ account: TestAccount) async throws -> String {
                let one = TestDevice(account: account), two = TestDevice(account: account)
                let oneToken = try await server.client.token(for: one)
                let twoToken = try await server.client.token(for: two)
                let tab = UUID().uuidString.lowercased()
                _ = try await server.client.upload([try one.tabRecord(localID: tab, version: 1),
                                                    try one.tabRecord(version: 2)], token: oneToken)
                let id = account.recordID(kind: "tab", deviceID: one.id, localID: tab)
                _ = try await server.client.upload([tombstoneRecord(id: id, version: 3)], token: oneToken)
                _ = try await server.client.upload(
                    [try AccountRecordsTests.sharedRecord(two, localID: UUID().uuidString.lowercased(), version: 1)],
                    token: twoToken)
                let acked = testCommand(to: two.id)
                _ = try await server.client.postCommands([acked, testCommand(to: two.id)], token: oneToken)
                _ = try await server.client.acknowledge([acked["id"] as! String], token: twoToken)
                return oneToken
            }
            let doomed = TestAccount(), survivor = TestAccount()
            let doomedToken = try await populate(doomed)
            _ = try await populate(survivor)
            let doomedBefore = try await server.rowsPerTable(accountID: doomed.accountID)
            let survivorBefore = try await server.rowsPerTable(accountID: survivor.accountID)
            #expect(Set(doomedBefore.keys) == ["accounts", "account_records", "commands", "devices", "idempotency", "records"])
            #expect(doomedBefore.values.allSatisfy { $0 > 0 })

            let answer = try await server.client.deleteAccount(token: doomedToken)
            #expect(answer.status == 200)
            #expect(answer.json["account_id"] as? String == doomed.accountID)
            let doomedAfter = try await server.rowsPerTable(accountID: doomed.accountID)
            #expect(doomedAfter.values.allSatisfy { $0 == 0 }, "\(doomedAfter)")
            #expect(try await server.rowsPerTable(accountID: survivor.accountID) == survivorBefore)
        }
    }

    @Test func afterDeletingTheAccountItsTokensAre401AndItStartsAfresh() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let one = TestDevice(account: account), two = TestDevice(account: account)
            let oneToken = try await server.client.token(for: one)
            let twoToken = try await server.client.token(for: two)
            _ = try await server.client.upload([try one.tabRecord(version: 1)], token: oneToken)
            #expect(try await server.client.deleteAccount(token: oneToken).status == 200)
            for token in [oneToken, twoToken] {
                #expect(try await server.client.changes(token: token).status == 401)
                #expect(try await server.client.deleteAccount(token: token).status == 401)
            }
            // The seed still works: registering again makes an empty account.
            let fresh = try await server.client.token(for: one)
            let changes = try await server.client.changes(token: fresh)
            #expect(changes.records.isEmpty)
            #expect(changes.json["cursor"] as? Int == 0)
        }
    }
}
