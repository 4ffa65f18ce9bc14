import Crypto
import Foundation
import Testing

@Suite("info and device registration")
struct InfoAndRegisterTests {
    @Test func infoPublishesTheLimits() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let answer = try await server.client.send("GET", "/v1/info")
            #expect(answer.status == 200)
            let json = answer.json
            #expect(json["version"] as? Int == 3)
            let serverID = try #require(json["server_id"] as? String)
            #expect(UUID(uuidString: serverID) != nil)
            #expect(try await server.client.send("GET", "/v1/info").json["server_id"] as? String == serverID)
            #expect(json["max_record_bytes"] as? Int == 16_384)
            #expect(json["max_batch_records"] as? Int == 1_000)
            #expect(json["max_batch_bytes"] as? Int == 4_194_304)
            #expect(json["max_wait_seconds"] as? Int == 30)
            #expect(json["token_lifetime_seconds"] as? Int == 900)
        }
    }

    @Test func registerCreatesThenRepeatsAndStoresTheAccount() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let device = TestDevice(account: account)
            let first = try await server.client.register(device)
            #expect(first.status == 201)
            #expect(first.json["account_id"] as? String == account.accountID)
            #expect(first.json["device_id"] as? String == device.id)
            let again = try await server.client.register(device)
            #expect(again.status == 200)
            let second = try await server.client.register(TestDevice(account: account))
            #expect(second.status == 201)
            #expect(try await server.scalar("SELECT count(*) FROM devices WHERE account_id = \(account.accountID)") == 2)
            #expect(try await server.scalar("SELECT count(*) FROM accounts") == 1)
        }
    }

    @Test func registerGivesTheGeneration_andMakesNoAccountWhenTold() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let device = TestDevice(account: account)
            var body = try device.registration()
            body["create"] = false
            let refused = try await server.client.send("POST", "/v1/devices", json: body)
            #expect(refused.status == 404 && refused.errorCode == "no_account")
            #expect(try await server.scalar("SELECT count(*) FROM accounts") == 0)

            let made = try await server.client.register(device)
            #expect(made.status == 201)
            let generation = try #require(made.json["generation"] as? String)
            #expect(made.json["counter"] as? Int == 0)
            let info = try await server.client.send("GET", "/v1/info")
            #expect(made.json["server_id"] as? String == info.json["server_id"] as? String)
            let again = try await server.client.send("POST", "/v1/devices", json: body)
            #expect(again.status == 200 && again.json["generation"] as? String == generation)

            // Deleted, then made again by a new pairing: another generation.
            let token = try await server.client.token(for: device, register: false)
            #expect(try await server.client.send("DELETE", "/v1/account", headers: ["Authorization": "Bearer \(token)"]).status == 200)
            #expect(try await server.client.send("POST", "/v1/token", json: try device.tokenRequest()).errorCode == "no_account")
            let remade = try await server.client.register(TestDevice(account: account))
            #expect(remade.status == 201)
            #expect(remade.json["generation"] as? String != generation)
        }
    }

    @Test func registerRefusesABadSignature() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let forged = try device.registration(signedBy: Curve25519.Signing.PrivateKey())
            let answer = try await server.client.send("POST", "/v1/devices", json: forged)
            #expect(answer.status == 403)
            #expect(answer.errorCode != nil)
            #expect(answer.json["message"] is String)
        }
    }

    @Test func registerRefusesAnAccountIDNotDerivedFromTheKey() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let other = TestAccount().accountID
            let answer = try await server.client.send("POST", "/v1/devices", json: try device.registration(accountID: other))
            #expect(answer.status == 403)
        }
    }

    @Test func registerRefusesAnotherKeyForAKnownDevice() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let device = TestDevice(account: account)
            #expect(try await server.client.register(device).status == 201)
            let impostor = TestDevice(account: account, id: device.id)
            #expect(try await server.client.register(impostor).status == 409)
        }
    }

    @Test func registerRefusesMalformedJSON() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let answer = try await server.client.send("POST", "/v1/devices", rawBody: Data("{\"account_id\":".utf8))
            #expect(answer.status == 400)
            #expect(answer.errorCode == "malformed_json")
        }
    }

    @Test func devicesListsTheAccountsDevices() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let one = TestDevice(account: account), two = TestDevice(account: account)
            let token = try await server.client.token(for: one)
            _ = try await server.client.register(two)
            _ = try await server.client.token(for: TestDevice(account: TestAccount()))
            let answer = try await server.client.send("GET", "/v1/devices", headers: ["Authorization": "Bearer \(token)"])
            #expect(answer.status == 200)
            let devices = answer.json["devices"] as? [[String: Any]] ?? []
            #expect(Set(devices.compactMap { $0["device_id"] as? String }) == [one.id, two.id])
            #expect(devices.allSatisfy { $0["registered_at"] is Int && $0["last_seen_at"] is Int })
        }
    }
}
