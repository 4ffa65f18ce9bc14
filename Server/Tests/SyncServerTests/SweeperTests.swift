import Foundation
import Testing

/// The sweeper, run as `sessionstore-sync-server sweep` on rows backdated with
/// SQL. The servers here never sweep by themselves (`--sweep-interval 0`),
/// except the one that tests that they do.
@Suite("sweeper")
struct SweeperTests {
    static let noSweeps = ["--sweep-interval", "0"]

    @Test func oldTombstonesArePrunedAndACursorFromBeforeThemIs410() async throws {
        try await TestServer.with(arguments: Self.noSweeps) { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let records = (0..<4).map { _ in rawRecord(bytes: 10) }  // seq 1...4
            _ = try await server.client.upload(records, token: token)
            let ids = records.map { $0["id"] as! String }
            _ = try await server.client.upload([tombstoneRecord(id: ids[0], version: 2),
                                                tombstoneRecord(id: ids[1], version: 2)], token: token)  // seq 5, 6
            _ = try await server.client.upload([tombstoneRecord(id: ids[2], version: 2)], token: token)  // seq 7
            _ = try await server.client.upload([rawRecord(bytes: 10)], token: token)  // seq 8
            // The first two tombstones are 31 days old; the third is recent.
            try await server.execute("""
                UPDATE records SET modified_at = now() - interval '31 days'
                WHERE tombstone AND record_id = ANY(\([ids[0], ids[1]]))
                """)

            let report = try server.sweep()
            #expect(report.contains("pruned tombstones 2"), "\(report)")
            #expect(try await server.scalar("SELECT count(*) FROM records WHERE tombstone") == 1)
            #expect(try await server.scalar("SELECT pruned_seq FROM accounts") == 6)

            for stale in [1, 4, 5] as [Int64] {
                let answer = try await server.client.changes(token: token, after: stale)
                #expect(answer.status == 410, "after=\(stale)")
                #expect(answer.errorCode == "cursor_expired")
            }
            let current = try await server.client.changes(token: token, after: 6)
            #expect(current.status == 200)
            #expect(current.records.compactMap { $0["seq"] as? Int } == [7, 8])
            let fromZero = try await server.client.changes(token: token, after: 0)
            #expect(fromZero.status == 200)
            #expect(fromZero.records.compactMap { $0["seq"] as? Int } == [4, 7, 8])
        }
    }

    @Test func tombstoneDaysSetsHowLongTombstonesAreKept() async throws {
        try await TestServer.with(arguments: Self.noSweeps) { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let records = (0..<2).map { _ in rawRecord(bytes: 10) }
            _ = try await server.client.upload(records, token: token)
            let ids = records.map { $0["id"] as! String }
            _ = try await server.client.upload([tombstoneRecord(id: ids[0], version: 2)], token: token)
            _ = try await server.client.upload([tombstoneRecord(id: ids[1], version: 2)], token: token)
            try await server.execute("UPDATE records SET modified_at = now() - interval '6 days' WHERE record_id = \(ids[0])")
            try await server.execute("UPDATE records SET modified_at = now() - interval '4 days' WHERE record_id = \(ids[1])")
            try server.sweep(["--tombstone-days", "5"])
            #expect(try await server.scalar("SELECT count(*) FROM records WHERE record_id = \(ids[0])") == 0)
            #expect(try await server.scalar("SELECT count(*) FROM records WHERE record_id = \(ids[1])") == 1)
            #expect(try await server.scalar("SELECT pruned_seq FROM accounts") == 3)
        }
    }

    @Test func aDeviceSilentPastSweepDeviceDaysHasItsRecordsTombstoned() async throws {
        try await TestServer.with(arguments: Self.noSweeps) { (server: TestServer) async throws in
            let account = TestAccount()
            let silent = TestDevice(account: account), quiet = TestDevice(account: account)
            let active = TestDevice(account: account)
            let silentToken = try await server.client.token(for: silent)
            let quietToken = try await server.client.token(for: quiet)
            let activeToken = try await server.client.token(for: active)
            _ = try await server.client.upload([rawRecord(bytes: 10), rawRecord(bytes: 10, version: 5)], token: silentToken)
            _ = try await server.client.upload([rawRecord(bytes: 10)], token: quietToken)
            let cursor = Int64(try #require(try await server.client.upload([rawRecord(bytes: 10)], token: activeToken)
                .json["cursor"] as? Int))
            try await server.execute(
                "UPDATE devices SET last_seen_at = now() - interval '181 days' WHERE device_id = \(silent.id)")
            try await server.execute(
                "UPDATE devices SET last_seen_at = now() - interval '179 days' WHERE device_id = \(quiet.id)")

            let report = try server.sweep()
            #expect(report.contains("tombstoned 2"), "\(report)")
            let changes = try await server.client.changes(token: activeToken, after: cursor)
            #expect(changes.records.count == 2)
            #expect(changes.records.allSatisfy { $0["device_id"] as? String == silent.id && $0["tombstone"] as? Bool == true })
            #expect(Set(changes.records.compactMap { $0["version"] as? Int }) == [2, 6])
            #expect(try await server.scalar("SELECT count(*) FROM records WHERE NOT tombstone") == 2)
            #expect(try await server.scalar("SELECT live_records FROM accounts") == 2)
            // A second sweep finds nothing more to do.
            #expect(try server.sweep().contains("tombstoned 0"))
        }
    }

    @Test func aRevokedDevicesLeftoverRecordsAreTombstonedBySweeping() async throws {
        try await TestServer.with(arguments: Self.noSweeps) { (server: TestServer) async throws in
            let account = TestAccount()
            let lost = TestDevice(account: account), keeper = TestDevice(account: account)
            let lostToken = try await server.client.token(for: lost)
            _ = try await server.client.token(for: keeper)
            _ = try await server.client.upload([rawRecord(bytes: 10)], token: lostToken)
            // Revoked behind the API's back (or while its upload was under way): its record is still live.
            try await server.execute("UPDATE devices SET revoked_at = now() WHERE device_id = \(lost.id)")
            try server.sweep()
            #expect(try await server.scalar("SELECT count(*) FROM records WHERE NOT tombstone") == 0)
            #expect(try await server.scalar("SELECT live_records FROM accounts") == 0)
        }
    }

    @Test func sweepingDeletesExpiredRowsAndOldIdempotencyKeysAndKeepsUsageRight() async throws {
        try await TestServer.with(arguments: Self.noSweeps) { (server: TestServer) async throws in
            let account = TestAccount()
            let device = TestDevice(account: account), target = TestDevice(account: account)
            let token = try await server.client.token(for: device)
            _ = try await server.client.register(target)
            let now = Int64(Date().timeIntervalSince1970)
            var expired = rawRecord(bytes: 100)
            expired["expires_at"] = now - 60
            _ = try await server.client.upload([expired, rawRecord(bytes: 10)], token: token, key: "old-key")
            _ = try await server.client.upload([rawRecord(bytes: 10)], token: token, key: "new-key")
            let gone = testCommand(to: target.id), kept = testCommand(to: target.id)
            _ = try await server.client.postCommands([gone, kept], token: token)
            try await server.execute(
                "UPDATE commands SET expires_at = now() - interval '1 minute' WHERE command_id = \(gone["id"] as! String)")
            try await server.execute(
                "UPDATE idempotency SET created_at = now() - interval '25 hours' WHERE key = 'old-key'")

            let report = try server.sweep()
            #expect(report.contains("expired records 1"), "\(report)")
            #expect(report.contains("expired commands 1"), "\(report)")
            #expect(report.contains("idempotency keys 1"), "\(report)")
            #expect(try await server.scalar("SELECT count(*) FROM records") == 2)
            #expect(try await server.scalar("SELECT count(*) FROM commands") == 1)
            #expect(try await server.scalar("SELECT count(*) FROM idempotency WHERE key = 'new-key'") == 1)
            #expect(try await server.scalar("SELECT count(*) FROM idempotency") == 1)
            #expect(try await server.scalar("SELECT live_records FROM accounts") == 2)
            #expect(try await server.scalar("SELECT live_bytes FROM accounts") == 20)
        }
    }

    @Test func aSweepWakesTheHintPollsOfServingProcesses() async throws {
        try await TestServer.with(arguments: Self.noSweeps) { (server: TestServer) async throws in
            let account = TestAccount()
            let silent = TestDevice(account: account), reader = TestDevice(account: account)
            let silentToken = try await server.client.token(for: silent)
            let readerToken = try await server.client.token(for: reader)
            _ = try await server.client.upload([rawRecord(bytes: 10)], token: silentToken)
            try await server.execute(
                "UPDATE devices SET last_seen_at = now() - interval '181 days' WHERE device_id = \(silent.id)")
            let client = server.client
            let answer = try await withTimeout("the hint poll to be woken by the sweep", .seconds(45)) {
                let poll = Task { try await client.hints(token: readerToken, after: 1, wait: 55) }
                try await client.waitUntilWaiting(1)
                try server.sweep()
                return try await poll.valueCancellingWithCaller
            }
            #expect(answer.json["counter"] as? Int == 2)
        }
    }

    @Test func aServingProcessSweepsAtStartOnceItsSchemaIsMigrated() async throws {
        // A fresh database: the first sweep must wait for the migrations the server runs.
        try await TestServer.with { (server: TestServer) async throws in
            try await eventually("the first sweep") {
                (try? String(contentsOfFile: server.process.logPath, encoding: .utf8))?.contains("swept") == true
            }
            let log = try String(contentsOfFile: server.process.logPath, encoding: .utf8)
            #expect(!log.contains("sweep failed"), "\(log)")
        }
    }

    @Test func aServingProcessSweepsOnItsInterval() async throws {
        try await TestServer.with(arguments: ["--sweep-interval", "1"]) { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let record = rawRecord(bytes: 10)
            _ = try await server.client.upload([record], token: token)
            _ = try await server.client.upload([tombstoneRecord(id: record["id"] as! String, version: 2)], token: token)
            try await server.execute("UPDATE records SET modified_at = now() - interval '31 days' WHERE tombstone")
            try await eventually("the server to sweep the old tombstone") {
                try await server.scalar("SELECT count(*) FROM records") == 0
            }
            #expect(try await server.client.changes(token: token, after: 1).status == 410)
        }
    }

    @Test func devicesSilentPastHideDeviceDaysAreListedAsHidden() async throws {
        try await TestServer.with(arguments: Self.noSweeps) { (server: TestServer) async throws in
            let account = TestAccount()
            let active = TestDevice(account: account), away = TestDevice(account: account)
            let recent = TestDevice(account: account)
            let token = try await server.client.token(for: active)
            _ = try await server.client.register(away)
            _ = try await server.client.register(recent)
            try await server.execute(
                "UPDATE devices SET last_seen_at = now() - interval '29 days' WHERE device_id = \(away.id)")
            try await server.execute(
                "UPDATE devices SET last_seen_at = now() - interval '27 days' WHERE device_id = \(recent.id)")
            let devices = try await server.client.devices(token: token).json["devices"] as? [[String: Any]] ?? []
            let hidden = Dictionary(uniqueKeysWithValues: devices.map {
                ($0["device_id"] as? String ?? "", $0["hidden"] as? Bool)
            })
            #expect(hidden == [active.id: false, away.id: true, recent.id: false])
        }
    }
}
