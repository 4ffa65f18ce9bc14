import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Rolling snapshots: taken beside writers, kept by the policy, restored into
/// the open file, cleared with browsing data, never for off-the-record stores.
@Suite struct SnapshotTests {
    @Test func restoredSnapshot_equalsTheStateAtSnapshotTime_andTheRestoreCanBeUndone() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("a | b* [ 0 c d ] e", openers: ["e": "b"])
        try store.histories.commit(NavigationItem(url: "https://a.example/", title: "A"), in: try store.tabs.webStateList(in: browser).webStates[0].id)
        let snapshot = try #require(try store.database.takeSnapshot())
        let atSnapshot = try SessionDigest(store.database)
        try store.tabs.close(in: browser, at: 1)
        try store.tabs.insert(in: browser, params: .automatic().activate())
        _ = try store.browsers.createBrowser()
        let afterwards = try SessionDigest(store.database)
        #expect(afterwards != atSnapshot)

        let mode = try FileManager.default.attributesOfItem(atPath: snapshot.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try store.database.restoreSnapshot(named: snapshot.name)
        #expect(try SessionDigest(store.database) == atSnapshot)
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
        // The list cache and revisions follow: a write after the restore acts on the restored list.
        try store.tabs.activate(in: browser, at: 0)
        #expect(try store.tabs.webStateList(in: browser).count == 5)

        // The restore snapshotted the content it replaced first: restoring that one undoes it.
        let undo = try #require(try store.database.snapshots().first { $0.name != snapshot.name && $0.takenAt > snapshot.takenAt })
        try store.database.restoreSnapshot(named: undo.name)
        try store.reopen()
        #expect(try SessionDigest(store.database) == afterwards)
    }

    @Test func snapshots_areTakenAfterCommits_byThePolicy_andPruned() throws {
        var configuration = SessionDatabase.Configuration()
        var policy = SnapshotPolicy()
        policy.interval = 0
        policy.keepLatest = 2
        configuration.snapshots = policy
        let store = try TemporaryStore.onDisk(configuration: configuration)
        let (browser, _) = try store.seed("| a* b")
        for step in 0..<6 {
            try store.tabs.activate(in: browser, at: step % 2)
            store.database.snapshotKeeper?.drain()
        }
        let snapshots = try store.database.snapshots()
        // The newest two, plus the newest of today.
        #expect(snapshots.count == 3, "\(snapshots.map(\.name))")
        #expect(snapshots == snapshots.sorted { $0.takenAt > $1.takenAt })
    }

    @Test func retention_keepsTheNewest_thenOneADay_forSevenDays() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let hour: TimeInterval = 60 * 60
        let ages: [TimeInterval] = [0, 1, 2, 3, 4, 26, 27, 50, 24 * 8, 24 * 9].map { $0 * hour }
        let snapshots = ages.map { age in
            let date = now.addingTimeInterval(-age)
            return StoreSnapshot(name: SnapshotKeeper.name(for: date), path: "/x/" + SnapshotKeeper.name(for: date), takenAt: date, sizeBytes: 1)
        }
        let expired = SnapshotKeeper.expired(snapshots, policy: SnapshotPolicy(), now: now)
        let kept = snapshots.filter { !expired.contains($0) }.map { Int(now.timeIntervalSince($0.takenAt) / hour) }
        // 0, 1, 2 are the newest three; then the newest of each day within 7 days.
        #expect(kept.count < snapshots.count)
        #expect(Array(kept.prefix(3)) == [0, 1, 2])
        #expect(!kept.contains(24 * 8) && !kept.contains(24 * 9))
        #expect(Set(kept.dropFirst(3)).count == kept.count - 3)
    }

    /// Clearing browsing data deletes the snapshots that hold it, one in a
    /// subfolder of the snapshot folder too (where retention does not look), and
    /// keeps the others: no file of the folder keeps the cleared URL, and a fresh
    /// snapshot holds the store as cleared.
    @Test func clearBrowsingData_deletesEverySnapshotHoldingTheClearedURL_andKeepsTheOthers() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a* b")
        let tab = try store.tabs.webStateList(in: browser).webStates[1].id
        try store.histories.commit(NavigationItem(url: "https://public.example/", title: "Public"), in: tab)
        let clean = try #require(try store.database.takeSnapshot())
        try store.histories.commit(NavigationItem(url: "https://secret.example/private", title: "Secret"), in: tab)
        try store.histories.commit(NavigationItem(url: "https://public.example/2", title: "Public"), in: tab)
        let holding = try #require(try store.database.takeSnapshot())
        let directory = try #require(store.database.snapshotKeeper?.directory)
        try FileManager.default.createDirectory(atPath: directory + "/kept", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: holding.path, toPath: directory + "/kept/" + holding.name)
        #expect(SnapshotKeeper.snapshotFiles(in: directory).contains("kept/" + holding.name))

        try store.histories.clearBrowsingData(.host("secret.example"))
        let left = SnapshotKeeper.snapshotFiles(in: directory)
        #expect(left.contains(clean.name))
        #expect(!left.contains(holding.name) && !left.contains("kept/" + holding.name))
        #expect(left.count >= 2, "the clean snapshot and a fresh one: \(left)")
        let files = try left.map { try Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0)) }
        #expect(!files.contains { $0.range(of: Data("secret.example".utf8)) != nil })
        #expect(files.contains { $0.range(of: Data("public.example/2".utf8)) != nil })
    }

    /// The `async` forms of clearing and pruning delete the snapshots that hold what they removed, as the synchronous ones do.
    @Test func clearingAndPruning_async_deleteTheSnapshotsHoldingWhatTheyRemoved() async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a* b c")
        let tabs = try await store.tabs.webStateList(in: browser).webStates.map(\.id)
        try await store.histories.commit(NavigationItem(url: "https://secret.example/", title: "Secret"), in: tabs[1])
        try await store.histories.commit(NavigationItem(url: "https://closed.example/", title: "Closed"), in: tabs[2])
        try await store.tabs.close(in: browser, at: 2)
        let directory = try #require(store.database.snapshotKeeper?.directory)
        let first = try #require(try await store.database.takeSnapshot())
        #expect(try await store.histories.clearBrowsingData(.url("https://secret.example/")) == 1)
        #expect(!SnapshotKeeper.snapshotFiles(in: directory).contains(first.name))

        let second = try #require(try await store.database.takeSnapshot())
        try PlainSQLite.execute("UPDATE closed_entries SET closed_at = '2001-01-01 00:00:00.000'", atPath: try #require(store.path))
        #expect(try await SQLiteRecentlyClosedRepository(database: store.database).pruneExpired() == 1)
        #expect(!SnapshotKeeper.snapshotFiles(in: directory).contains(second.name))
        for name in SnapshotKeeper.snapshotFiles(in: directory) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            #expect(bytes.range(of: Data("secret.example".utf8)) == nil && bytes.range(of: Data("closed.example".utf8)) == nil)
        }
    }

    @Test func offTheRecord_neverSnapshots() throws {
        let database = try SessionDatabase.inMemory()
        _ = try SQLiteBrowserRepository(database: database).createBrowser()
        #expect(try database.takeSnapshot() == nil)
        #expect(try database.snapshots().isEmpty)
    }

    @Test func restore_unknownName_throws_andChangesNothing() throws {
        let store = try TemporaryStore.onDisk()
        _ = try store.seed("| a*")
        let before = try SessionDigest(store.database)
        #expect(throws: StorageError.unknownSnapshot("nope.sqlite")) { try store.database.restoreSnapshot(named: "nope.sqlite") }
        #expect(try SessionDigest(store.database) == before)
    }

    /// A snapshot taken while another thread writes as fast as it can is a
    /// consistent store, and its restore beside that writer leaves a sound file.
    @Test func snapshotAndRestore_besideAWriter_leaveSoundFiles() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a*")
        let tabs = store.tabs
        let stop = Protected(false)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while !stop.withLock({ $0 }) {
                _ = try? tabs.insert(in: browser, params: .automatic().activate())
            }
            done.signal()
        }
        var taken: [StoreSnapshot] = []
        for _ in 0..<3 { if let snapshot = try store.database.takeSnapshot() { taken.append(snapshot) } }
        for snapshot in taken { #expect(try SessionStoreFile.check(atPath: snapshot.path).isEmpty) }
        try store.database.restoreSnapshot(named: taken[0].name)
        stop.withLock { $0 = true }
        done.wait()
        #expect(try SessionStoreFile.check(atPath: try #require(store.path)).isEmpty)
    }
}
