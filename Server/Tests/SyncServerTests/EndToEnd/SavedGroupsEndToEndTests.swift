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

    @Test func withBothDevicesRunning_aRenameAndATabMove_showOnTheOtherWithoutAnyoneAsking() async throws {
        try await TestServer.with { server in
            var fast = SyncClient.Configuration()
            fast.debounce = .milliseconds(50)
            fast.longPollSeconds = 5
            let laptop = try SyncDevice(name: "Laptop", server: server.process.baseURL, configuration: fast)
            let phone = try SyncDevice(
                name: "Phone", seed: laptop.credentials.seed, server: server.process.baseURL, configuration: fast)
            let running = [Task { await laptop.client.run() }, Task { await phone.client.run() }]
            defer { for task in running { task.cancel() } }
            let group = try Self.savedGroup(on: laptop, title: "Live", pages: [
                ("A", "https://a.example/"), ("B", "https://b.example/"),
            ], grouped: 2)
            #expect(try await eventually { try Self.shown(phone) == ["Live blue: https://a.example/, https://b.example/"] })
            try await phone.savedGroups.update(group, visualData: TabGroupVisualData(title: "Live 2", color: .blue))
            try await phone.savedGroups.moveTab(in: group, from: 1, to: 0)
            #expect(try await eventually { try Self.shown(laptop) == ["Live 2 blue: https://b.example/, https://a.example/"] })
            try await laptop.savedGroups.removeTab(at: 0, from: group)
            #expect(try await eventually { try Self.shown(phone) == ["Live 2 blue: https://a.example/"] })
            #expect(await laptop.client.status.lastError == nil)
            #expect(await phone.client.status.lastError == nil)
        }
    }

    @Test func aDeviceTwoDaysAhead_doesNotWinWithAnOlderRename() async throws {
        try await TestServer.with { server in
            let ahead = try SyncDevice(name: "Ahead", server: server.process.baseURL, skew: 2 * 86_400)
            let phone = try SyncDevice(name: "Phone", seed: ahead.credentials.seed, server: server.process.baseURL)
            let group = try Self.savedGroup(on: ahead, title: "Trip", pages: [("A", "https://a.example/")], grouped: 1)
            try await ahead.client.sync()
            try await phone.client.sync()
            // The device two days ahead renames first; the phone renames after it. Both offline.
            // The offset comes from the `Date` header, in whole seconds: edits over a second apart
            // keep their order whatever the skew.
            try await ahead.savedGroups.update(group, visualData: TabGroupVisualData(title: "Older", color: .blue))
            try await Task.sleep(for: .milliseconds(1_500))
            try await phone.savedGroups.update(group, visualData: TabGroupVisualData(title: "Newer", color: .blue))
            try await phone.client.sync()
            try await ahead.client.sync()
            try await phone.client.sync()
            #expect(try Self.shown(ahead) == ["Newer blue: https://a.example/"])
            #expect(try Self.shown(phone) == ["Newer blue: https://a.example/"])
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

/// Three devices edit saved groups through their repositories (save, rename, recolour, move or
/// remove a tab, delete, reopen into a window, save again), syncing now and then through the real server, then all
/// sync: every device shows the same saved groups. `SESSIONSTORE_TEST_E2E_SAVED_GROUP_SEEDS`
/// sets how many seeds (3 by default), `..._EDITS` how many edits per device (25).
@Suite("end to end: saved groups converge")
struct SavedGroupsConvergenceTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func setting(_ name: String, _ fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? fallback
    }

    /// The saved groups `device` shows, leaving out those whose id is open in one of its windows
    /// (reopened there: the account's saved copy is not shown beside the open one); and those ids.
    static func shown(_ device: SyncDevice) async throws -> (groups: [String], open: Set<String>) {
        var open = Set<String>()
        for browser in try await device.browsers.browsers() {
            open.formUnion(try await device.tabs.webStateList(in: browser.id).groups.keys.map(\.uuidString))
        }
        let groups = try await device.savedGroups.savedGroups().filter { !open.contains($0.id.uuidString) }.map { group in
            "\(group.id.uuidString.prefix(8)) \(group.visualData.title) \(group.visualData.color.rawValue): "
                + group.tabs.map { "\($0.id.uuidString.prefix(8))=\($0.url ?? "-")" }.joined(separator: " ")
        }.sorted()
        return (groups, open)
    }

    @Test func threeDevices_randomEdits_convergeThroughTheServer() async throws {
        let seeds = Self.setting("SESSIONSTORE_TEST_E2E_SAVED_GROUP_SEEDS", 3)
        let edits = Self.setting("SESSIONSTORE_TEST_E2E_SAVED_GROUP_EDITS", 25)
        try await TestServer.with { server in
            for seed in 1...seeds {
                var random = Generator(state: UInt64(seed))
                let first = try SyncDevice(name: "A", server: server.process.baseURL)
                let devices = [first] + (try ["B", "C"].map {
                    try SyncDevice(name: $0, seed: first.credentials.seed, server: server.process.baseURL)
                })
                // Reopened groups, by device: the window they are open in.
                var reopened: [[TabGroupID: BrowserID]] = [[:], [:], [:]]
                var made = 0
                for step in 0..<(edits * devices.count) {
                    let index = step % devices.count
                    let device = devices[index]
                    let groups = try await device.savedGroups.savedGroups()
                    let pick = groups.isEmpty ? nil : groups[Int.random(in: 0..<groups.count, using: &random)]
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0, 1:
                        made += 1
                        let count = Int.random(in: 1...3, using: &random)
                        _ = try SavedGroupsEndToEndTests.savedGroup(
                            on: device, title: "G\(made)",
                            pages: (0..<count).map { ("p\($0)", "https://s\(seed).example/\(made)/\($0)") }, grouped: count)
                    case 2 where pick != nil, 3 where pick != nil:
                        try await device.savedGroups.update(
                            pick!.id, visualData: TabGroupVisualData(title: "R\(step)", color: pick!.visualData.color))
                    case 4 where pick != nil:
                        let colors = TabGroupColor.allCases
                        try await device.savedGroups.update(pick!.id, visualData: TabGroupVisualData(
                            title: pick!.visualData.title, color: colors[Int.random(in: 0..<colors.count, using: &random)]))
                    case 5 where pick != nil:
                        try await device.savedGroups.delete(pick!.id)
                    case 6 where pick != nil:
                        let window = try await device.browsers.createBrowser().id
                        // A saved group left with no tab opens no group to save again.
                        if try await !device.savedGroups.reopen(pick!.id, in: window).isEmpty {
                            reopened[index][pick!.id] = window
                        }
                    case 8 where pick != nil && pick!.tabs.count > 1:
                        let count = pick!.tabs.count
                        try await device.savedGroups.moveTab(
                            in: pick!.id, from: Int.random(in: 0..<count, using: &random),
                            to: Int.random(in: 0..<count, using: &random))
                    case 9 where pick != nil && !pick!.tabs.isEmpty:
                        try await device.savedGroups.removeTab(
                            at: Int.random(in: 0..<pick!.tabs.count, using: &random), from: pick!.id)
                    case 7 where !reopened[index].isEmpty:
                        let (group, window) = reopened[index].first!
                        reopened[index][group] = nil
                        try await device.savedGroups.saveAndClose(group, in: window)
                    default:
                        break
                    }
                    if Int.random(in: 0..<3, using: &random) == 0 { try await device.client.sync() }
                }
                // Everyone syncs, in a shuffled order, twice round.
                for _ in 0..<2 {
                    for device in devices.shuffled(using: &random) { try await device.client.sync() }
                }
                let views = try await devices.asyncMap { try await Self.shown($0) }
                // Each device's view, leaving out what any device has open.
                let open = views.reduce(into: Set<String>()) { $0.formUnion($1.open) }
                let filtered = views.map { view in
                    view.groups.filter { line in !open.contains { $0.hasPrefix(String(line.prefix(8))) } }
                }
                #expect(filtered[0] == filtered[1] && filtered[1] == filtered[2], "seed \(seed): \(filtered)")
                #expect(!filtered[0].isEmpty || made == 0, "seed \(seed): nothing left to compare")
                for device in devices {
                    let problems = try SessionStoreFile.check(atPath: device.path)
                    #expect(problems.isEmpty, "seed \(seed): \(problems)")
                }
                print("saved groups E2E seed \(seed): \(filtered[0].count) groups agreed on, \(open.count) open in windows")
            }
        }
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
