import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Backups that keep the last good session: rotation never lets go of the newest
/// snapshot that held tabs while the store holds far fewer, snapshots belong to
/// their store, and an operation that removes most tabs snapshots first.
@Suite struct LastGoodSnapshotTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let store = "0123456789abcdef"

    /// Snapshots `minutes` old with `tabs` each, newest first, named as the keeper names them.
    static func snapshots(_ entries: [(minutes: Double, tabs: Int?)], store: String? = store) -> [StoreSnapshot] {
        entries.map { entry in
            let date = now.addingTimeInterval(-entry.minutes * 60)
            let name = SnapshotKeeper.name(for: date, tabs: entry.tabs, store: store)
            return SnapshotKeeper.snapshot(named: name, path: "/x/" + name, takenAt: date, sizeBytes: 1)
        }
    }

    static func keptTabs(_ snapshots: [StoreSnapshot], policy: SnapshotPolicy = SnapshotPolicy(), storeID: String? = store) -> [Int?] {
        let expired = SnapshotKeeper.expired(snapshots, policy: policy, now: now, storeID: storeID)
        return snapshots.filter { !expired.contains($0) }.map(\.tabCount)
    }

    @Test func name_recordsTabsStoreAndKind_andOlderNamesStillParse() throws {
        let date = Self.now
        let name = SnapshotKeeper.name(for: date, tabs: 1000, store: Self.store, beforeOperation: true)
        #expect(name == "2027-01-15T08-00-00.000Z.t1000.s0123456789abcdef.before.sqlite")
        let parsed = SnapshotKeeper.snapshot(named: name, path: "/x/" + name, takenAt: date, sizeBytes: 1)
        #expect(parsed.tabCount == 1000 && parsed.storeID == Self.store && parsed.isBeforeOperation)
        let second = SnapshotKeeper.snapshot(
            named: name.replacingOccurrences(of: ".sqlite", with: "-2.sqlite"), path: "/x", takenAt: date, sizeBytes: 1)
        #expect(second.tabCount == 1000 && second.storeID == Self.store && second.isBeforeOperation)
        let older = SnapshotKeeper.snapshot(named: "2027-01-15T08-00-00.000Z-2.sqlite", path: "/x", takenAt: date, sizeBytes: 1)
        #expect(older.tabCount == nil && older.storeID == nil && !older.isBeforeOperation)
    }

    /// The Zen case in one list: 1,000 tabs, then a dozen empty snapshots the same day.
    @Test func expired_keepsTheLastGoodSnapshot_whileEveryNewerOneIsFarSmaller() {
        let snapshots = Self.snapshots((0..<12).map { (Double($0), 0) } + [(12, 1000), (13, 1000)])
        // The newest three, the newest of the day beyond them, and the last good session.
        #expect(Self.keptTabs(snapshots) == [0, 0, 0, 0, 1000])
        #expect(SnapshotKeeper.lastGood(among: snapshots, policy: SnapshotPolicy())?.name == snapshots[12].name)

        // A few tabs opened since do not let it go: 40 is less than half of 1,000.
        let afew = Self.snapshots([(0, 40), (1, 3), (2, 0), (3, 0), (4, 0), (5, 0), (6, 1000)])
        #expect(Self.keptTabs(afew) == [40, 3, 0, 0, 1000])

        // Nor does age: one a day is kept for 7 days, the last good one beyond.
        let old = Self.snapshots([(0, 0), (1, 0), (2, 0), (60 * 24 * 30, 800), (60 * 24 * 31, 900)])
        #expect(Self.keptTabs(old) == [0, 0, 0, 800])
    }

    /// An older version's snapshots (no tab count) neither are kept nor hide the last good one behind them.
    @Test func lastGood_looksPastSnapshotsOfUnknownSize() {
        let mixed = Self.snapshots([(0, 0), (1, nil), (2, 0), (3, 1000), (4, nil)])
        #expect(SnapshotKeeper.lastGood(among: mixed, policy: SnapshotPolicy())?.tabCount == 1000)
        #expect(SnapshotKeeper.lastGood(among: Self.snapshots([(0, nil), (1, nil)]), policy: SnapshotPolicy()) == nil)
    }

    @Test func expired_letsItGo_onceANewerSnapshotOfSimilarSizeReplacesIt() {
        // 600 is at least half of 1,000: the older one is rotated as any other.
        let replaced = Self.snapshots([(0, 0), (1, 0), (2, 0), (3, 600), (4, 0), (5, 1000)])
        #expect(Self.keptTabs(replaced) == [0, 0, 0, 600])
        // The threshold is configurable: at 0.7, 600 tabs no longer count as similar to 1,000.
        var strict = SnapshotPolicy()
        strict.keepLastGoodBelow = 0.7
        let similar = Self.snapshots([(0, 600), (1, 0), (2, 0), (3, 0), (4, 1000)])
        #expect(SnapshotKeeper.lastGood(among: similar, policy: SnapshotPolicy()) == nil)
        #expect(SnapshotKeeper.lastGood(among: similar, policy: strict)?.tabCount == 1000)
        // Off: the plain retention.
        var off = SnapshotPolicy()
        off.keepLastGoodBelow = 0
        #expect(Self.keptTabs(Self.snapshots([(0, 0), (1, 0), (2, 0), (3, 0), (4, 1000)]), policy: off) == [0, 0, 0, 0])
        // A store as large as its snapshots keeps none beyond the plain retention.
        #expect(SnapshotKeeper.lastGood(among: Self.snapshots([(0, 10), (1, 9), (2, 12), (3, 11)]), policy: SnapshotPolicy()) == nil)
    }

    @Test func expired_neitherCountsNorDeletesForeignSnapshots() {
        let own = Self.snapshots([(0, 5), (1, 5), (2, 5), (3, 5), (4, 5)])
        let foreign = Self.snapshots([(10, 900), (11, 900), (12, 900), (13, 900)], store: "fedcba9876543210")
        let all = (own + foreign).sorted { $0.takenAt > $1.takenAt }
        let expired = SnapshotKeeper.expired(all, policy: SnapshotPolicy(), now: Self.now, storeID: Self.store)
        // Of its own: the newest three, and the newest of the day beyond them; the fifth goes.
        #expect(expired.map(\.name) == own.suffix(1).map(\.name))
        let annotated = SnapshotKeeper.annotated(all, storeID: Self.store, policy: SnapshotPolicy())
        #expect(annotated.filter(\.isForeign).map(\.name) == foreign.map(\.name))
        // The foreign 900-tab ones are not this store's last good session.
        #expect(annotated.filter(\.isKeptAsLastGood).isEmpty)
    }

    /// A snapshot records what it holds, and a store a snapshot was taken of keeps its identity through a restore.
    @Test func takenSnapshot_recordsItsTabsAndStore() throws {
        let store = try TemporaryStore.onDisk()
        _ = try store.seed("| a* b c")
        let snapshot = try #require(try store.database.takeSnapshot())
        let path = try #require(store.path)
        let identity = try #require(SessionStoreFile.storeIdentity(atPath: path))
        #expect(snapshot.tabCount == 3)
        #expect(snapshot.storeID == identity && !snapshot.isForeign && !snapshot.isBeforeOperation)
        #expect(try store.database.snapshots().first?.tabCount == 3)
    }

    /// A new store made where an older store's snapshots remain: it snapshots itself on
    /// schedule, shows the old ones foreign, and restores one only when asked.
    @Test func newStoreAtTheSamePath_doesNotTakeTheOldSnapshotsForItsOwn() throws {
        let old = try TemporaryStore.onDisk()
        let path = try #require(old.path)
        _ = try old.seed("| a* b c d")
        let oldSnapshot = try #require(try old.database.takeSnapshot())
        try old.database.close()
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }

        // Made a millisecond later at least: another first migration time.
        Thread.sleep(forTimeInterval: 0.01)
        let database = try SessionDatabase.open(atPath: path)
        defer { try? database.close() }
        let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
        let tabs = SQLiteWebStateListRepository(database: database)
        try tabs.insert(in: browser, params: .automatic().activate())
        database.snapshotKeeper?.drain()

        // The first commit was followed by a snapshot of its own: the old ones, just taken, did not count.
        let listed = try database.snapshots()
        let foreign = listed.filter(\.isForeign).map(\.name)
        #expect(foreign.count == 2 && foreign.contains(oldSnapshot.name), "\(listed.map(\.name))")
        #expect(listed.filter { !$0.isForeign }.count == 1, "\(listed.map(\.name))")
        #expect(try SessionStoreFile.snapshots(atPath: path).filter(\.isForeign).map(\.name) == foreign)

        // Refused, and nothing changes; asked for, its content comes back under the new store's identity.
        let before = try SessionDigest(database)
        #expect(throws: StorageError.foreignSnapshot(oldSnapshot.name)) { try database.restoreSnapshot(named: oldSnapshot.name) }
        #expect(try SessionDigest(database) == before)
        #expect(try database.snapshots().count == 3)
        let identity = SessionStoreFile.storeIdentity(atPath: path)
        try database.restoreSnapshot(named: oldSnapshot.name, allowingForeign: true)
        #expect(try SessionStoreFile.status(atPath: path).counts?.tabs == 4)
        #expect(SessionStoreFile.storeIdentity(atPath: path) == identity)
        #expect(try database.snapshots().filter(\.isForeign).map(\.name) == foreign)
    }

    /// `import --replace` with fewer tabs snapshots first when the newest snapshot is
    /// older than the last change, once an interval; with more tabs it does not.
    @Test func replacingImportWithFewerTabs_snapshotsFirst() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a* b c d e")
        try store.database.takeSnapshot()
        try store.tabs.insert(in: browser, params: .automatic().activate())
        let empty = SessionArchive(browsers: [], closedEntries: [])
        let before = try store.database.snapshots().count

        try store.database.importArchive(empty, replacing: true)
        var listed = try store.database.snapshots()
        #expect(listed.count == before + 1)
        #expect(listed.first?.isBeforeOperation == true && listed.first?.tabCount == 6)

        // Within the interval, another one is not taken, whatever changed since.
        let (again, _) = try store.seed("| f* g")
        _ = again
        try store.database.importArchive(empty, replacing: true)
        listed = try store.database.snapshots()
        #expect(listed.count == before + 1)

        // More tabs than the store holds: nothing is taken.
        var policy = SnapshotPolicy()
        policy.interval = 0
        var configuration = SessionDatabase.Configuration()
        configuration.snapshots = policy
        let other = try TemporaryStore.onDisk(configuration: configuration)
        _ = try other.seed("| a*")
        let larger = try other.database.exportArchive()
        try other.database.importArchive(empty, replacing: true)
        #expect(try other.database.snapshots().filter(\.isBeforeOperation).count == 1)
        try other.database.importArchive(larger, replacing: true)
        #expect(try other.database.snapshots().filter(\.isBeforeOperation).count == 1)
    }

    /// Migrating a store that holds tabs snapshots it first, in its older schema, beside the migration's backup.
    @Test func migration_snapshotsTheStoreFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("s.sqlite")
        var older = SessionDatabase.Configuration()
        older.knownMigrationCount = EmbeddedMigration.all.count - 1
        let database = try SessionDatabase.open(atPath: path, configuration: older)
        let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
        let tabs = SQLiteWebStateListRepository(database: database)
        for _ in 0..<3 { _ = try tabs.insert(in: browser, params: .automatic().activate()) }
        try database.close()

        let migrated = try SessionDatabase.open(atPath: path)
        defer { try? migrated.close() }
        let before = try #require(try migrated.snapshots().first(where: \.isBeforeOperation))
        #expect(before.tabCount == 3 && !before.isForeign)
    }
}
