import Foundation
import SyncServerHarness
// SyncInternals: the store's cursor, which these tests check; not API an app sees.
@_spi(SyncInternals) import SessionStore
import SessionSync
import Testing

/// What a device does when the server is not the one it last saw: an account
/// deleted (and perhaps made again), a server restored from an older `pg_dump`,
/// the same server behind another URL, and a device clock that is off.
@Suite("end to end: account generations, server identity and clocks")
struct AccountIdentityEndToEndTests {
    @Test func aDeletedAccount_isNeverMadeAgain_byADeviceThatStillHoldsTheSeed() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            try laptop.window([("Diary", "https://diary.example/")])
            try phone.window([("Maps", "https://maps.example/")])
            try await laptop.client.sync()
            try await phone.client.sync()
            let account = laptop.credentials.account.accountID
            try await laptop.client.deleteAccount()

            // The phone's next launch syncs: refused, and the account stays deleted.
            try phone.window([("More", "https://more.example/")])
            let next = try phone.nextLaunch(server: server.process.baseURL)
            await #expect(throws: SyncError.accountDeleted(serverURL: server.process.baseURL.absoluteString)) {
                try await next.sync()
            }
            #expect(try await server.scalar("SELECT count(*) FROM accounts WHERE account_id = \(account)") == 0)
            #expect(try await server.scalar("SELECT count(*) FROM records") == 0)
            // The phone keeps its tabs and its outbox.
            #expect(try Set(phone.openURLs()) == ["https://maps.example/", "https://more.example/"])
            #expect(try phone.sync.state().pendingCount > 0)

            // Pairing again is how the account is made anew; the phone's old join is then of another
            // generation, and it is still refused.
            let fresh = try SyncDevice(name: "Tablet", seed: laptop.credentials.seed, server: server.process.baseURL)
            try await fresh.client.sync()
            #expect(try await server.scalar("SELECT count(*) FROM accounts WHERE account_id = \(account)") == 1)
            await #expect(throws: SyncError.accountDeleted(serverURL: server.process.baseURL.absoluteString)) {
                try await phone.nextLaunch(server: server.process.baseURL).sync()
            }
            #expect(try await server.scalar("""
                SELECT count(*) FROM devices WHERE device_id = \(phone.credentials.device.deviceID)
                """) == 0)
        }
    }

    @Test func aServerRestoredFromAnOlderDump_isNoticed_andNothingIsUploaded() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            try laptop.window([("Diary", "https://diary.example/")])
            try await laptop.client.sync()
            try await phone.client.sync()
            let dump = try PGDump.dump(server.databaseURL)
            // After the backup: more tabs, synced.
            try laptop.window([("News", "https://news.example/"), ("Mail", "https://mail.example/")])
            try await laptop.client.sync()
            try await phone.client.sync()
            #expect(try phone.remoteURLs()["Laptop"]?.count == 3)

            // The operator restores the backup into a new database and serves it.
            let restoredURL = try await TestPostgres.shared.createDatabase()
            try PGDump.restore(dump, into: restoredURL)
            let restored = try await ServerProcess.start(databaseURL: restoredURL)
            do {
                try await checkRestored(restored, databaseURL: restoredURL, laptop: laptop, phone: phone)
            } catch {
                await restored.stop()
                try? await TestPostgres.shared.dropDatabase(restoredURL)
                throw error
            }
            await restored.stop()
            try? await TestPostgres.shared.dropDatabase(restoredURL)
        }
    }

    /// Each device's next launch against the restored server stops before it uploads anything.
    private func checkRestored(
        _ restored: ServerProcess, databaseURL restoredURL: String, laptop: SyncDevice, phone: SyncDevice
    ) async throws {
        let recordsBefore = try await TestServer.scalar(restoredURL, "SELECT count(*) FROM records")
        let counterBefore = try await TestServer.scalar(restoredURL, "SELECT max(counter) FROM accounts")

        try laptop.window([("Later", "https://later.example/")])
        for device in [laptop, phone] {
            let next = try device.nextLaunch(server: restored.baseURL)
            await #expect(throws: SyncError.self) { try await next.sync() }
            guard case .accountRestored(_, let counter, let cursor)? = await next.status.lastError else {
                Issue.record("expected accountRestored, got \(String(describing: await next.status.lastError))")
                continue
            }
            #expect(counter == counterBefore && cursor > counterBefore)
        }
        // Nothing was uploaded to the restored server, and the phone still shows the laptop's three tabs.
        #expect(try await TestServer.scalar(restoredURL, "SELECT count(*) FROM records") == recordsBefore)
        #expect(try await TestServer.scalar(restoredURL, "SELECT max(counter) FROM accounts") == counterBefore)
        #expect(try phone.remoteURLs()["Laptop"]?.count == 3)
    }

    @Test func anotherURLOfTheSameServer_keepsTheCursor_andResendsNothing() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            try laptop.window((0..<50).map { ("Tab \($0)", "https://tabs.example/\($0)") })
            try await laptop.client.sync()
            try await phone.client.sync()
            try await laptop.client.sync()
            let cursor = try laptop.sync.state().cursor

            // The same server as `localhost` instead of `127.0.0.1`.
            var components = URLComponents(url: server.process.baseURL, resolvingAgainstBaseURL: false)!
            #expect(components.host == "127.0.0.1")
            components.host = "localhost"
            let otherURL = components.url!
            let report = try await laptop.nextLaunch(server: otherURL).sync()
            #expect(report.uploaded == 0 && report.applied == 0)
            #expect(try laptop.sync.state().cursor >= cursor)
            #expect(try laptop.sync.state().serverURL == otherURL.absoluteString)

            // Another server (another database) is another account there: everything goes up again.
            try await TestServer.with { second in
                let report = try await laptop.nextLaunch(server: second.process.baseURL).sync()
                #expect(report.uploaded == 51)
            }
        }
    }

    @Test(arguments: [6.0 * 60, -2.0 * 86_400, 365.0 * 86_400])
    func aDeviceWhoseClockIsOff_syncs_andCommandsExpireOnTheServersClock(skew: TimeInterval) async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let skewed = try SyncDevice(
                name: "Skewed", seed: laptop.credentials.seed, server: server.process.baseURL, skew: skew)
            try skewed.window([("Skewed tab", "https://skewed.example/")])
            try laptop.window([("Laptop tab", "https://laptop.example/")])
            try await skewed.client.sync()
            try await laptop.client.sync()
            try await skewed.client.sync()
            #expect(try laptop.remoteURLs()["Skewed"] == ["https://skewed.example/"])
            #expect(try skewed.remoteURLs()["Laptop"] == ["https://laptop.example/"])

            // A command each way: sent, received, applied.
            try await laptop.client.sendTab(SyncSendTab(url: "https://to-skewed.example/"), to: skewed.credentials.device.deviceID)
            try await skewed.client.sendTab(SyncSendTab(url: "https://from-skewed.example/"), to: laptop.credentials.device.deviceID)
            try await laptop.client.sync()
            try await skewed.client.sync()
            try await laptop.client.sync()
            #expect(try skewed.openURLs().contains("https://to-skewed.example/"))
            #expect(try laptop.openURLs().contains("https://from-skewed.example/"))
            // The skewed device's command expires 10 days after it left, on the server's clock.
            let expiresIn = try await server.scalar("""
                SELECT extract(epoch FROM expires_at - now())::bigint FROM commands
                WHERE sender_device_id = \(skewed.credentials.device.deviceID)
                """)
            #expect(abs(expiresIn - 10 * 86_400) < 120, "expires in \(expiresIn) s")
        }
    }
}
