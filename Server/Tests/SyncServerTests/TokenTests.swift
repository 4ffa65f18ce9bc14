import Crypto
import Foundation
import SyncServerHarness
import Testing

@Suite("tokens")
struct TokenTests {
    @Test func aRegisteredDeviceGetsAToken() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            #expect(try await server.client.register(device).status == 201)
            let answer = try await server.client.send("POST", "/v1/token", json: try device.tokenRequest())
            #expect(answer.status == 200)
            #expect((answer.json["token"] as? String)?.split(separator: ".").count == 3)
            let expiresAt = answer.json["expires_at"] as? Int ?? 0
            let now = Int(Date().timeIntervalSince1970)
            #expect((now + 800...now + 1000).contains(expiresAt))
        }
    }

    @Test func aStaleIssuedAtIsRefused() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            _ = try await server.client.register(device)
            let stale = Int64(Date().timeIntervalSince1970) - 301
            let answer = try await server.client.send("POST", "/v1/token", json: try device.tokenRequest(issuedAt: stale))
            #expect(answer.status == 403)
            // 310: the server reads its clock later than this line, perhaps seconds later on a loaded machine.
            let future = Int64(Date().timeIntervalSince1970) + 310
            #expect(try await server.client.send("POST", "/v1/token", json: try device.tokenRequest(issuedAt: future)).status == 403)
        }
    }

    @Test func anUnknownDeviceOrBadSignatureIsRefused() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let account = TestAccount()
            let unknown = TestDevice(account: account)
            // No such account yet: 404 no_account; an unknown device of an existing account: 403.
            #expect(try await server.client.send("POST", "/v1/token", json: try unknown.tokenRequest()).errorCode == "no_account")
            let device = TestDevice(account: account)
            _ = try await server.client.register(device)
            #expect(try await server.client.send("POST", "/v1/token", json: try unknown.tokenRequest()).status == 403)
            let wrongKey = TestDevice(account: account, id: device.id)
            #expect(try await server.client.send("POST", "/v1/token", json: try wrongKey.tokenRequest()).status == 403)
        }
    }

    @Test func missingExpiredForeignAndGarbageTokensAre401() async throws {
        let secret = "test-secret-\(UUID().uuidString)"
        try await TestServer.with(environment: ["SESSIONSTORE_SYNC_JWT_SECRET": secret]) { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            _ = try await server.client.token(for: device)
            let now = Int64(Date().timeIntervalSince1970)
            let expired = JWT.hs256(secret: secret, sub: device.id, account: device.account.accountID, exp: now - 10)
            let valid = JWT.hs256(secret: secret, sub: device.id, account: device.account.accountID, exp: now + 600)
            let foreign = JWT.hs256(secret: "another secret", sub: device.id, account: device.account.accountID, exp: now + 600)
            let cases: [[String: String]] = [
                [:],
                ["Authorization": "Bearer"],
                ["Authorization": "Basic abc"],
                ["Authorization": "Bearer garbage"],
                ["Authorization": "Bearer \(expired)"],
                ["Authorization": "Bearer \(foreign)"],
            ]
            for headers in cases {
                let answer = try await server.client.send("GET", "/v1/changes", headers: headers)
                #expect(answer.status == 401, "\(headers)")
                #expect(answer.errorCode != nil)
                let upload = try await server.client.send(
                    "POST", "/v1/records", json: ["records": []], headers: headers.merging(["Idempotency-Key": "k"]) { a, _ in a })
                #expect(upload.status == 401, "\(headers)")
            }
            // The same claims signed with the server's secret are accepted.
            #expect(try await server.client.changes(token: valid).status == 200)
        }
    }

    @Test func aRevokedDevicesTokenStopsWorking() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            #expect(try await server.client.changes(token: token).status == 200)
            _ = try await server.sql { connection in
                try await connection.query(
                    "UPDATE devices SET revoked_at = now() WHERE device_id = \(device.id)", logger: TestPostgres.logger)
            }
            #expect(try await server.client.changes(token: token).status == 401)
            #expect(try await server.client.send("POST", "/v1/token", json: try device.tokenRequest()).status == 403)
        }
    }
}

/// Builds HS256 JWTs by hand, to test tokens the server did not issue.
enum JWT {
    static func hs256(secret: String, sub: String, account: String, exp: Int64) -> String {
        let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = base64URL(Data(#"{"sub":"\#(sub)","acc":"\#(account)","exp":\#(exp)}"#.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(header).\(payload)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "\(header).\(payload).\(base64URL(Data(mac)))"
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
