import Foundation
import SyncServerHarness
import SessionStore
import SessionSync
import Testing

/// Devices and the account, driven by the library's client against the real
/// server: revoke, rename, delete the account, rotate the seed, and a quota
/// breach that shows as a typed error with nothing trimmed.
@Suite("end to end: devices and the account")
struct AccountsEndToEndTests {
    @Test func aRevokedDevice_leavesEveryOtherDevice_andCannotSyncAgain() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let lost = try SyncDevice(name: "Old phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let tablet = try SyncDevice(name: "Tablet", seed: laptop.credentials.seed, server: server.process.baseURL)
            try lost.window([("Bank", "https://bank.example/"), ("Mail", "https://mail.example/")])
            try await lost.client.sync()
            try await laptop.client.sync()
            try await tablet.client.sync()
            #expect(try tablet.remoteURLs()["Old phone"]?.count == 2)

            try await laptop.client.revoke(device: lost.credentials.device.deviceID)
            try await tablet.client.sync()
            try await laptop.client.sync()
            #expect(try tablet.remoteURLs()["Old phone"] == nil || tablet.remoteURLs()["Old phone"] == [])
            #expect(try laptop.remoteURLs()["Old phone"] == nil || laptop.remoteURLs()["Old phone"] == [])
            // The server lists it no more, and it can neither upload nor fetch.
            let listed = try await laptop.client.serverDevices().map(\.id)
            #expect(!listed.contains(lost.credentials.device.deviceID))
            try lost.window([("New", "https://new.example/")])
            await #expect(throws: SyncError.self) { try await lost.client.sync() }
            #expect(try await server.scalar("""
                SELECT count(*) FROM records WHERE device_id = \(lost.credentials.device.deviceID) AND NOT tombstone
                """) == 0)
        }
    }

    @Test func aRename_reachesTheOtherDevices() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            try await phone.client.sync()
            try phone.sync.rename(deviceName: "Alice's phone")
            try await phone.client.sync()
            try await laptop.client.sync()
            #expect(try laptop.sync.remoteDevices().map(\.name) == ["Alice's phone"])
        }
    }

    @Test func aDeletedAccount_leavesNoRowAndNoTraceInPGDump() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let bystander = try SyncDevice(name: "Someone else", server: server.process.baseURL)
            try laptop.window([("Diary", "https://diary.example/")])
            try phone.window([("Maps", "https://maps.example/")])
            try bystander.window([("Other", "https://other.example/")])
            for device in [laptop, phone, bystander] { try await device.client.sync() }
            try await laptop.client.sendTab(SyncSendTab(url: "https://pending.example/"), to: phone.credentials.device.deviceID)
            try await laptop.client.sync()

            let account = laptop.credentials.account.accountID
            try await laptop.client.deleteAccount()
            #expect(try !laptop.sync.state().isEnabled)
            for table in ["accounts", "devices", "records", "commands", "idempotency"] {
                #expect(try await server.scalar("SELECT count(*) FROM \(unescaped: table) WHERE account_id = \(account)") == 0,
                        "\(table) still holds rows of the account")
            }
            let dump = try PGDump.dump(server.databaseURL)
            #expect(!dump.contains(account))
            #expect(!dump.contains(phone.credentials.device.deviceID))
            #expect(dump.contains(bystander.credentials.account.accountID))
            // The other device's next sync is refused: its account is gone.
            await #expect(throws: SyncError.self) { try await phone.client.sync() }
        }
    }

    @Test func rotatingTheSeed_movesTheDevices_andLeavesTheRevokedOneOut() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let lost = try SyncDevice(name: "Lost", seed: laptop.credentials.seed, server: server.process.baseURL)
            try laptop.window([("Work", "https://work.example/")])
            try phone.window([("Maps", "https://maps.example/")])
            for device in [laptop, phone, lost] { try await device.client.sync() }

            try await laptop.client.revoke(device: lost.credentials.device.deviceID)
            let fresh = try SyncPairing.rotate(storage: laptop.sync, keyStore: laptop.keys)
            try SyncPairing.rotate(storage: phone.sync, keyStore: phone.keys, seed: fresh.seed)
            #expect(fresh.account.accountID != laptop.credentials.account.accountID)
            let newLaptop = try SyncClient(storage: laptop.sync, keyStore: laptop.keys, serverURL: server.process.baseURL)
            let newPhone = try SyncClient(storage: phone.sync, keyStore: phone.keys, serverURL: server.process.baseURL)
            try await newLaptop.sync()
            try await newPhone.sync()
            try await newLaptop.sync()
            #expect(try laptop.remoteURLs() == ["Phone": ["https://maps.example/"]])
            #expect(try phone.remoteURLs() == ["Laptop": ["https://work.example/"]])
            // The lost device's seed opens nothing of the new account: its records are sealed under other keys.
            let sealedInNewAccount = try await server.scalar(
                "SELECT count(*) FROM records WHERE account_id = \(fresh.account.accountID) AND NOT tombstone")
            #expect(sealedInNewAccount >= 4)
            #expect(lost.credentials.account.accountID != fresh.account.accountID)
        }
    }

    @Test func aQuotaBreach_isATypedError_andTrimsNothing() async throws {
        try await TestServer.with(arguments: ["--max-account-records", "4"]) { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            try laptop.window((0..<6).map { ("Tab \($0)", "https://tabs.example/\($0)") })
            await #expect(throws: SyncError.self) { try await laptop.client.sync() }
            let status = await laptop.client.status
            guard case .quotaExceeded(let quota, _, _)? = status.lastError else {
                Issue.record("expected a quota error, got \(String(describing: status.lastError))")
                return
            }
            #expect(quota == .records)
            #expect(status.lastError?.errorDescription?.contains("as many tabs as it may") == true)
            // Nothing trimmed: every record still waits in the outbox (the device record and six tabs).
            #expect(try laptop.sync.state().pendingCount == 7)
            #expect(try await server.scalar("SELECT count(*) FROM records") == 0)
        }
    }
}
