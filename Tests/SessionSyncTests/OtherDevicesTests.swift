import Foundation
import SessionConsumers
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing
@testable import SessionSync

/// Other devices' tabs as an app uses them: pushed to a consumer on the main
/// queue as records arrive, opened here with their navigations, and forgotten
/// when browsing data they show is cleared.
@MainActor
@Suite struct OtherDevicesTests {
    final class Recorder: OtherDevicesConsumer {
        let log = EventLog<OtherDevicesSnapshot>()
        func configure(with snapshot: OtherDevicesSnapshot) {
            dispatchPrecondition(condition: .onQueue(.main))
            log.append(snapshot)
        }
        func update(to snapshot: OtherDevicesSnapshot) {
            dispatchPrecondition(condition: .onQueue(.main))
            log.append(snapshot)
        }
        func otherDevicesBecameUnavailable(_ reason: Unavailability) {}
    }

    static let other = "22222222-2222-4222-8222-222222222222"

    /// A record of another device, as a sync would have opened it.
    static func received(
        _ content: SyncRecordContent, id: String, version: Int64 = 1, device: String = other, at modified: Date = Date()
    ) throws -> SyncReceivedRecord {
        SyncReceivedRecord(
            recordID: id, deviceID: device, sequence: version, version: version,
            modifiedAt: modified,
            content: (content, String(decoding: try content.encoded(), as: UTF8.self)))
    }

    static func remoteTab(_ id: String, urls: [String], current: Int) -> SyncedTab {
        SyncedTab(
            id: id, window: "44444444-4444-4444-8444-444444444444", sortKey: 1, pinned: false, group: nil, opener: nil,
            lastActive: 1_790_000_000_000, current: current,
            navigations: urls.enumerated().map { index, url in
                SyncedNavigation(url: url, title: "Title \(index)", time: 1_790_000_000_000 + Int64(index))
            })
    }

    private func paired(_ store: TemporaryStore) throws -> SyncStorage {
        let sync = SyncStorage(database: store.database)
        try sync.enable(
            accountID: String(repeating: "0", count: 32), deviceID: "11111111-1111-4111-8111-111111111111",
            deviceName: "Here", formFactor: "desktop")
        return sync
    }

    @Test func theMediator_pushesOtherDevicesAsTheirRecordsArrive() async throws {
        let store = try TemporaryStore.onDisk()
        let sync = try paired(store)
        let recorder = Recorder()
        let mediator = OtherDevicesMediator(sync: sync, consumer: recorder)
        defer { mediator.disconnect() }
        try await recorder.log.wait { $0.count == 1 }
        #expect(recorder.log.events[0].devices.isEmpty)

        try sync.apply([
            try Self.received(.device(SyncedDevice(name: "Phone", formFactor: "phone", windows: [])), id: String(repeating: "d", count: 32)),
            try Self.received(.tab(Self.remoteTab("33333333-3333-4333-8333-333333333333", urls: ["https://a.example/"], current: 0)),
                              id: String(repeating: "a", count: 32)),
        ], cursor: 2)
        try await recorder.log.wait { $0.last?.tabCount == 1 }
        let device = try #require(recorder.log.events.last?.devices.first)
        #expect(device.name == "Phone" && device.windows.first?.tabs.first?.url == "https://a.example/")
    }

    @Test func aDeviceSilentFor28Days_isHidden_notDropped() async throws {
        let store = try TemporaryStore.onDisk()
        let sync = try paired(store)
        let silent = "55555555-5555-4555-8555-555555555555"
        try sync.apply([
            try Self.received(.device(SyncedDevice(name: "Phone", formFactor: "phone", windows: [])), id: String(repeating: "d", count: 32)),
            try Self.received(
                .device(SyncedDevice(name: "Old tablet", formFactor: "tablet", windows: [])), id: String(repeating: "e", count: 32),
                device: silent, at: Date().addingTimeInterval(-29 * 24 * 3600)),
        ], cursor: 2)
        let recorder = Recorder()
        let mediator = OtherDevicesMediator(sync: sync, consumer: recorder)
        defer { mediator.disconnect() }
        try await recorder.log.wait { $0.count == 1 }
        #expect(recorder.log.events[0].devices.map(\.name) == ["Phone"])
        #expect(recorder.log.events[0].hiddenDevices.map(\.name) == ["Old tablet"])
    }

    @Test func openingARemoteTabHere_bringsItsNavigations() async throws {
        let store = try TemporaryStore.onDisk()
        let sync = try paired(store)
        let (browser, _) = try store.seed("| a*")
        let urls = ["https://one.example/", "https://two.example/", "https://three.example/"]
        try sync.apply([try Self.received(
            .tab(Self.remoteTab("33333333-3333-4333-8333-333333333333", urls: urls, current: 1)),
            id: String(repeating: "a", count: 32))], cursor: 1)
        let opener = RemoteTabOpener(sync: sync, tabs: store.tabs, histories: store.histories)
        let tab = try await opener.open(String(repeating: "a", count: 32), in: browser)
        let history = try await store.histories.history(of: tab)
        #expect(history.items.map(\.url) == urls && history.currentIndex == 1)
        let list = try await store.tabs.webStateList(in: browser)
        #expect(list.count == 2 && list.activeWebState?.id == tab)
        await #expect(throws: StorageError.self) { try await opener.open(String(repeating: "f", count: 32), in: browser) }
    }

    @Test func clearingBrowsingData_forgetsRemoteTabsThatShowedIt() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try paired(store)
        try sync.apply([
            try Self.received(.tab(Self.remoteTab("33333333-3333-4333-8333-333333333333",
                                                   urls: ["https://secret.example/x", "https://kept.example/"], current: 1)),
                              id: String(repeating: "a", count: 32)),
            try Self.received(.tab(Self.remoteTab("55555555-5555-4555-8555-555555555555",
                                                   urls: ["https://kept.example/"], current: 0)),
                              id: String(repeating: "b", count: 32)),
        ], cursor: 2)
        try store.histories.clearBrowsingData(.host("secret.example"))
        let left = try sync.remoteDevices().first?.windows.first?.tabs.map(\.tabID)
        #expect(left == ["55555555-5555-4555-8555-555555555555"])
        #expect(try PlainSQLite.strings("SELECT count(*) FROM sync_remote_records WHERE payload LIKE '%secret%'", atPath: store.path!) == ["0"])
        try store.histories.clearBrowsingData(.all)
        #expect(try sync.remoteDevices().first?.tabCount == 0)
    }
}
