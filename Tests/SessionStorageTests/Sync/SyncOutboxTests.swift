import Foundation
import SessionModel
import SessionTestSupport
import Testing
@_spi(SyncInternals) @testable import SessionStorage

/// The outbox of migration 0004: nothing while sync is off; every change to a
/// synced row marked in its own transaction while it is on; records built from
/// the rows as they are when sent; other devices' records kept and replaced in
/// version order.
@Suite struct SyncOutboxTests {
    static let account = "0123456789abcdef0123456789abcdef"
    static let device = "11111111-1111-4111-8111-111111111111"

    private func outbox(_ store: TemporaryStore) throws -> [String] {
        try PlainSQLite.strings("SELECT kind || ' ' || local_id FROM sync_outbox ORDER BY kind, local_id", atPath: store.path!)
    }

    private func enabled(_ store: TemporaryStore) throws -> SyncStorage {
        let sync = SyncStorage(database: store.database)
        try sync.enable(accountID: Self.account, deviceID: Self.device, deviceName: "Laptop", formFactor: "desktop")
        return sync
    }

    @Test func syncOff_writesNothingToTheOutbox() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* b c")
        try store.histories.commit(NavigationItem(url: "https://a.example/", title: "A"), in: names.webStateID("a"))
        try store.tabs.move(in: browser, from: 0, to: 2)
        try store.tabs.close(in: browser, at: 0)
        #expect(try outbox(store).isEmpty)
        let state = try SyncStorage(database: store.database).state()
        #expect(!state.isEnabled && state.pendingCount == 0)
    }

    @Test func enabling_marksEverything_andChangesMarkTheirRecords() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* b")
        let sync = try enabled(store)
        let a = names.webStateID("a").uuidString.lowercased()
        let b = names.webStateID("b").uuidString.lowercased()
        #expect(try outbox(store) == ["device device", "tab \(a)", "tab \(b)"].sorted())
        try sync.acknowledge(sync.pending(limit: 100).map(\.entry))
        #expect(try outbox(store).isEmpty)

        // A navigation marks its tab only; closing a tab moves it from `tab` to `closed`.
        try store.histories.commit(NavigationItem(url: "https://b.example/", title: "B"), in: names.webStateID("b"))
        #expect(try outbox(store) == ["tab \(b)"])
        try store.tabs.close(in: browser, at: 1)
        #expect(try outbox(store) == ["closed \(b)", "device device", "tab \(b)"])
        let pending = try sync.pending(limit: 100)
        let closed = try #require(pending.first { $0.entry.kind == .closed }?.content)
        guard case .closed(let record) = closed else { Issue.record("not a closed record"); return }
        #expect(record.navigations.map(\.url) == ["https://b.example/"] && record.current == 0)
        // The open-tab record of b is now a tombstone.
        #expect(pending.first { $0.entry.kind == .tab }?.content == nil)
        #expect(pending.first { $0.entry.kind == .closed }?.expiresAt != nil)
    }

    /// Splits ride on the tab records (issue 38); archived tabs and saved groups leave them.
    @Test func splits_markAndRideOnTabRecords_archivedAndSavedTabsLeaveThem() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* b [ 0 c ] d")
        for name in ["a", "b", "c", "d"] {
            try store.histories.commit(NavigationItem(url: "https://\(name).example/", title: name), in: names.webStateID(name))
        }
        let sync = try enabled(store)
        try sync.acknowledge(sync.pending(limit: 100).map(\.entry))
        let a = names.webStateID("a").uuidString
        let b = names.webStateID("b").uuidString
        try store.tabs.update(browser) {
            _ = try $0.createSplit(
                at: [0, 1], visualData: TabSplitVisualData(ratio: 0.25, layout: .horizontal), id: names.splitID("1"))
        }
        #expect(try outbox(store) == ["tab \(a)", "tab \(b)"].sorted())
        let records = try sync.pending(limit: 100).compactMap { pending -> SyncedTab? in
            guard case .tab(let record)? = pending.content else { return nil }
            return record
        }
        #expect(records.map(\.split) == [
            SyncedSplit(id: names.splitID("1").uuidString, ratio: 0.25, layout: "horizontal"),
            SyncedSplit(id: names.splitID("1").uuidString, ratio: 0.25, layout: "horizontal"),
        ])
        try sync.acknowledge(sync.pending(limit: 100).map(\.entry))

        // Archived and saved tabs are no longer this device's open tabs: their records go.
        try store.tabs.update(browser) { _ = try $0.setLastActiveAt(Date(), forTabAt: 0) }
        try sync.acknowledge(sync.pending(limit: 100).map(\.entry))
        try SQLiteSavedTabGroupRepository(database: store.database).saveAndClose(names.groupID("0"), in: browser)
        try SQLiteTabArchiveRepository(database: store.database).archive(
            olderThan: Date(timeIntervalSinceNow: -3600), in: nil, exempting: ArchiveExemptions())
        let left = try sync.pending(limit: 100)
        let c = names.webStateID("c").uuidString
        let d = names.webStateID("d").uuidString
        #expect(Set(left.filter { $0.entry.kind == .tab }.map(\.entry.localID)).isSuperset(of: [c, d]))
        #expect(left.filter { $0.entry.kind == .tab && [c, d].contains($0.entry.localID) }.allSatisfy { $0.content == nil })
    }

    /// Archived tabs (issue 38): tombstoned by default; published, marked archived, when the app opts
    /// in; listed apart on the other devices, with splits kept through the payload.
    @Test func archivedTabs_areTombstonedByDefault_andPublishedMarkedArchivedWhenTheAppOptsIn() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* b c")
        for name in ["a", "b", "c"] {
            try store.histories.commit(NavigationItem(url: "https://\(name).example/", title: name), in: names.webStateID(name))
        }
        try store.tabs.update(browser) { _ = try $0.setLastActiveAt(Date(), forTabAt: 0) }
        let sync = try enabled(store)
        #expect(try !sync.state().uploadsArchivedTabs)
        try sync.acknowledge(sync.pending(limit: 100).map(\.entry))
        let b = names.webStateID("b").uuidString
        let c = names.webStateID("c").uuidString
        try SQLiteTabArchiveRepository(database: store.database).archive(
            olderThan: Date(timeIntervalSinceNow: -3600), in: nil, exempting: ArchiveExemptions())
        var tabs = try sync.pending(limit: 100).filter { $0.entry.kind == .tab }
        #expect(Set(tabs.map(\.entry.localID)) == [b, c] && tabs.allSatisfy { $0.content == nil })
        try sync.acknowledge(sync.pending(limit: 100).map(\.entry))

        // Opting in marks every archived tab; each goes out as a tab record marked archived.
        try sync.setUploadsArchivedTabs(true)
        #expect(try sync.state().uploadsArchivedTabs)
        #expect(try outbox(store) == ["tab \(b)", "tab \(c)"].sorted())
        tabs = try sync.pending(limit: 100)
        let records = tabs.compactMap { pending -> SyncedTab? in
            guard case .tab(let record)? = pending.content else { return nil }
            return record
        }
        #expect(records.count == 2 && records.allSatisfy { $0.archived == true && $0.window != browser.uuidString })
        // The device record still lists only the window.
        try sync.acknowledge(tabs.map(\.entry))
        let everything = try sync.markEverything()
        #expect(Set(everything.entries.filter { $0.kind == .tab }.map(\.localID)) == [names.webStateID("a").uuidString, b, c])
        try sync.acknowledge(everything.entries)

        // Another device reads them apart from the windows; a split rides through the payload.
        let other = "22222222-2222-4222-8222-222222222222"
        var archived = records[0]
        archived.split = SyncedSplit(id: "55555555-5555-4555-8555-555555555555", ratio: 0.5, layout: "vertical")
        let open = SyncedTab(
            id: "33333333-3333-4333-8333-333333333333", window: "44444444-4444-4444-8444-444444444444", sortKey: 5,
            pinned: false, group: nil, opener: nil, lastActive: 1_790_000_000_000, current: 0,
            navigations: [SyncedNavigation(url: "https://remote.example/", title: "Remote", time: 1_790_000_000_000)],
            split: SyncedSplit(id: "66666666-6666-4666-8666-666666666666", ratio: 0.3, layout: "horizontal"))
        let device = SyncedDevice(name: "Phone", formFactor: "phone", windows: [])
        var received: [SyncReceivedRecord] = []
        for (offset, content) in [SyncRecordContent.device(device), .tab(archived), .tab(open)].enumerated() {
            let payload = try content.encoded()
            // Through the payload's bytes, as another device reads it.
            let decoded = try SyncRecordContent.decoded(payload, kind: content.kind)
            #expect(decoded == content)
            received.append(SyncReceivedRecord(
                recordID: String(repeating: Array("abc")[offset], count: 32), deviceID: other, sequence: Int64(offset + 1),
                version: 1, modifiedAt: Date(timeIntervalSince1970: 1_790_000_000),
                content: (decoded, String(decoding: payload, as: UTF8.self))))
        }
        try sync.apply(received, cursor: 3)
        let phone = try #require(try sync.remoteDevices().first)
        #expect(phone.windows.flatMap(\.tabs).map(\.title) == ["Remote"])
        #expect(phone.windows.flatMap(\.tabs).map(\.splitID) == ["66666666-6666-4666-8666-666666666666"])
        #expect(phone.archivedTabs.map(\.title) == [archived.currentNavigation?.title ?? ""])
        #expect(phone.archivedTabs.map(\.splitID) == ["55555555-5555-4555-8555-555555555555"])
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
    }

    @Test func aRecordMarkedAgainDuringItsUpload_staysInTheOutbox() throws {
        let store = try TemporaryStore.onDisk()
        let (_, names) = try store.seed("| a*")
        let sync = try enabled(store)
        try sync.acknowledge(sync.pending(limit: 100).map(\.entry))
        let tab = names.webStateID("a")
        try store.histories.commit(NavigationItem(url: "https://one.example/", title: "One"), in: tab)
        let sent = try sync.pending(limit: 100)
        try store.histories.commit(NavigationItem(url: "https://two.example/", title: "Two"), in: tab)
        try sync.acknowledge(sent.map(\.entry))
        let left = try sync.pending(limit: 100)
        #expect(left.count == 1)
        guard case .tab(let record)? = left.first?.content else { Issue.record("no tab record"); return }
        #expect(record.currentNavigation?.url == "https://two.example/")
    }

    @Test func tabRecords_carrySixBackFiveForward_withoutPrivatePages() throws {
        let store = try TemporaryStore.onDisk()
        let (_, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        for page in 0..<20 {
            try store.histories.commit(NavigationItem(url: "https://example.com/\(page)", title: "Page \(page)"), in: tab)
        }
        try store.histories.commit(NavigationItem(url: "about:blank", title: "Blank"), in: tab)
        try store.histories.go(to: 10, in: tab)
        let sync = try enabled(store)
        let record = try sync.pending(limit: 100).compactMap { pending -> SyncedTab? in
            if case .tab(let tab)? = pending.content { tab } else { nil }
        }.first
        let tabRecord = try #require(record)
        #expect(tabRecord.navigations.map(\.url) == (4...15).map { "https://example.com/\($0)" })
        #expect(tabRecord.currentNavigation?.url == "https://example.com/10")

        // A tab that shows only a private page is not published: its record is a tombstone.
        let (_, others) = try store.seed("| z*")
        try store.histories.commit(NavigationItem(url: "file:///etc/passwd", title: "passwd"), in: others.webStateID("z"))
        let z = others.webStateID("z").uuidString.lowercased()
        #expect(try sync.pending(limit: 100).first { $0.entry.localID == z }.map { $0.content == nil } == true)
    }

    @Test func closingAWindow_turnsItsTabsIntoClosedRecords() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* b")
        for name in ["a", "b"] {
            try store.histories.commit(NavigationItem(url: "https://\(name).example/", title: name), in: names.webStateID(name))
        }
        let sync = try enabled(store)
        try sync.acknowledge(sync.pending(limit: 100).map(\.entry))
        try store.browsers.closeBrowser(browser)
        let pending = try sync.pending(limit: 100)
        let closed = pending.compactMap { record -> String? in
            if case .closed(let tab)? = record.content { tab.currentNavigation?.url } else { nil }
        }
        #expect(closed.sorted() == ["https://a.example/", "https://b.example/"])
        #expect(pending.filter { $0.entry.kind == .tab }.allSatisfy { $0.content == nil })
        guard case .device(let device)? = pending.first(where: { $0.entry.kind == .device })?.content else {
            Issue.record("no device record")
            return
        }
        #expect(device.windows.isEmpty && device.name == "Laptop")
    }

    /// Closing a tab marks its `closed` record, its open-tab record's tombstone and
    /// the device record (its window's tab count), nothing else; once recently closed
    /// is full, the oldest entry pruned adds only its `closed` record's tombstone:
    /// its open-tab record was tombstoned when it closed (issue 36).
    @Test func closingATab_marksOnlyRecordsTheServerHolds_evenWhenRecentlyClosedIsFull() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a*")
        for index in 0..<60 {
            try store.tabs.insert(
                WebState(), in: browser, params: .automatic(),
                navigatingTo: NavigationItem(url: "https://\(index).example/", title: "\(index)"))
        }
        let sync = try enabled(store)
        try sync.acknowledge(sync.pending(limit: 1000).map(\.entry))
        func closeSecond() throws -> String {
            let id = try store.tabs.snapshot(of: browser).list.id(at: 1).uuidString.lowercased()
            try store.tabs.close(in: browser, at: 1)
            return id
        }
        let first = try closeSecond()
        #expect(try outbox(store) == ["closed \(first)", "device device", "tab \(first)"])
        try sync.acknowledge(sync.pending(limit: 1000).map(\.entry))
        var closed = [first]
        for _ in 1..<store.database.configuration.maximumClosedEntries {
            closed.append(try closeSecond())
            try sync.acknowledge(sync.pending(limit: 1000).map(\.entry))
        }

        // Recently closed is full: this close prunes the first one closed.
        let next = try closeSecond()
        #expect(try outbox(store) == ["closed \(first)", "closed \(next)", "device device", "tab \(next)"].sorted())
        let pending = try sync.pending(limit: 1000)
        #expect(pending.contains { $0.entry.kind == .closed && $0.entry.localID == first && $0.content == nil })

        // A tombstone not sent yet stays: the next close, offline, then one more prune it along.
        try sync.acknowledge(pending.map(\.entry))
        let offline = try closeSecond()
        for _ in 0..<store.database.configuration.maximumClosedEntries { _ = try closeSecond() }
        #expect(try outbox(store).contains("tab \(offline)"))
        #expect(try !outbox(store).contains("tab \(closed[1])"))
    }

    @Test func aWindowThatClosesOrReopens_marksItsGroups() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a* [ 0 b c ]")
        let sync = try enabled(store)
        let group = try #require(try PlainSQLite.strings("SELECT id FROM tab_groups", atPath: store.path!).first)
        try sync.acknowledge(sync.pending(limit: 100).map(\.entry))
        try store.browsers.closeBrowser(browser)
        let closing = try sync.pending(limit: 100)
        #expect(closing.contains { $0.entry.kind == .group && $0.entry.localID == group && $0.content == nil })
        try sync.acknowledge(closing.map(\.entry))
        let entry = try #require(try SQLiteRecentlyClosedRepository(database: store.database).entries().first)
        try SQLiteRecentlyClosedRepository(database: store.database).restore(entry.id)
        let reopened = try sync.pending(limit: 100)
        #expect(reopened.contains { $0.entry.kind == .group && $0.content != nil })
    }

    @Test func anotherServer_startsTheCursorAgain_andAFullSync() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        try sync.setServerURL("https://one.example", anotherServer: false)
        try sync.fullSyncDone(request: sync.markEverything().request)
        try sync.apply([], cursor: 40)
        // Another URL of the same server (its id decides, in the client) keeps the cursor.
        try sync.setServerURL("https://127.0.0.1:8443", anotherServer: false)
        #expect(try sync.state().cursor == 40 && !sync.state().fullSyncNeeded)
        #expect(try sync.state().serverURL == "https://127.0.0.1:8443")
        try sync.setServerURL("https://two.example", anotherServer: true)
        #expect(try sync.state().cursor == 0 && sync.state().fullSyncNeeded)
    }

    @Test func versions_neverGoBelowTheFloor() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        #expect(try sync.reserveVersions(10) == 1)
        #expect(try sync.reserveVersions(5) == 11)
        #expect(try sync.reserveVersions(1, atLeast: 100) == 100)
        #expect(try sync.state().nextVersion == 101)
    }

    @Test func applying_keepsOtherDevicesRecordsInVersionOrder_andTheViewShowsThem() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        let other = "22222222-2222-4222-8222-222222222222"
        let tab = SyncedTab(
            id: "33333333-3333-4333-8333-333333333333", window: "44444444-4444-4444-8444-444444444444", sortKey: 5,
            pinned: false, group: nil, opener: nil, lastActive: 1_790_000_000_000, current: 0,
            navigations: [SyncedNavigation(url: "https://remote.example/", title: "Remote", time: 1_790_000_000_000)])
        func record(_ version: Int64, _ sequence: Int64, title: String?, device: String = other) throws -> SyncReceivedRecord {
            var content = tab
            if let title { content.navigations[0].title = title }
            let payload = String(decoding: try SyncRecordContent.tab(content).encoded(), as: UTF8.self)
            return SyncReceivedRecord(
                recordID: String(repeating: "a", count: 32), deviceID: device, sequence: sequence, version: version,
                modifiedAt: Date(timeIntervalSince1970: 1_790_000_000),
                content: title == nil ? nil : (.tab(content), payload))
        }
        let device = SyncedDevice(name: "Phone", formFactor: "phone", windows: [])
        let devicePayload = String(decoding: try SyncRecordContent.device(device).encoded(), as: UTF8.self)
        try sync.apply([
            SyncReceivedRecord(
                recordID: String(repeating: "b", count: 32), deviceID: other, sequence: 1, version: 1,
                modifiedAt: Date(timeIntervalSince1970: 1_790_000_000), content: (.device(device), devicePayload)),
            try record(2, 2, title: "Remote"),
        ], cursor: 2)
        #expect(try PlainSQLite.strings(
            "SELECT device_name || '|' || tab_index || '|' || title || '|' || url FROM remote_tabs", atPath: store.path!)
            == ["Phone|0|Remote|https://remote.example/"])
        // An older version, replayed, changes nothing and is reported; a newer one replaces; our own
        // records are ignored.
        let replay = try sync.apply([try record(1, 3, title: "Old")], cursor: 3)
        #expect(replay.replayed == [String(repeating: "a", count: 32)] && replay.skipped == 0)
        try sync.apply([try record(3, 4, title: "New"), try record(9, 5, title: "Mine", device: Self.device)], cursor: 5)
        #expect(try sync.remoteDevices().first?.windows.first?.tabs.map(\.title) == ["New"])
        #expect(try sync.state().cursor == 5)
        // A tombstone removes the tab, and an older upload replayed after it stays out.
        try sync.apply([try record(4, 6, title: nil)], cursor: 6)
        try sync.apply([try record(3, 7, title: "New")], cursor: 7)
        #expect(try sync.remoteDevices().first?.tabCount == 0)
        #expect(try sync.remoteDevices().first?.name == "Phone")
    }

    @Test func applying_keepsATabAgainstUnauthenticatedDeletionsAndReplays_throughAFetchFromZero() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        let other = "22222222-2222-4222-8222-222222222222"
        let id = String(repeating: "a", count: 32)
        let tab = SyncedTab(
            id: "33333333-3333-4333-8333-333333333333", window: "44444444-4444-4444-8444-444444444444", sortKey: 5,
            pinned: false, group: nil, opener: nil, lastActive: 1_790_000_000_000, current: 0,
            navigations: [SyncedNavigation(url: "https://remote.example/", title: "Remote", time: 1_790_000_000_000)])
        let payload = String(decoding: try SyncRecordContent.tab(tab).encoded(), as: UTF8.self)
        func received(_ version: Int64, _ sequence: Int64, digest: String, live: Bool = true, authenticated: Bool = true)
            -> SyncReceivedRecord
        {
            SyncReceivedRecord(
                recordID: id, deviceID: other, sequence: sequence, version: version,
                modifiedAt: Date(timeIntervalSince1970: 1_790_000_000), content: live ? (.tab(tab), payload) : nil,
                digest: digest, isAuthenticated: authenticated)
        }
        try sync.apply([received(5, 1, digest: "five")], cursor: 1)
        // Unauthenticated: kept and reported, unless this store heard nothing from the device since `silentSince`.
        let forged = try sync.apply([received(6, 2, digest: "", live: false, authenticated: false)], cursor: 2)
        #expect(forged.forgedDeletions == [id] && forged.removed == 0)
        let recent = try sync.apply(
            [received(6, 3, digest: "", live: false, authenticated: false)], cursor: 3,
            silentSince: Date().addingTimeInterval(-3600))
        #expect(recent.forgedDeletions == [id])
        #expect(try sync.remoteDevices().first?.tabCount == 1)
        // The same version with other bytes is a replay; with the same bytes, a delivery again.
        let swapped = try sync.apply([received(5, 4, digest: "other")], cursor: 4)
        #expect(swapped.replayed == [id])
        let again = try sync.apply([received(5, 5, digest: "five")], cursor: 5)
        #expect(again.skipped == 1 && again.replayed.isEmpty)

        // A fetch from 0 forgets the tab but not its floor: the same version comes back, an older one does not.
        try sync.restartFetch()
        let older = try sync.apply([received(4, 1, digest: "four")], cursor: 1)
        #expect(older.replayed == [id])
        #expect(try sync.remoteDevices().first?.tabCount ?? 0 == 0)
        let same = try sync.apply([received(5, 2, digest: "five")], cursor: 2)
        #expect(same.applied == 1)
        #expect(try sync.remoteDevices().first?.tabCount == 1)

        // The sweep of a device silent (by this store's clock) since before `silentSince` applies.
        let swept = try sync.apply(
            [received(6, 3, digest: "", live: false, authenticated: false)], cursor: 3,
            silentSince: Date().addingTimeInterval(3600))
        #expect(swept.removed == 1 && swept.forgedDeletions.isEmpty)
        #expect(try sync.remoteDevices().first?.tabCount ?? 0 == 0)
    }

    @Test func restoringASnapshot_orReplacingByImport_asksForAFullSync() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a* b")
        let sync = try enabled(store)
        #expect(try sync.state().fullSyncNeeded)
        try sync.fullSyncDone(request: sync.markEverything().request)
        let snapshot = try #require(try store.database.takeSnapshot())
        try store.tabs.close(in: browser, at: 0)
        #expect(try !sync.state().fullSyncNeeded)
        try store.database.restoreSnapshot(named: snapshot.name)
        #expect(try sync.state().fullSyncNeeded)

        try sync.fullSyncDone(request: sync.markEverything().request)
        let archive = try store.database.exportArchive()
        try store.database.importArchive(archive, replacing: true)
        #expect(try sync.state().fullSyncNeeded)
        // The marks cover every record again, which the client compares with the server's.
        let (marked, request) = try sync.markEverything()
        // A restore while that full sync runs asks for another: finishing the first leaves it.
        try store.database.restoreSnapshot(named: snapshot.name)
        try sync.fullSyncDone(request: request)
        #expect(try sync.state().fullSyncNeeded)
        #expect(marked.filter { $0.kind == .tab }.count == 2 && marked.contains { $0.kind == .device })
    }

    @Test func anOlderReader_keepsTheFieldsItKnowsOfANewerPayload() throws {
        let newer = """
            {"v":2,"id":"33333333-3333-4333-8333-333333333333","window":"44444444-4444-4444-8444-444444444444",
             "sort_key":7,"pinned":true,"last_active":1,"current":0,"reader_mode":true,
             "navigations":[{"url":"https://x.example/","title":"X","time":2,"scroll":0.5}]}
            """
        let content = try SyncRecordContent.decoded(Data(newer.utf8), kind: .tab)
        guard case .tab(let tab) = content else { Issue.record("not a tab"); return }
        #expect(tab.v == 2 && tab.sortKey == 7 && tab.pinned && tab.currentNavigation?.title == "X")
    }

    /// The remote tables are WITHOUT ROWID, whose changes GRDB's observations do not see by
    /// themselves. An in-memory store has no poll for other processes' commits, so only the
    /// notice at the apply's commit can bring the other device to the observer.
    @Test func applyingReceivedRecords_reachesThisProcesssObservers() throws {
        let store = try TemporaryStore.inMemory()
        let sync = try enabled(store)
        let recorder = ValueRecorder<[String]>()
        let observation = sync.observeRemoteDevices { result in
            if case .success(let devices) = result { recorder.record(devices.map(\.name)) }
        }
        defer { observation.cancel() }
        #expect(recorder.wait { $0.contains([]) })
        let device = SyncedDevice(name: "Phone", formFactor: "phone", windows: [])
        let payload = String(decoding: try SyncRecordContent.device(device).encoded(), as: UTF8.self)
        try sync.apply([
            SyncReceivedRecord(
                recordID: String(repeating: "b", count: 32), deviceID: "22222222-2222-4222-8222-222222222222",
                sequence: 1, version: 1, modifiedAt: Date(timeIntervalSince1970: 1_790_000_000),
                content: (.device(device), payload)),
        ], cursor: 1)
        #expect(recorder.wait { $0.contains(["Phone"]) })
    }
}
