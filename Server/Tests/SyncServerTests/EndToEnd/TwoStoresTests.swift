import Foundation
import SyncServerHarness
import PostgresNIO
// SyncInternals: the store's full-sync flag, which these tests check; not API an app sees.
@_spi(SyncInternals) import SessionStore
import SessionSync
import Testing

/// Two real stores, each with the library's own sync client, see each other's
/// tabs through the real server and PostgreSQL, and what leaves a device is
/// sealed: no URL or title reaches the database.
@Suite("end to end: two stores")
struct TwoStoresTests {
    @Test func twoStores_seeEachOthersTabs_andTheirChanges() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let (window, laptopTabs) = try laptop.window([
                ("Rust book", "https://doc.rust-lang.org/book/"), ("Weather", "https://weather.example/today"),
                ("Recipes", "https://cooking.example/soup"),
            ])
            try phone.window([("Maps", "https://maps.example/route")])

            try await laptop.client.sync()
            try await phone.client.sync()
            try await laptop.client.sync()
            #expect(try phone.remoteURLs() == ["Laptop": [
                "https://doc.rust-lang.org/book/", "https://weather.example/today", "https://cooking.example/soup",
            ]])
            #expect(try laptop.remoteURLs() == ["Phone": ["https://maps.example/route"]])

            // A navigation, a move and a close on the laptop reach the phone; the closed tab is a closed one there.
            try await laptop.histories.commit(NavigationItem(url: "https://weather.example/tomorrow", title: "Tomorrow"), in: laptopTabs[1])
            try await laptop.tabs.move(in: window, from: 0, to: 2)
            try await laptop.tabs.close(in: window, at: 0)
            let report = try await laptop.client.sync()
            #expect(report.uploaded >= 3 && report.uploaded <= 8)
            try await phone.client.sync()
            #expect(try phone.remoteURLs() == ["Laptop": ["https://cooking.example/soup", "https://doc.rust-lang.org/book/"]])
            let closed = try #require(try phone.sync.remoteDevices().first?.closedTabs.first)
            #expect(closed.url == "https://weather.example/tomorrow" && closed.title == "Tomorrow")

            // The records the server holds: one per record id, the latest version of each.
            let duplicates = try await server.scalar(
                "SELECT count(*) FROM (SELECT record_id FROM records GROUP BY account_id, record_id HAVING count(*) > 1) AS d")
            #expect(duplicates == 0)
        }
    }

    @Test func livePushes_reachTheOtherDevice_withoutAnyoneAsking() async throws {
        try await TestServer.with { server in
            var fast = SyncClient.Configuration()
            fast.debounce = .milliseconds(50)
            fast.longPollSeconds = 5
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL, configuration: fast)
            let phone = try SyncDevice(
                name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL, configuration: fast)
            let (_, tabs) = try laptop.window([("Start", "https://start.example/")])
            let running = [Task { await laptop.client.run() }, Task { await phone.client.run() }]

            #expect(try await eventually { try phone.remoteURLs()["Laptop"] == ["https://start.example/"] })
            try await laptop.histories.commit(NavigationItem(url: "https://next.example/", title: "Next"), in: tabs[0])
            #expect(try await eventually { try phone.remoteURLs()["Laptop"] == ["https://next.example/"] })
            let status = await laptop.client.status
            #expect(status.lastError == nil)
            // Cancelling `run()` ends it, a long poll under way included.
            let t0 = Date()
            for task in running { task.cancel() }
            for task in running { await task.value }
            print("TIMING cancel", Date().timeIntervalSince(t0))
        }
    }

    @Test func theDatabase_holdsNoURLOrTitle_evenDecoded() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop secret-device-name", server: server.process.baseURL)
            let secrets = ["zebra-secret-host.example", "Quokka private title", "flamingo-path-segment"]
            try laptop.window([
                (secrets[1], "https://\(secrets[0])/\(secrets[2])?q=1"),
                ("Another Quokka private title", "https://\(secrets[0])/other"),
            ])
            try await laptop.client.sync()
            let dump = try PGDump.dump(server.databaseURL)
            #expect(dump.contains("COPY public.records"))  // the dump did dump the records
            for secret in secrets + ["secret-device-name"] {
                #expect(!PGDump.containsAnywhere(dump, secret), "\(secret) is readable in pg_dump's output")
            }
        }
    }

    @Test func aTamperedRecord_isSkippedAndReported_andChangesNothingHere() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            try laptop.window([("Kept", "https://kept.example/")])
            try await laptop.client.sync()
            try await phone.client.sync()
            let before = try phone.remoteURLs()
            #expect(before == ["Laptop": ["https://kept.example/"]])

            // The server flips one byte of each tab record and re-announces it after the phone's cursor.
            try await server.sql { connection in
                _ = try await connection.query("""
                    UPDATE records SET sealed = set_byte(sealed, 20, get_byte(sealed, 20) # 1), version = version + 1,
                        seq = seq + (SELECT counter FROM accounts WHERE accounts.account_id = records.account_id)
                    WHERE length(sealed) > 0
                    """, logger: TestPostgres.logger)
                _ = try await connection.query("UPDATE accounts SET counter = counter * 2 + 10", logger: TestPostgres.logger)
            }
            let report = try await phone.client.sync()
            #expect(report.rejected.count == 2)  // the tab and the device record
            #expect(try phone.remoteURLs() == before)
        }
    }

    @Test func restoringASnapshot_tombstonesWhatIsGone_andNeverReusesAVersion() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let (window, _) = try laptop.window([("Old", "https://old.example/")])
            try await laptop.client.sync()
            let snapshot = try #require(try await laptop.database.takeSnapshot())
            try await laptop.tabs.insert(WebState(), in: window, params: .automatic(), navigatingTo: NavigationItem(url: "https://new.example/"))
            try await laptop.client.sync()
            try await phone.client.sync()
            #expect(try phone.remoteURLs()["Laptop"]?.sorted() == ["https://new.example/", "https://old.example/"])

            // Back to the snapshot: the rows, the outbox and the version counter are older than the server's.
            try await laptop.database.restoreSnapshot(named: snapshot.name)
            #expect(try laptop.sync.state().fullSyncNeeded)
            try await laptop.client.sync()  // a replayed version would be refused (409) and throw here
            try await phone.client.sync()
            #expect(try phone.remoteURLs()["Laptop"] == ["https://old.example/"])
            #expect(try !laptop.sync.state().fullSyncNeeded)

            // The same after an import that replaces the content.
            let archive = try await laptop.database.exportArchive()
            try await laptop.database.importArchive(archive, replacing: true)
            try await laptop.client.sync()
            try await phone.client.sync()
            #expect(try phone.remoteURLs()["Laptop"] == ["https://old.example/"])

            // And after `recover` into a new file: its sync tables start empty, the client
            // (with the same keys) turns sync on again, sends everything, and the server
            // still sees every version as new.
            try await laptop.tabs.insert(
                WebState(), in: window, params: .automatic(), navigatingTo: NavigationItem(url: "https://later.example/"))
            try await laptop.client.sync()
            let recovered = laptop.directory.appendingPathComponent("recovered.sqlite").path
            _ = try SessionStoreFile.recover(from: laptop.path, to: recovered)
            let database = try await SessionDatabase.open(atPath: recovered)
            defer { try? database.close() }
            let storage = SyncStorage(database: database)
            #expect(try !storage.state().isEnabled)
            try await SessionStore.SQLiteWebStateListRepository(database: database).close(in: window, at: 0)
            let client = try SyncClient(storage: storage, keyStore: laptop.keys, serverURL: server.process.baseURL)
            try await client.sync()
            try await phone.client.sync()
            #expect(try phone.remoteURLs() == ["Laptop": ["https://later.example/"]])
        }
    }
}
