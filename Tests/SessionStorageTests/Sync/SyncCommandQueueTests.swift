import Foundation
import SessionModel
import SessionTestSupport
import Testing
@_spi(SyncInternals) @testable import SessionStorage

/// The command queue of migration 0005 and the store's side of received
/// commands: a command leaves no earlier than its undo window's end, an undo
/// before then means it never leaves, an expired one is dropped, the queue
/// survives a restart; applied command ids are kept once; the lookups a
/// received command makes (an open tab and its page, the window used last).
@Suite struct SyncCommandQueueTests {
    static let account = "0123456789abcdef0123456789abcdef"
    static let device = "11111111-1111-4111-8111-111111111111"
    static let other = "22222222-2222-4222-8222-222222222222"
    /// A whole second, so that dates read back (to the millisecond) compare equal.
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    static func id(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    static let sentTab = SyncCommand.sendTab(SyncSendTab(
        url: "https://b.example/2", title: "Two",
        navigations: [
            SyncedNavigation(url: "https://b.example/1", title: "One", time: 1_790_000_000_000),
            SyncedNavigation(url: "https://b.example/2", title: "Two", faviconURL: "https://b.example/f.ico",
                             time: 1_790_000_001_000),
        ],
        current: 1))
    static let closedTab = SyncCommand.closeTab(SyncCloseTab(
        recordID: String(repeating: "c", count: 32), tabID: "33333333-3333-4333-8333-333333333333",
        url: "https://c.example/"))

    /// A command made at `created`, leaving `undo` seconds later, living its kind's lifetime.
    static func outgoing(
        _ n: Int, _ command: SyncCommand = sentTab, at created: Date = t0, undo: TimeInterval = 5
    ) -> SyncOutgoingCommand {
        SyncOutgoingCommand(
            id: id(n), targetDeviceID: other, command: command, createdAt: created,
            sendAfter: created.addingTimeInterval(undo), expiresAt: created.addingTimeInterval(command.lifetime))
    }

    private func enabled(_ store: TemporaryStore) throws -> SyncStorage {
        let sync = SyncStorage(database: store.database)
        try sync.enable(accountID: Self.account, deviceID: Self.device, deviceName: "Laptop", formFactor: "desktop")
        return sync
    }

    private func queued(_ store: TemporaryStore) throws -> [String] {
        try PlainSQLite.strings("SELECT command_id FROM sync_outgoing_commands ORDER BY command_id", atPath: store.path!)
    }

    // MARK: - The undo window

    @Test func aCommand_isDueOnlyOnceItsUndoWindowEnds() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        let command = Self.outgoing(1)
        try sync.queue(command)

        #expect(try sync.dueCommands(at: Self.t0).isEmpty)
        #expect(try sync.dueCommands(at: Self.t0.addingTimeInterval(4.999)).isEmpty)
        // Read back whole: id, target, payload and the three dates.
        #expect(try sync.dueCommands(at: Self.t0.addingTimeInterval(5)) == [command])
        #expect(try sync.dueCommands(at: Self.t0.addingTimeInterval(3600)) == [command])
        // Due is not sent: it stays until the server has it.
        #expect(try queued(store) == [Self.id(1)])
        try sync.commandsSent([Self.id(1)])
        #expect(try sync.dueCommands(at: Self.t0.addingTimeInterval(3600)).isEmpty)
        #expect(try queued(store).isEmpty)
        #expect(try sync.nextCommandDue() == nil)
    }

    @Test func dueCommands_comeOldestWindowFirst_withinTheLimit() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        try sync.queue(Self.outgoing(1, undo: 30))
        try sync.queue(Self.outgoing(2, Self.closedTab, undo: 10))
        try sync.queue(Self.outgoing(3, undo: 20))
        let later = Self.t0.addingTimeInterval(60)
        #expect(try sync.dueCommands(at: later).map(\.id) == [Self.id(2), Self.id(3), Self.id(1)])
        #expect(try sync.dueCommands(at: later, limit: 2).map(\.id) == [Self.id(2), Self.id(3)])
        #expect(try sync.dueCommands(at: Self.t0.addingTimeInterval(15)).map(\.id) == [Self.id(2)])
        #expect(try sync.dueCommands(at: later).first?.command == Self.closedTab)
    }

    @Test func queueing_refusesAnIdTwice_andAnIdNotInLowerCase() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        try sync.queue(Self.outgoing(1))
        #expect(throws: (any Error).self) { try sync.queue(Self.outgoing(1, Self.closedTab)) }
        var upper = Self.outgoing(2)
        upper.id = "AAAAAAAA-AAAA-4AAA-8AAA-AAAAAAAAAAAA"
        #expect(throws: (any Error).self) { try sync.queue(upper) }
        // The refused ones changed nothing.
        #expect(try queued(store) == [Self.id(1)])
        #expect(try sync.dueCommands(at: Self.t0.addingTimeInterval(60)).map(\.command) == [Self.sentTab])
    }

    @Test func undoingBeforeTheWindowEnds_meansItNeverLeaves() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        try sync.queue(Self.outgoing(1))
        try sync.queue(Self.outgoing(2))
        #expect(try sync.cancelCommand(Self.id(1)))
        #expect(try sync.dueCommands(at: Self.t0.addingTimeInterval(86_400)).map(\.id) == [Self.id(2)])
        // Undone once: a second undo finds nothing.
        #expect(try !sync.cancelCommand(Self.id(1)))
        // Sent: too late to undo.
        try sync.commandsSent([Self.id(2)])
        #expect(try !sync.cancelCommand(Self.id(2)))
        #expect(try !sync.cancelCommand(Self.id(99)))
        #expect(try sync.dueCommands(at: Self.t0.addingTimeInterval(86_400)).isEmpty)
        #expect(try queued(store).isEmpty)
    }

    @Test func expiredCommands_areDropped_notSent() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        #expect(Self.sentTab.lifetime == 10 * 24 * 3600)
        #expect(Self.closedTab.lifetime == 48 * 3600)
        try sync.queue(Self.outgoing(1, Self.closedTab))
        try sync.queue(Self.outgoing(2, Self.sentTab))

        // Just before 48 hours both are due; at 48 hours the close has expired.
        #expect(try sync.dueCommands(at: Self.t0.addingTimeInterval(48 * 3600 - 1)).map(\.id) == [Self.id(1), Self.id(2)])
        #expect(try sync.dueCommands(at: Self.t0.addingTimeInterval(48 * 3600)).map(\.id) == [Self.id(2)])
        #expect(try queued(store) == [Self.id(2)])
        #expect(try !sync.cancelCommand(Self.id(1)))
        // After 10 days the sent tab has too.
        #expect(try sync.dueCommands(at: Self.t0.addingTimeInterval(10 * 24 * 3600)).isEmpty)
        #expect(try queued(store).isEmpty)
        #expect(try sync.nextCommandDue() == nil)
    }

    @Test func nextCommandDue_isTheEarliestWindowEnd() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        #expect(try sync.nextCommandDue() == nil)
        try sync.queue(Self.outgoing(1, undo: 30))
        #expect(try sync.nextCommandDue() == Self.t0.addingTimeInterval(30))
        try sync.queue(Self.outgoing(2, undo: 10))
        try sync.queue(Self.outgoing(3, undo: 20))
        #expect(try sync.nextCommandDue() == Self.t0.addingTimeInterval(10))
        try sync.cancelCommand(Self.id(2))
        #expect(try sync.nextCommandDue() == Self.t0.addingTimeInterval(20))
        try sync.commandsSent([Self.id(1), Self.id(3)])
        #expect(try sync.nextCommandDue() == nil)
    }

    /// A queued row this binary cannot read (a newer binary's kind of command,
    /// sharing the store) is left out of `dueCommands` but still due as an
    /// envelope, which the client seals and sends as it is: it leaves, and the
    /// loop that sends what is due does not wake for it forever.
    @Test func aQueuedCommandThisBinaryCannotRead_isStillSent() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        try PlainSQLite.execute(
            """
            INSERT INTO sync_outgoing_commands (command_id, target_device_id, payload, created_at, send_after, expires_at)
            VALUES (?, ?, '{"v":2,"type":"close_window","window":"x"}', '2026-09-21 14:13:20.000',
                    '2026-09-21 14:13:25.000', '2026-10-01 14:13:20.000')
            """,
            arguments: [Self.id(7), Self.other], atPath: store.path!)
        let now = Self.t0.addingTimeInterval(60)
        #expect(try sync.dueCommands(at: now).isEmpty)
        let envelopes = try sync.dueEnvelopes(at: now)
        #expect(envelopes.map(\.id) == [Self.id(7)])
        #expect(String(decoding: envelopes[0].payload, as: UTF8.self) == #"{"v":2,"type":"close_window","window":"x"}"#)
        try sync.commandsSent(envelopes.map(\.id))
        #expect(try sync.nextCommandDue() == nil)
    }

    // MARK: - The payload

    @Test func commands_roundTripThroughTheirJSON() throws {
        for command in [Self.sentTab, Self.closedTab, .sendTab(SyncSendTab(url: "https://plain.example/"))] {
            let data = try SyncCommandCoding.encoder.encode(command)
            #expect(try SyncCommandCoding.decoder.decode(SyncCommand.self, from: data) == command)
        }
        let sent = String(decoding: try SyncCommandCoding.encoder.encode(Self.sentTab), as: UTF8.self)
        #expect(sent.hasPrefix(##"{"tab":{"current":1,"navigations":[{"##) && sent.contains(#""type":"send_tab""#))
        #expect(sent.contains(#""v":1"#) && sent.contains("https://b.example/1"))
        let close = String(decoding: try SyncCommandCoding.encoder.encode(Self.closedTab), as: UTF8.self)
        #expect(close == #"{"close":{"record_id":"cccccccccccccccccccccccccccccccc","tab_id":"33333333-3333-4333-8333-333333333333","url":"https://c.example/"},"type":"close_tab","v":1}"#)
    }

    @Test func aCommandOfAnUnknownType_orWithoutItsBody_failsToDecode() throws {
        let refused = [
            #"{"v":1,"type":"close_window","close":{"record_id":"r","tab_id":"t","url":"u"}}"#,
            #"{"v":1,"close":{"record_id":"r","tab_id":"t","url":"u"}}"#,
            #"{"v":1,"type":"send_tab","close":{"record_id":"r","tab_id":"t","url":"u"}}"#,
            #"{"v":1,"type":"close_tab","close":{"record_id":"r","url":"u"}}"#,
            #"[]"#,
        ]
        for text in refused {
            #expect(throws: DecodingError.self, "\(text)") {
                try SyncCommandCoding.decoder.decode(SyncCommand.self, from: Data(text.utf8))
            }
        }
        // A newer version of a known type keeps what this reader knows.
        let newer = #"{"v":2,"type":"send_tab","tab":{"url":"https://n.example/","title":"N","reader":true},"extra":1}"#
        #expect(try SyncCommandCoding.decoder.decode(SyncCommand.self, from: Data(newer.utf8))
            == .sendTab(SyncSendTab(url: "https://n.example/", title: "N")))
    }

    // MARK: - Received commands

    @Test func markCommandApplied_isRemembered_once() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        #expect(try !sync.isCommandApplied(Self.id(1)))
        try sync.markCommandApplied(Self.id(1), at: Self.t0)
        #expect(try sync.isCommandApplied(Self.id(1)))
        #expect(try !sync.isCommandApplied(Self.id(2)))
        // Again: no error, no second row, the first date kept.
        try sync.markCommandApplied(Self.id(1), at: Self.t0.addingTimeInterval(60))
        #expect(try PlainSQLite.strings(
            "SELECT command_id || ' ' || applied_at FROM sync_applied_commands", atPath: store.path!)
            == ["\(Self.id(1)) 2026-09-21 14:13:20.000"])
        try store.reopen()
        #expect(try SyncStorage(database: store.database).isCommandApplied(Self.id(1)))
    }

    @Test func openTab_namesTheBrowserIndexAndPage_ofOpenTabsOnly() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        let (browser, names) = try store.seed("a | b* c d")
        let (a, b, c, d) = (names.webStateID("a"), names.webStateID("b"), names.webStateID("c"), names.webStateID("d"))
        try store.histories.commit(NavigationItem(url: "https://b.example/1", title: "B1"), in: b)
        try store.histories.commit(NavigationItem(url: "https://b.example/2", title: "B2"), in: b)
        try store.histories.goBack(in: b)
        try store.histories.commit(NavigationItem(url: "https://c.example/", title: "C"), in: c)

        let open = try #require(try sync.openTab(b.uuidString))
        #expect(open.browser == browser.uuidString && open.index == 1 && open.url == "https://b.example/1")
        // Upper case finds it too; a tab without a page shows "".
        #expect(try sync.openTab(b.uuidString.uppercased())?.index == 1)
        let pinned = try #require(try sync.openTab(a.uuidString))
        #expect(pinned.index == 0 && pinned.url == "")
        #expect(try sync.openTab(d.uuidString)?.index == 3)
        #expect(try sync.openTab(Self.id(404)) == nil && !sync.tabExists(Self.id(404)))

        // Closed by itself: in recently closed, not open; the ones after it move up.
        try store.tabs.close(in: browser, at: 2)
        #expect(try sync.openTab(c.uuidString) == nil)
        #expect(try sync.tabExists(c.uuidString) && sync.tabExists(c.uuidString.uppercased()))
        #expect(try sync.openTab(d.uuidString)?.index == 2)

        // In a closed window: not open either.
        let (window, others) = try store.seed("| e*")
        let e = others.webStateID("e")
        try store.histories.commit(NavigationItem(url: "https://e.example/", title: "E"), in: e)
        #expect(try sync.openTab(e.uuidString)?.browser == window.uuidString)
        try store.browsers.closeBrowser(window)
        #expect(try sync.openTab(e.uuidString) == nil && sync.tabExists(e.uuidString))
        // Reopened: open again, where it was.
        let entry = try #require(try SQLiteRecentlyClosedRepository(database: store.database).entries().first)
        let restored = try SQLiteRecentlyClosedRepository(database: store.database).restore(entry.id)
        let reopened = try #require(try sync.openTab(e.uuidString))
        #expect(reopened.browser == restored.uuidString && reopened.index == 0 && reopened.url == "https://e.example/")
    }

    @Test func lastActiveOpenBrowser_isTheOpenWindowUsedLast() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        #expect(try sync.lastActiveOpenBrowser() == nil)
        let first = try store.browsers.createBrowser().id
        let second = try store.browsers.createBrowser().id
        #expect(try sync.lastActiveOpenBrowser() == second.uuidString)
        try store.browsers.markActive(first)
        #expect(try sync.lastActiveOpenBrowser() == first.uuidString)
        // The same choice as the browser list's first.
        #expect(try store.browsers.browsers().first?.id == first)
        try store.browsers.closeBrowser(first)
        #expect(try sync.lastActiveOpenBrowser() == second.uuidString)
        try store.browsers.closeBrowser(second)
        #expect(try sync.lastActiveOpenBrowser() == nil)
    }

    // MARK: - Fetching again

    @Test func restartFetch_forgetsOtherDevices_andStartsTheCursorAgain_keepingCommands() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        let tab = SyncedTab(
            id: "33333333-3333-4333-8333-333333333333", window: "44444444-4444-4444-8444-444444444444", sortKey: 1,
            pinned: false, group: nil, opener: nil, lastActive: 1_790_000_000_000, current: 0,
            navigations: [SyncedNavigation(url: "https://remote.example/", title: "Remote", time: 1_790_000_000_000)])
        let device = SyncedDevice(name: "Phone", formFactor: "phone", windows: [])
        func received(_ content: SyncRecordContent, _ id: String, _ sequence: Int64) throws -> SyncReceivedRecord {
            SyncReceivedRecord(
                recordID: id, deviceID: Self.other, sequence: sequence, version: sequence, modifiedAt: Self.t0,
                content: (content, String(decoding: try content.encoded(), as: UTF8.self)))
        }
        let tabRecord = String(repeating: "a", count: 32)
        try sync.apply([
            try received(.device(device), String(repeating: "d", count: 32), 1),
            try received(.tab(tab), tabRecord, 2),
        ], cursor: 42)
        try sync.queue(Self.outgoing(1))
        try sync.markCommandApplied(Self.id(2))
        #expect(try sync.state().cursor == 42 && sync.remoteDevices().first?.tabCount == 1)
        #expect(try sync.remoteDeviceID(ofRecord: tabRecord) == Self.other)
        #expect(try sync.remoteRecord(tabRecord) == .tab(tab))

        try sync.restartFetch()
        #expect(try sync.state().cursor == 0)
        #expect(try sync.remoteDevices().isEmpty)
        #expect(try sync.remoteRecord(tabRecord) == nil && sync.remoteDeviceID(ofRecord: tabRecord) == nil)
        for table in ["sync_remote_records", "sync_remote_devices", "sync_remote_tabs"] {
            #expect(try PlainSQLite.strings("SELECT count(*) FROM \(table)", atPath: store.path!) == ["0"], "\(table)")
        }
        // What this device sends and what it applied are not the server's to forget.
        #expect(try queued(store) == [Self.id(1)])
        #expect(try sync.isCommandApplied(Self.id(2)))
        #expect(try sync.state().isEnabled && sync.state().accountID == Self.account)
    }

    // MARK: - Durability and soundness

    @Test func theQueue_survivesARestartInsideTheUndoWindow() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        let commands = [Self.outgoing(1), Self.outgoing(2, Self.closedTab, undo: 6)]
        for command in commands { try sync.queue(command) }
        // Committed as each call returns: another connection (what a crash leaves) sees them.
        #expect(try PlainSQLite.strings(
            "SELECT command_id || ' ' || send_after FROM sync_outgoing_commands ORDER BY command_id", atPath: store.path!)
            == ["\(Self.id(1)) 2026-09-21 14:13:25.000", "\(Self.id(2)) 2026-09-21 14:13:26.000"])

        try store.reopen()
        let again = SyncStorage(database: store.database)
        #expect(try again.nextCommandDue() == Self.t0.addingTimeInterval(5))
        #expect(try again.dueCommands(at: Self.t0.addingTimeInterval(60)) == commands)
        // Undo still works after the restart, for the one not sent.
        #expect(try again.cancelCommand(Self.id(2)))
        #expect(try again.dueCommands(at: Self.t0.addingTimeInterval(60)) == [commands[0]])
    }

    @Test func check_isClean_withCommandsQueuedAndApplied() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        _ = try store.seed("| a* b")
        try sync.queue(Self.outgoing(1))
        try sync.queue(Self.outgoing(2, Self.closedTab))
        try sync.markCommandApplied(Self.id(3))
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
        try store.reopen()
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
    }

    @Test func observeOutgoingCommands_countsTheQueue() throws {
        let store = try TemporaryStore.onDisk()
        let sync = try enabled(store)
        let counts = ValueRecorder<Int>()
        let observation = sync.observeOutgoingCommands { result in
            if case .success(let count) = result { counts.record(count) }
        }
        defer { observation.cancel() }
        #expect(counts.wait { $0.contains(0) })
        try sync.queue(Self.outgoing(1))
        try sync.queue(Self.outgoing(2))
        #expect(counts.wait { $0.last == 2 })
        try sync.cancelCommand(Self.id(1))
        try sync.commandsSent([Self.id(2)])
        #expect(counts.wait { $0.last == 0 })
    }
}
