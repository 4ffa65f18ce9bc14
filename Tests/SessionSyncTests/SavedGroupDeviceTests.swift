import Foundation
import SessionModel
@_spi(SyncInternals) import SessionStorage
import SessionTestSupport
import Testing
@testable import SessionSync

/// The device side of saved-group sync (issue 39) on real stores: local edits become stamped
/// writes of the fields that changed, received records land in the rows as ordinary
/// transactions (observers see them), and tab-level edits from another device (add, remove, move
/// within and across groups) show as the merge says, keeping each moved tab's history.
@Suite struct SavedGroupDeviceTests {
    static let account = String(repeating: "0", count: 32)
    static let keys = AccountKeys(seed: try! SyncSeed(bytes: Data((0..<32).map { UInt8($0) })))
    static let sealer = SavedGroupSealer(account: keys)

    /// A store on disk with sync on, as device `device`.
    struct Device {
        let store: TemporaryStore
        let sync: SyncStorage
        let saved: SQLiteSavedTabGroupRepository
        let merger: SavedGroupMerger

        init(_ device: String) throws {
            store = try TemporaryStore.onDisk()
            sync = SyncStorage(database: store.database)
            try sync.enable(accountID: SavedGroupDeviceTests.account, deviceID: device, deviceName: device, formFactor: "desktop")
            saved = SQLiteSavedTabGroupRepository(database: store.database)
            merger = SavedGroupMerger(sealer: SavedGroupDeviceTests.sealer, device: device)
        }

        /// Runs the merge: this device's edits stamped at `wall`, `incoming` merged in.
        @discardableResult
        func merge(_ incoming: [SavedGroupMerger.Incoming] = [], wall: Int64 = 1_800_000_000_000) throws -> SavedGroupMerger.Outcome {
            try #require(try sync.withSavedGroups { rows in try merger.run(rows, incoming: incoming, wall: wall, offset: 0) })
        }

        /// Every record it holds, as the server would send them (version 1 more than known).
        func records() throws -> [SavedGroupMerger.Incoming] {
            try #require(try sync.withSavedGroups { rows in
                try rows.allRecords().map { stored in
                    SavedGroupMerger.Incoming(
                        recordID: stored.recordID, version: stored.version + 1,
                        record: try SavedGroupRecord.decoded(Data(stored.payload.utf8), kind: stored.kind))
                }
            })
        }

        /// A window of `urls`, grouped and saved as `title`; returns the group and its tabs.
        func saveGroup(_ title: String, urls: [String]) throws -> (TabGroupID, [WebStateID]) {
            let browser = try store.browsers.createBrowser().id
            var tabs: [WebStateID] = []
            for url in urls {
                let tab = WebState()
                try store.tabs.insert(tab, in: browser, params: .automatic(), navigatingTo: NavigationItem(url: url, title: url))
                try store.histories.commit(NavigationItem(url: url + "#2", title: url + "#2"), in: tab.id)
                tabs.append(tab.id)
            }
            let group = try store.tabs.createGroup(
                in: browser, at: Array(0..<urls.count), visualData: TabGroupVisualData(title: title, color: .blue))
            try saved.saveAndClose(group, in: browser)
            return (group, tabs)
        }

        /// Each saved group as `title colour: url url`, in the order listed.
        func shown() throws -> [String] {
            try saved.savedGroups().map { group in
                "\(group.visualData.title) \(group.visualData.color.rawValue): "
                    + group.tabs.map { $0.url ?? "-" }.joined(separator: " ")
            }.sorted()
        }
    }

    static func stamp(_ ms: Int64, _ device: String = "z") -> HybridTimestamp {
        HybridTimestamp(milliseconds: ms, counter: 0, device: device)
    }

    /// The record of tab `tab` as another device would write it, every field at `ms`.
    static func tabRecord(
        _ tab: WebStateID, group: TabGroupID, url: String, position: String, present: Bool = true, at ms: Int64
    ) -> SavedGroupMerger.Incoming {
        let t = stamp(ms)
        let record = SavedGroupTab(
            id: tab.uuidString, group: LastWriterWins(group.uuidString, at: t), url: LastWriterWins(url, at: t),
            title: LastWriterWins(url, at: t), position: LastWriterWins(position, at: t),
            presence: LastWriterWins(present ? .present : .deleted, at: t))
        return .init(
            recordID: sealer.recordID(kind: SavedGroupSealer.tabKind, localID: tab.uuidString), version: 100, record: .tab(record))
    }

    @Test func aSavedGroupBecomesRecords_andTheOtherStoreShowsIt_withNothingLeftToUpload() throws {
        let laptop = try Device("11111111-1111-4111-8111-111111111111")
        let phone = try Device("22222222-2222-4222-8222-222222222222")
        _ = try laptop.saveGroup("Trip", urls: ["https://a.example/", "https://b.example/"])
        let outcome = try laptop.merge()
        #expect(outcome.recordsWritten == 3)
        #expect(try laptop.sync.dirtySavedGroupRecords(limit: 10).count == 3)

        try phone.merge(laptop.records())
        #expect(try phone.shown() == ["Trip blue: https://a.example/#2 https://b.example/#2"])
        #expect(try phone.sync.dirtySavedGroupRecords(limit: 10).isEmpty)
        // Its rows changed through the merge; its next run finds no edit of its own.
        #expect(try phone.merge().recordsWritten == 0)
        #expect(try SessionStoreFile.check(atPath: #require(phone.store.path)).isEmpty)
    }

    @Test(arguments: [false, true])
    func tabsAddedRemovedAndMovedElsewhere_showAsTheMergeSays_andAMovedTabKeepsItsHistory(renamedHere: Bool) throws {
        let laptop = try Device("11111111-1111-4111-8111-111111111111")
        let (trip, tripTabs) = try laptop.saveGroup("Trip", urls: ["https://a.example/", "https://b.example/", "https://c.example/"])
        let (work, _) = try laptop.saveGroup("Work", urls: ["https://w.example/"])
        try laptop.merge()
        let positions = try laptop.records().compactMap { item -> (String, String)? in
            guard case .tab(let tab) = item.record else { return nil }
            return (tab.id, tab.position.value)
        }
        let position = Dictionary(uniqueKeysWithValues: positions)

        // Another device: c before a, b moved to Work (first there), a new tab in Trip, w removed.
        let later: Int64 = 1_900_000_000_000
        let added = WebStateID()
        let w = try #require(try laptop.saved.savedGroups().first { $0.id == work }?.tabs.first?.id)
        let edits: [SavedGroupMerger.Incoming] = [
            Self.tabRecord(tripTabs[2], group: trip, url: "https://c.example/#2", position: "0", at: later),
            Self.tabRecord(tripTabs[1], group: work, url: "https://b.example/#2", position: "0", at: later),
            Self.tabRecord(added, group: trip, url: "https://new.example/", position: "z", at: later),
            Self.tabRecord(w, group: work, url: "https://w.example/#2", position: position[w.uuidString]!, present: false, at: later),
        ]
        // With an edit of its own waiting (a rename), merged in the same transaction: the rename
        // is its one write, and the moves stand.
        if renamedHere { try laptop.saved.update(trip, visualData: TabGroupVisualData(title: "Trip", color: .red)) }
        let outcome = try laptop.merge(edits)
        #expect(outcome.recordsWritten == (renamedHere ? 1 : 0))
        #expect(try laptop.shown() == [
            "Trip \(renamedHere ? "red" : "blue"): https://c.example/#2 https://a.example/#2 https://new.example/",
            "Work blue: https://b.example/#2",
        ])
        // b moved with its history (two entries), and the new tab has one.
        #expect(try laptop.store.histories.history(of: tripTabs[1]).items.count == 2)
        #expect(try laptop.store.histories.history(of: added).items.count == 1)
        #expect(try laptop.sync.dirtySavedGroupRecords(limit: 20).count == 6)  // its own first writes, not yet sent
        #expect(try laptop.merge().recordsWritten == 0)
        #expect(try SessionStoreFile.check(atPath: #require(laptop.store.path)).isEmpty)
    }

    @Test func aLocalRenameAndAReceivedRecolour_bothLand_andAnOlderReceivedRenameLoses() throws {
        let laptop = try Device("11111111-1111-4111-8111-111111111111")
        let phone = try Device("22222222-2222-4222-8222-222222222222")
        let (group, _) = try laptop.saveGroup("Trip", urls: ["https://a.example/"])
        try laptop.merge(wall: 1_800_000_000_000)
        try phone.merge(laptop.records(), wall: 1_800_000_000_000)

        // The phone recolours; the laptop renames (its mark's time stamps it), then receives the recolour.
        try phone.saved.update(group, visualData: TabGroupVisualData(title: "Trip", color: .red))
        try phone.merge(wall: 1_800_000_001_000)
        try laptop.saved.update(group, visualData: TabGroupVisualData(title: "Lisbon", color: .blue))
        try laptop.merge(phone.records(), wall: 1_800_000_002_000)
        #expect(try laptop.shown() == ["Lisbon red: https://a.example/#2"])
        try phone.merge(laptop.records(), wall: 1_800_000_003_000)
        #expect(try phone.shown() == ["Lisbon red: https://a.example/#2"])

        // A rename stamped before the laptop's: it loses, on both.
        let header = SavedGroupHeader(
            id: group.uuidString, title: LastWriterWins("Stale", at: Self.stamp(1_000)),
            color: LastWriterWins("grey", at: Self.stamp(1_000)), presence: LastWriterWins(.present, at: Self.stamp(1_000)))
        let stale = SavedGroupMerger.Incoming(
            recordID: Self.sealer.recordID(kind: SavedGroupSealer.headerKind, localID: group.uuidString), version: 50,
            record: .header(header))
        try laptop.merge([stale])
        #expect(try laptop.shown() == ["Lisbon red: https://a.example/#2"])
    }

    @Test func localMovesAndRemovals_writeOnlyTheTabsTheyChange_andTheOtherStoreFollows() throws {
        let laptop = try Device("11111111-1111-4111-8111-111111111111")
        let phone = try Device("22222222-2222-4222-8222-222222222222")
        let urls = (0..<6).map { "https://\($0).example/" }
        let (group, _) = try laptop.saveGroup("Six", urls: urls)
        try laptop.merge(wall: 1_800_000_000_000)
        try phone.merge(laptop.records(), wall: 1_800_000_000_000)
        try laptop.sync.acknowledgeSavedGroupRecords(
            try laptop.sync.dirtySavedGroupRecords(limit: 10).map { ($0.recordID, 1, $0.payload) })

        // The last tab moved first: that tab alone gets a new position.
        try laptop.saved.moveTab(in: group, from: 5, to: 0)
        #expect(try laptop.merge(wall: 1_800_000_001_000).recordsWritten == 1)
        try laptop.saved.moveTab(in: group, from: 2, to: 4)
        #expect(try laptop.merge(wall: 1_800_000_002_000).recordsWritten == 1)
        try laptop.saved.removeTab(at: 1, from: group)
        #expect(try laptop.merge(wall: 1_800_000_003_000).recordsWritten == 1)
        #expect(try laptop.sync.dirtySavedGroupRecords(limit: 10).count == 3)
        #expect(throws: WebStateListError.indexOutOfRange(index: 9, count: 5)) {
            try laptop.saved.moveTab(in: group, from: 0, to: 9)
        }

        try phone.merge(laptop.records(), wall: 1_800_000_004_000)
        let expected = ["5", "2", "3", "1", "4"].map { "https://\($0).example/#2" }.joined(separator: " ")
        #expect(try laptop.shown() == ["Six blue: " + expected])
        #expect(try phone.shown() == ["Six blue: " + expected])
        #expect(try SessionStoreFile.check(atPath: #require(laptop.store.path)).isEmpty)
    }

    @Test func aPageTooLongForARecord_travelsAsItsOrigin_andStaysWholeHere() throws {
        let laptop = try Device("11111111-1111-4111-8111-111111111111")
        let phone = try Device("22222222-2222-4222-8222-222222222222")
        let long = "https://long.example:8443/" + String(repeating: "x", count: 20_000)
        _ = try laptop.saveGroup("Long", urls: [long])
        try laptop.merge()
        let records = try laptop.records()
        for item in records {
            let sealed = try Self.sealer.seal(try item.record.encoded(), recordID: item.recordID, kind: item.record.kind, version: 1)
            #expect(sealed.count < RecordSealer.maximumSealedBytes)
        }
        #expect(try laptop.shown() == ["Long blue: \(long)#2"])
        #expect(try laptop.merge().recordsWritten == 0)
        try phone.merge(records)
        #expect(try phone.shown() == ["Long blue: https://long.example:8443/"])
    }

    @Test func aMergeIsAnOrdinaryChange_observersOfTheSavedGroupsSeeIt() async throws {
        let laptop = try Device("11111111-1111-4111-8111-111111111111")
        let phone = try Device("22222222-2222-4222-8222-222222222222")
        let (group, _) = try laptop.saveGroup("Trip", urls: ["https://a.example/"])
        try laptop.merge()
        try phone.merge(laptop.records())
        let seen = Protected<[String]>([])
        let observation = phone.saved.observe { result in
            if case .success(let groups) = result { seen.withLock { $0.append(groups.map(\.visualData.title).joined()) } }
        }
        defer { observation.cancel() }
        try await laptop.saved.update(group, visualData: TabGroupVisualData(title: "Renamed", color: .blue))
        try laptop.merge()
        try phone.merge(laptop.records())
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !seen.withLock({ $0.contains("Renamed") }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(seen.withLock { $0.first == "Trip" && $0.last == "Renamed" })
    }
}
