import Foundation
import SessionStore
import SessionSync
import SyncServerHarness
import Testing

/// Saved groups shared by the account's devices (protocol version 3): real stores, the library's
/// sync client, the real server and PostgreSQL.
@Suite("end to end: saved groups")
struct SavedGroupsEndToEndTests {
    /// A window of `pages` on `device`, its first `grouped` tabs made a group titled `title` and saved.
    static func savedGroup(
        on device: SyncDevice, title: String, pages: [(title: String, url: String)], grouped: Int
    ) throws -> TabGroupID {
        let (window, _) = try device.window(pages)
        let group = try device.tabs.createGroup(
            in: window, at: Array(0..<grouped), visualData: TabGroupVisualData(title: title, color: .blue))
        try device.savedGroups.saveAndClose(group, in: window)
        return group
    }

    /// Each saved group as `title colour: url, url`, sorted.
    static func shown(_ device: SyncDevice) throws -> [String] {
        try device.savedGroups.savedGroups().map { group in
            "\(group.visualData.title) \(group.visualData.color.rawValue): "
                + group.tabs.map { $0.url ?? "" }.joined(separator: ", ")
        }.sorted()
    }

    @Test func aSavedGroupReachesTheOtherDevice_andARenameThere_comesBackAsOneSmallRecord() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let group = try Self.savedGroup(on: laptop, title: "Trip", pages: [
                ("Flights", "https://flights.example/"), ("Hotel", "https://hotel.example/"),
                ("News", "https://news.example/"),
            ], grouped: 2)
            try await laptop.client.sync()
            try await phone.client.sync()
            #expect(try Self.shown(phone) == ["Trip blue: https://flights.example/, https://hotel.example/"])
            // The group's tabs, not the window's third one, and no window on the phone.
            #expect(try await phone.browsers.browsers().isEmpty)

            try await phone.savedGroups.update(group, visualData: TabGroupVisualData(title: "Trip to Lisbon", color: .blue))
            let rename = try await phone.client.sync()
            #expect(rename.uploaded == 1)
            #expect(rename.uploadedBytes < 2_048)
            try await laptop.client.sync()
            #expect(try Self.shown(laptop) == ["Trip to Lisbon blue: https://flights.example/, https://hotel.example/"])
            // Nothing new to upload afterwards: the merge written into the rows is not an edit.
            #expect(try await laptop.client.sync().uploaded == 0)
            #expect(try await phone.client.sync().uploaded == 0)
            // The server holds account-wide records only: one group, two tabs.
            #expect(try await server.scalar("SELECT count(*) FROM account_records") == 3)
        }
    }

    @Test func concurrentOfflineEdits_mergeFieldByField_andADeleteWinsOverOlderEdits() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let tablet = try SyncDevice(name: "Tablet", seed: laptop.credentials.seed, server: server.process.baseURL)
            let group = try Self.savedGroup(on: laptop, title: "Reading", pages: [
                ("One", "https://one.example/"), ("Two", "https://two.example/"),
            ], grouped: 2)
            for device in [laptop, phone, tablet] { try await device.client.sync() }

            // Offline: the phone renames, the laptop recolours; both land whatever the order.
            try await phone.savedGroups.update(group, visualData: TabGroupVisualData(title: "Papers", color: .blue))
            try await Task.sleep(for: .milliseconds(5))
            try await laptop.savedGroups.update(group, visualData: TabGroupVisualData(title: "Reading", color: .green))
            try await laptop.client.sync()
            try await phone.client.sync()  // a 409 on the group's record: fetched, merged, uploaded again
            for device in [laptop, phone, tablet] { try await device.client.sync() }
            let expected = ["Papers green: https://one.example/, https://two.example/"]
            #expect(try Self.shown(laptop) == expected)
            #expect(try Self.shown(phone) == expected)
            #expect(try Self.shown(tablet) == expected)

            // The tablet deletes; the phone, which has not heard of it, renames before: deleted everywhere.
            try await phone.savedGroups.update(group, visualData: TabGroupVisualData(title: "Old rename", color: .green))
            try await Task.sleep(for: .milliseconds(5))
            try await tablet.savedGroups.delete(group)
            try await tablet.client.sync()
            try await phone.client.sync()
            for device in [laptop, phone, tablet] { try await device.client.sync() }
            #expect(try Self.shown(laptop).isEmpty)
            #expect(try Self.shown(phone).isEmpty)
            #expect(try Self.shown(tablet).isEmpty)
            // An edit after the delete revives nothing, either: only saving the group again would.
            #expect(try await server.scalar("SELECT count(*) FROM account_records") == 3)
        }
    }

    @Test func reopeningOpensTheTabsInAWindow_andTakesTheGroupOutOfEveryDevicesSavedGroups() async throws {
        try await TestServer.with { server in
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL)
            let phone = try SyncDevice(name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL)
            let group = try Self.savedGroup(on: laptop, title: "Later", pages: [
                ("A", "https://a.example/"), ("B", "https://b.example/"),
            ], grouped: 2)
            try await laptop.client.sync()
            try await phone.client.sync()
            let window = try await phone.browsers.createBrowser().id
            let range = try await phone.savedGroups.reopen(group, in: window)
            #expect(range == 0..<2)
            #expect(try phone.openURLs() == ["https://a.example/", "https://b.example/"])
            try await phone.client.sync()
            try await laptop.client.sync()
            #expect(try Self.shown(laptop).isEmpty)
            // The phone's window shows the tabs to the laptop, as any window's.
            #expect(try laptop.remoteURLs()["Phone"] == ["https://a.example/", "https://b.example/"])
        }
    }
}
