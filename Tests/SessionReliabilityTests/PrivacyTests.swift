import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// New files are private; cleared data leaves no trace. (Off-the-record browsing is covered by
/// `OffTheRecordTests.offTheRecordBrowsing_leavesNoTraceOnDisk`; clearing open tabs' history by
/// `OffTheRecordTests.secureDelete_clearedHistoryLeavesNoTraceAfterCheckpoint`.)
@Suite struct PrivacyTests {
    private func mode(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test func newStoreWALAndSHM_areOwnerOnly_evenWithAPermissiveUmask() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let previous = umask(0o000)
        defer { umask(previous) }
        let path = directory.file("store.sqlite")
        let database = try SessionDatabase.open(atPath: path)
        _ = try SQLiteBrowserRepository(database: database).createBrowser()
        for suffix in ["", "-wal", "-shm"] {
            #expect(mode(path + suffix) == 0o600, "\(suffix.isEmpty ? "store" : suffix): \(String(mode(path + suffix) ?? 0, radix: 8))")
        }
        try database.close()
        for arguments in [["demo", "--db", directory.file("demo.sqlite")], ["import", "-", "--db", directory.file("imported.sqlite")]] {
            let result = try runTool(arguments, in: directory.path, stdin: CrashWorkload.setUpDocument)
            #expect(result.status == 0, "\(result)")
            #expect(mode(arguments[arguments.count - 1]) == 0o600, "\(arguments[0])")
        }
    }

    @Test func exportOutputFile_isOwnerOnly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        #expect(try runTool(["demo", "--db", path], in: directory.path).status == 0)
        let output = directory.file("export.json")
        let result = try runTool(["export", "--db", path, "--output", output], in: directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(mode(output) == 0o600, "export: \(String(mode(output) ?? 0, radix: 8))")
    }

    @Test func clearingBrowsingData_reachesClosedTabs_andLeavesNoTraceAfterCheckpoint() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let database = try SessionDatabase.open(atPath: path)
        let marker = "closed-marker-\(UUID().uuidString)"
        // One word for the search index (letters only, so it is one token), in the marked title.
        let word = "zzq" + String(UUID().uuidString.lowercased().filter(\.isLetter).prefix(12))
        let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        let closedTab = WebState(), keptTab = WebState()
        try tabs.insert(closedTab, in: browser, params: .automatic())
        try tabs.insert(keptTab, in: browser, params: .automatic().activate())
        try histories.commit(NavigationItem(url: "https://\(marker).example/a", title: "\(marker) \(word)"), in: closedTab.id)
        let search = SQLiteTabSearchRepository(database: database)
        #expect(try search.searchTabs(word, includingClosed: true, limit: 10).map(\.tab) == [closedTab.id])
        try histories.commit(NavigationItem(url: "https://kept.example/", title: "kept"), in: closedTab.id)
        try histories.commit(NavigationItem(url: "https://kept.example/2", title: "kept"), in: keptTab.id)
        try tabs.close(in: browser, at: 0)  // now a recently closed tab holding the marker
        #expect(try SQLiteRecentlyClosedRepository(database: database).entries().count == 1)
        #expect(try histories.clearBrowsingData(.host("\(marker).example")) == 1)
        #expect(try histories.history(of: closedTab.id).items.map(\.url) == ["https://kept.example/"])
        #expect(try search.searchTabs(word, includingClosed: true, limit: 10).isEmpty)
        try database.close()
        for file in try filesBelow(directory.path) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file(file)))
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(file) holds the cleared marker")
            #expect(bytes.range(of: Data(word.utf8)) == nil, "\(file) holds the cleared marker's word (search index)")
        }
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
    }

    /// Forgetting a recently closed tab removes its page's words from the search
    /// index's segments too (an FTS5 delete alone only marks them), so no byte of
    /// the db, the WAL or free pages holds them once the WAL is checkpointed.
    @Test func forgettingAClosedTab_leavesNoWordOfItsPageInTheSearchIndex() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("store.sqlite")
        let database = try SessionDatabase.open(atPath: path)
        let word = "zzq" + String(UUID().uuidString.lowercased().filter(\.isLetter).prefix(12))
        let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        let forgotten = WebState()
        try tabs.insert(forgotten, in: browser, params: .automatic())
        try tabs.insert(WebState(), in: browser, params: .automatic().activate())
        try histories.commit(NavigationItem(url: "https://\(word).example/", title: "About \(word)"), in: forgotten.id)
        try tabs.close(in: browser, at: 0)
        let closed = SQLiteRecentlyClosedRepository(database: database)
        try closed.forget(try #require(closed.entries().first).id)
        #expect(try SQLiteTabSearchRepository(database: database).searchTabs(word, includingClosed: true, limit: 10).isEmpty)
        try database.close()
        for file in try filesBelow(directory.path) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file(file)))
            #expect(bytes.range(of: Data(word.utf8)) == nil, "\(file) holds the forgotten page's word")
        }
        #expect(try SessionStoreFile.check(atPath: path).isEmpty)
    }

    // MARK: - Cleared means gone (issue 35): `clear` and `prune`, byte scans of every file

    /// Pages to clear and a page to keep, each unique to one run, planted where a
    /// store keeps pages: an open tab (with its engine state), a recently closed
    /// tab, the search index, another device's tab, a queued command, and a
    /// snapshot taken before the clearing, with a copy of it in a subfolder of the
    /// snapshot folder, where retention would not look.
    private struct Planted {
        let directory: TemporaryDirectory
        let path: String
        let browser: BrowserID
        let unique = UUID().uuidString.lowercased()
        /// A word of the cleared pages' titles (letters only: one token of the search index).
        let word = "zzq" + String(UUID().uuidString.lowercased().filter(\.isLetter).prefix(12))
        var clearedOpen: String { "https://cleared-open-\(unique).example/" }
        var clearedClosed: String { "https://cleared-closed-\(unique).example/" }
        var clearedRemote: String { "https://cleared-remote-\(unique).example/" }
        var kept: String { "https://kept-\(unique).example/" }

        /// `remote`: also another device's tab and a queued command on a cleared page (now).
        init(remote: Bool) throws {
            directory = try TemporaryDirectory()
            path = directory.file("store.sqlite")
            // No automatic snapshot while planting: the one snapshot is the one ``snapshot()`` takes.
            var configuration = SessionDatabase.Configuration()
            configuration.snapshots = nil
            let database = try SessionDatabase.open(atPath: path, configuration: configuration)
            let browsers = SQLiteBrowserRepository(database: database)
            browser = try browsers.createBrowser().id
            let other = try browsers.createBrowser().id
            let tabs = SQLiteWebStateListRepository(database: database)
            let histories = SQLiteNavigationHistoryRepository(database: database)
            let open = WebState(), closed = WebState(), keptTab = WebState()
            try tabs.insert(open, in: browser, params: .automatic().activate())
            try tabs.insert(closed, in: browser, params: .automatic())
            try tabs.insert(keptTab, in: other, params: .automatic().activate())
            // The kept page was visited long ago, in another browser: `--since` and `--browser` keep it.
            // It names a cleared page as its referrer, which goes.
            try histories.commit(
                NavigationItem(
                    url: kept, title: "kept", referrerURL: "https://cleared-open-\(unique).example/",
                    timestamp: Date(timeIntervalSince1970: 1_000_000_000)),
                in: keptTab.id)
            try histories.commit(NavigationItem(url: clearedOpen, title: "open \(word)"), in: open.id)
            _ = try histories.setEngineState(Data("engine state of \(clearedOpen)".utf8), for: open.id)
            try histories.commit(NavigationItem(url: clearedClosed, title: "closed \(word)"), in: closed.id)
            try tabs.close(in: browser, at: 1)
            #expect(try SQLiteRecentlyClosedRepository(database: database).entries().count == 1)
            try database.close()
            if remote {
                let millis = Int64(Date().timeIntervalSince1970 * 1000)
                let payload = #"{"v":1,"navigations":[{"url":"\#(clearedRemote)","title":"remote","time":\#(millis)}]}"#
                try PlainSQLite.execute(
                    """
                    INSERT INTO sync_remote_records (record_id, device_id, kind, version, seq, modified_at, payload)
                    VALUES ('\(String(repeating: "a", count: 32))', 'other', 'tab', 1, 1, '2026-01-01 00:00:00.000', ?);
                    INSERT INTO sync_outgoing_commands (command_id, target_device_id, payload, created_at, send_after, expires_at)
                    VALUES ('\(UUID().uuidString.lowercased())', 'other', ?, strftime('%Y-%m-%d %H:%M:%f', 'now'),
                            '2999-01-01 00:00:00.000', '2999-01-01 00:00:00.000');
                    """,
                    arguments: [payload, #"{"v":1,"type":"send_tab","tab":{"url":"\#(clearedRemote)","title":"sent"}}"#],
                    atPath: path)
            }
        }

        /// Takes a snapshot with the command, and copies it into a subfolder of the snapshot folder.
        func snapshot() throws {
            let taken = try runTool(["snapshot", "--db", path], in: directory.path)
            #expect(taken.status == 0, "\(taken)")
            let folder = path + ".snapshots"
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".sqlite") })
            try FileManager.default.createDirectory(atPath: folder + "/kept", withIntermediateDirectories: false)
            try FileManager.default.copyItem(atPath: folder + "/" + name, toPath: folder + "/kept/" + name)
        }

        /// Every file below the directory that holds one of `needles`, with the needle.
        func filesHolding(_ needles: [String]) throws -> [String] {
            try filesBelow(directory.path).flatMap { file in
                let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file(file)))
                return needles.filter { bytes.range(of: Data($0.utf8)) != nil }.map { "\(file): \($0)" }
            }
        }

        /// The URLs of every history entry left in the store.
        func urls() throws -> Set<String> {
            Set(try PlainSQLite.strings("SELECT url FROM navigation_entries", atPath: path))
        }
    }

    /// Goal "Cleared means gone": after `clear --all`, `--since DATE` or `--browser ID`
    /// with no other reader, no file of the store (the database, its `-wal` and `-shm`,
    /// free pages, `FILE.snapshots/` with a subfolder, temporaries, the sync rows) holds
    /// a cleared URL or a word of a cleared page; the kept page stays where the filter keeps it.
    @Test(arguments: ["--all", "--since", "--browser"])
    func clearCommand_leavesNoClearedPageInAnyFileOfTheStore(_ how: String) throws {
        let planted = try Planted(remote: how != "--browser")
        defer { planted.directory.remove() }
        try planted.snapshot()
        let cleared = [planted.clearedOpen, planted.clearedClosed, planted.word] + (how == "--browser" ? [] : [planted.clearedRemote])
        #expect(try !planted.filesHolding(cleared).isEmpty)

        let value = ["--all": [], "--since": ["2020-01-01"], "--browser": [planted.browser.uuidString]][how] ?? []
        let result = try runTool(["clear", how] + value + ["--db", planted.path], in: planted.directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("Cleared \(how == "--all" ? 3 : 2) history entries"), "\(result)")
        #expect(result.stdout.contains("Deleted 2 snapshots that held cleared pages"), "\(result)")
        #expect(result.stdout.contains("The WAL was folded into the file and truncated"), "\(result)")

        #expect(try planted.filesHolding(cleared) == [])
        #expect(try planted.urls() == (how == "--all" ? [] : [planted.kept]))
        #expect(try PlainSQLite.strings("SELECT count(*) FROM navigation_entries WHERE referrer_url IS NOT NULL", atPath: planted.path) == ["0"])
        #expect(try SessionStoreFile.check(atPath: planted.path).isEmpty)
        // The fresh snapshot holds the store as cleared, and is the only one left.
        let snapshots = try SessionStoreFile.snapshots(atPath: planted.path)
        #expect(snapshots.count == 1)
        #expect(try filesBelow(planted.path + ".snapshots").count == 1)
    }

    /// `prune` of an expired closed tab: no file of the store keeps its URL or a
    /// word of its page, the snapshots that held it included.
    @Test func pruneCommand_leavesNoPrunedPageInAnyFileOfTheStore() throws {
        let planted = try Planted(remote: false)
        defer { planted.directory.remove() }
        try planted.snapshot()
        try PlainSQLite.execute("UPDATE closed_entries SET closed_at = '2001-01-01 00:00:00.000'", atPath: planted.path)
        #expect(try !planted.filesHolding([planted.clearedClosed]).isEmpty)

        let result = try runTool(["prune", "--db", planted.path], in: planted.directory.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("Removed 1 expired closed entry; reclaimed"), "\(result)")
        #expect(result.stdout.contains("Deleted 2 snapshots that held a pruned tab"), "\(result)")
        // The closed tab's page is gone everywhere; the open tab's page stays.
        #expect(try planted.filesHolding([planted.clearedClosed, "closed \(planted.word)"]) == [])
        #expect(try planted.urls() == [planted.kept, planted.clearedOpen])
        #expect(try SessionStoreFile.check(atPath: planted.path).isEmpty)
    }
}
