import Foundation
import SyncServerHarness
import PostgresNIO
import Testing

/// A record as stored in PostgreSQL opens with Python's `cryptography` and
/// nothing but the protocol document (`Tests/Scripts/open_record.py`, usage:
/// `SEED ACCOUNT_ID DEVICE_ID RECORD_ID VERSION SEALED_BASE64`).
@Suite("sealed records open outside Swift")
struct OpenRecordScriptTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/open_record.py").path

    static let pythonHasCryptography: Bool =
        (try? ChildProcess.run(["python3", "-c", "import cryptography"])) != nil

    @Test(.enabled(if: pythonHasCryptography, "needs python3 with the cryptography package"))
    func aStoredRecordOpensWithPython() async throws {
        try await TestServer.with { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let tab = UUID().uuidString.lowercased()
            let upload = try await server.client.upload(
                [try device.tabRecord(localID: tab, version: 3, title: "from swift")], token: token)
            #expect(upload.status == 200)

            let stored = try await server.sql { connection in
                let rows = try await connection.query(
                    "SELECT record_id, device_id, version, sealed FROM records", logger: TestPostgres.logger)
                for try await (id, deviceID, version, sealed) in rows.decode((String, String, Int64, Data).self) {
                    return (id, deviceID, version, sealed)
                }
                throw ChildProcess.Failure(description: "no record stored")
            }
            let seed = Data(device.account.seed).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(seed.count == 43)
            let output = try ChildProcess.run([
                "python3", Self.script, seed, device.account.accountID, stored.1, stored.0,
                String(stored.2), stored.3.base64EncodedString(),
            ])
            let opened = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] ?? [:]
            #expect(opened["kind"] as? String == "tab")
            let payload = opened["payload"] as? [String: Any] ?? [:]
            #expect(payload["id"] as? String == tab)
            #expect(payload["title"] as? String == "from swift")
        }
    }
}
