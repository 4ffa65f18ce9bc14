import Foundation
import NIOCore
import PostgresNIO
import SessionStore
import SessionSync
import SyncServerHarness
import Testing

/// What a server that writes straight into PostgreSQL can do to a reader
/// (docs/sync-protocol.md, "What a device detects"): forge deletions, replay
/// older versions. Every one is reported, and no tab is dropped; the deletions
/// the account did make (sealed tombstones, signed revocations) still apply.
@Suite("end to end: forged deletions and replays")
struct ForgedDeletionsTests {
    @Test func hundredForgedTombstones_andHundredReplays_areAllReported_andNoTabIsDropped() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let (_, tabs) = try laptop.window((0..<200).map { ("Page \($0)", "https://site.example/\($0)") })
            try await laptop.client.sync()
            // The first versions, as the server holds them: what it will replay.
            let first = try await sealedRecords(server, deviceID: laptop.credentials.device.deviceID)

            // Half the tabs move on; the phone sees every tab at its newest.
            for (index, tab) in tabs.enumerated().dropFirst(100) {
                try await laptop.histories.commit(
                    NavigationItem(url: "https://site.example/\(index)/next", title: "Next \(index)"), in: tab)
            }
            try await laptop.client.sync()
            try await phone.client.sync()
            let newest = try phone.remoteURLs()
            #expect(newest["Laptop"]?.count == 200)
            let remoteTabs = try #require(try phone.sync.remoteDevices().first).windows.flatMap(\.tabs)
            let moved = remoteTabs.filter { $0.url.hasSuffix("/next") }.map(\.id)
            let unmoved = remoteTabs.filter { !$0.url.hasSuffix("/next") }.map(\.id)
            #expect(moved.count == 100 && unmoved.count == 100)

            // The server forges a tombstone of each unmoved tab (its version plus one, a new
            // sequence number) and replays the first version of each moved one.
            try await server.sql { connection in
                let counter = try await counterOf(connection)
                for (offset, id) in unmoved.enumerated() {
                    _ = try await connection.query("""
                        UPDATE records SET tombstone = true, sealed = NULL, size = 0, version = version + 1,
                            seq = \(counter + 1 + Int64(offset)), modified_at = now()
                        WHERE record_id = \(id)
                        """, logger: TestPostgres.logger)
                }
                for (offset, id) in moved.enumerated() {
                    let old = try #require(first[id])
                    #expect(old.version < Int64.max)
                    _ = try await connection.query("""
                        UPDATE records SET tombstone = false, sealed = \(ByteBuffer(bytes: old.sealed)),
                            version = \(old.version), seq = \(counter + 101 + Int64(offset)), modified_at = now()
                        WHERE record_id = \(id)
                        """, logger: TestPostgres.logger)
                }
                _ = try await connection.query(
                    "UPDATE accounts SET counter = \(counter + 200)", logger: TestPostgres.logger)
            }

            let report = try await phone.client.sync()
            #expect(Set(report.forgedDeletions) == Set(unmoved))
            #expect(Set(report.replayed) == Set(moved))
            #expect(report.forgedDeletions.count + report.replayed.count == 200)
            #expect(report.removed == 0 && report.applied == 0 && report.rejected.isEmpty)
            #expect(try phone.remoteURLs() == newest)

            // A fetch again from 0 (the server says the phone's cursor is older than the tombstones
            // it kept: `410`, and the phone forgets the remote tabs) still reports all 200: the floors
            // outlive it. The tabs cannot come back: the server withholds them now.
            try await server.execute("UPDATE accounts SET counter = counter + 1, pruned_seq = counter + 1")
            let again = try await phone.client.sync()
            #expect(Set(again.forgedDeletions) == Set(unmoved) && Set(again.replayed) == Set(moved))
        }
    }

    @Test func aSealedTombstone_removesTheTab_andTheOlderVersionStaysOutAfterwards() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let (window, _) = try laptop.window([("Kept", "https://kept.example/"), ("Gone", "https://gone.example/")])
            try await laptop.client.sync()
            try await phone.client.sync()
            let gone = try #require(try phone.sync.remoteDevices().first?.windows.first?.tabs.last)
            #expect(gone.url == "https://gone.example/")
            let live = try #require(try await sealedRecords(server, deviceID: laptop.credentials.device.deviceID)[gone.id])

            try await laptop.tabs.close(in: window, at: 1)
            try await laptop.client.sync()
            // What the server holds of the tab: a tombstone, sealed.
            #expect(try await server.scalar(
                "SELECT count(*) FROM records WHERE record_id = \(gone.id) AND tombstone AND length(sealed) > 0") == 1)
            let report = try await phone.client.sync()
            #expect(report.removed == 1 && report.forgedDeletions.isEmpty && report.replayed.isEmpty)
            #expect(try phone.remoteURLs()["Laptop"] == ["https://kept.example/"])

            // The server brings the live version back: a replay below the deletion's version.
            try await server.sql { connection in
                let counter = try await counterOf(connection)
                _ = try await connection.query("""
                    UPDATE records SET tombstone = false, sealed = \(ByteBuffer(bytes: live.sealed)),
                        version = \(live.version), seq = \(counter + 1) WHERE record_id = \(gone.id)
                    """, logger: TestPostgres.logger)
                _ = try await connection.query("UPDATE accounts SET counter = \(counter + 1)", logger: TestPostgres.logger)
            }
            let replayed = try await phone.client.sync()
            #expect(replayed.replayed == [gone.id])
            #expect(try phone.remoteURLs()["Laptop"] == ["https://kept.example/"])
        }
    }

    @Test func aSignedRevocation_removesTheRevokedDevicesTabs() async throws {
        try await TestServer.with { server in
            let (laptop, lost, tablet) = try await lostPhoneSeenByATablet(server)
            #expect(try tablet.remoteURLs()["Old phone"]?.count == 2)

            try await laptop.client.revoke(device: lost.credentials.device.deviceID)
            #expect(try await server.scalar("""
                SELECT count(*) FROM devices WHERE device_id = \(lost.credentials.device.deviceID)
                    AND length(revocation_signature) = 64
                """) == 1)
            let report = try await tablet.client.sync()
            #expect(report.forgedDeletions.isEmpty && report.replayed.isEmpty)
            #expect(report.removed == 3)  // two tabs and the device record
            #expect(try tablet.remoteURLs()["Old phone"] ?? [] == [])
        }
    }

    @Test func aRevocationWithATamperedSignature_removesNothing_andIsReported() async throws {
        try await TestServer.with { server in
            let (laptop, lost, tablet) = try await lostPhoneSeenByATablet(server)
            let before = try tablet.remoteURLs()

            try await laptop.client.revoke(device: lost.credentials.device.deviceID)
            try await server.execute("""
                UPDATE devices SET revocation_signature = set_byte(revocation_signature, 0, get_byte(revocation_signature, 0) # 1)
                WHERE device_id = \(lost.credentials.device.deviceID)
                """)
            let report = try await tablet.client.sync()
            #expect(report.forgedDeletions.count == 3)
            #expect(report.removed == 0)
            #expect(try tablet.remoteURLs() == before)
        }
    }

    @Test func anUnsealedTombstoneFromAVersion1Client_isReported_andTheTabKept() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            // A version 1 client of the same account: it seals records but not its deletions.
            let old = TestDevice(account: TestAccount(seed: Array(laptop.credentials.seed.bytes)))
            let token = try await server.client.token(for: old)
            let tab = UUID().uuidString.lowercased()
            let recordID = old.account.recordID(kind: "tab", deviceID: old.id, localID: tab)
            let payload = try JSONSerialization.data(withJSONObject: [
                "v": 1, "id": tab, "window": UUID().uuidString.lowercased(), "sort_key": 0, "pinned": false,
                "last_active": 0, "current": 0,
                "navigations": [["url": "https://old-client.example/", "title": "Old client", "time": 0]],
            ])
            let sealed = try old.account.seal(payload, deviceID: old.id, recordID: recordID, kind: "tab", version: 1)
            let uploaded = try await server.client.upload(
                [["id": recordID, "version": 1, "tombstone": false, "sealed": sealed.base64EncodedString()]], token: token)
            #expect(uploaded.status == 200)
            let first = try await laptop.client.sync()
            #expect(first.applied == 1)
            #expect(try laptop.sync.remoteDevices().flatMap { $0.windows.flatMap(\.tabs) }.map(\.url) == ["https://old-client.example/"])

            #expect(try await server.client.upload([tombstoneRecord(id: recordID, version: 2)], token: token).status == 200)
            let report = try await laptop.client.sync()
            #expect(report.forgedDeletions == [recordID])
            #expect(report.removed == 0)
            #expect(try laptop.sync.remoteDevices().flatMap { $0.windows.flatMap(\.tabs) }.map(\.url) == ["https://old-client.example/"])
        }
    }

    @Test func theServersSweepOfASilentDevice_appliesOnlyWhenThisDeviceHeardNothingForThatLong() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let tablet = try SyncDevice(name: "Tablet", seed: laptop.credentials.seed, server: server.process.baseURL)
            try laptop.window([("Silent", "https://silent.example/")])
            try await laptop.client.sync()
            try await phone.client.sync()
            try await tablet.client.sync()

            // The laptop went silent 200 days ago, as the server sees it; so it did for the
            // tablet (its own clock), but the phone heard from it just now.
            try await server.execute("""
                UPDATE devices SET last_seen_at = now() - interval '200 days'
                WHERE device_id = \(laptop.credentials.device.deviceID)
                """)
            try sqlite(tablet.path, "UPDATE sync_record_floors SET received_at = strftime('%Y-%m-%d %H:%M:%f', 'now', '-200 days')")
            #expect(try server.sweep().contains("tombstoned 2"))

            let tabletReport = try await tablet.client.sync()
            #expect(tabletReport.removed == 2 && tabletReport.forgedDeletions.isEmpty)
            #expect(try tablet.remoteURLs()["Laptop"] ?? [] == [])
            let phoneReport = try await phone.client.sync()
            #expect(phoneReport.forgedDeletions.count == 2 && phoneReport.removed == 0)
            #expect(try phone.remoteURLs()["Laptop"] == ["https://silent.example/"])
        }
    }
}

/// Three devices of one account: a laptop, an old phone with two tabs that is about to be
/// lost (revoked), and a tablet that holds the phone's tabs.
private func lostPhoneSeenByATablet(_ server: TestServer) async throws -> (SyncDevice, SyncDevice, SyncDevice) {
    let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
    let lost = try SyncDevice(name: "Old phone", seed: laptop.credentials.seed, server: server.process.baseURL)
    let tablet = try SyncDevice(name: "Tablet", seed: laptop.credentials.seed, server: server.process.baseURL)
    try lost.window([("Bank", "https://bank.example/"), ("Mail", "https://mail.example/")])
    try await lost.client.sync()
    try await tablet.client.sync()
    return (laptop, lost, tablet)
}

/// Each live record of the device, as PostgreSQL holds it: version and sealed bytes by record id.
private func sealedRecords(_ server: TestServer, deviceID: String) async throws -> [String: (version: Int64, sealed: [UInt8])] {
    try await server.sql { connection in
        let rows = try await connection.query(
            "SELECT record_id, version, sealed FROM records WHERE device_id = \(deviceID) AND NOT tombstone",
            logger: TestPostgres.logger)
        var records: [String: (version: Int64, sealed: [UInt8])] = [:]
        for try await (id, version, sealed) in rows.decode((String, Int64, ByteBuffer).self) {
            records[id] = (version, Array(buffer: sealed))
        }
        return records
    }
}

/// The (only) account's counter.
private func counterOf(_ connection: PostgresConnection) async throws -> Int64 {
    let rows = try await connection.query("SELECT counter FROM accounts", logger: TestPostgres.logger)
    for try await counter in rows.decode(Int64.self) { return counter }
    return 0
}

/// Runs `statement` on the store at `path` with the `sqlite3` tool, as another process would.
private func sqlite(_ path: String, _ statement: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", path, statement]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
}
