import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Salvage: what can be read from a damaged store goes to a new store that passes
/// `check`; the damaged file is never written.
@Suite struct RecoveryTests {
    static let tabCount = 1_000

    /// A store of `tabCount` tabs in two windows, with pinned tabs, groups, openers,
    /// three-entry histories and a closed tab; closed, so the WAL is folded in.
    static func makeStore(atPath path: String) throws {
        var configuration = SessionDatabase.Configuration()
        configuration.snapshots = nil
        let database = try SessionDatabase.open(atPath: path, configuration: configuration)
        let browsers = SQLiteBrowserRepository(database: database)
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        for window in 0..<2 {
            let browser = try browsers.createBrowser().id
            let count = tabCount / 2
            let webStates = (0..<count).map { _ in WebState() }
            try tabs.update(browser) { list in
                list = try WebStateList(
                    webStates: webStates, pinnedCount: 3, groupIDs: Array(repeating: nil, count: count), groups: [],
                    activeIndex: count / 2)
                _ = try list.createGroup(at: Array(10..<20), visualData: TabGroupVisualData(title: "G\(window)", color: .blue))
            }
            for (index, webState) in webStates.enumerated() {
                try histories.update(webState.id) { history in
                    for entry in 0..<3 {
                        try history.commit(NavigationItem(url: "https://w\(window).example/\(index)/\(entry)", title: "Tab \(index) page \(entry)"))
                    }
                }
            }
            try tabs.insert(in: browser, params: .automatic().withOpener(webStates[5].id))
        }
        try tabs.close(in: try browsers.browsers()[0].id, at: 30)
        try database.close()
    }

    /// The open tabs' identifiers and the page each tab row is on, read from an intact file.
    static func tabPages(atPath path: String) throws -> [String: Int] {
        var pages: [String: Int] = [:]
        for record in try SQLitePageScanner(path: path).tableRecords() where record.values.count == 10 {
            if case .text(let id) = record.values[0], id.count == 36, case .text = record.values[1] {
                pages[id] = record.page
            }
        }
        return pages
    }

    @Test func intactStore_isRecoveredWhole_andTheSourceIsNeverWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("store.sqlite")
        try Self.makeStore(atPath: source)
        let before = try Data(contentsOf: URL(fileURLWithPath: source))
        let output = directory.file("recovered.sqlite")
        let report = try SessionStoreFile.recover(from: source, to: output)
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
        #expect(report.tabsRecovered == Self.tabCount + 2 - 1)
        #expect(report.rowsKept.filter { $0.value > 0 } == report.rowsFound)
        #expect(try SessionStoreFile.check(atPath: output).isEmpty)
        let original = try SessionDatabase.openReadOnly(atPath: source)
        let recovered = try SessionDatabase.openReadOnly(atPath: output)
        #expect(try SessionDigest(recovered) == SessionDigest(original))
        try original.close()
        try recovered.close()
    }

    /// Pages zeroed at random (page 1 excepted): the tabs whose rows were on intact
    /// pages come back, at least 95% of them at 5% damage, and the result passes `check`.
    @Test(arguments: [(0.01, 1), (0.05, 2), (0.05, 3), (0.20, 4)])
    func zeroedPages_keepTheTabsOnIntactPages(fraction: Double, seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("store.sqlite")
        try Self.makeStore(atPath: source)
        let tabPages = try Self.tabPages(atPath: source)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: source)))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageCount = bytes.count / pageSize
        var rng = SplitMix64(seed: seed)
        let zeroed = Set((2...pageCount).shuffled(using: &rng).prefix(max(1, Int(Double(pageCount) * fraction))))
        for page in zeroed {
            bytes.replaceSubrange((page - 1) * pageSize..<page * pageSize, with: repeatElement(0, count: pageSize))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: source))
        let intact = Set(tabPages.filter { !zeroed.contains($0.value) }.keys)

        let output = directory.file("recovered.sqlite")
        let report = try SessionStoreFile.recover(from: source, to: output)
        #expect(try SessionStoreFile.check(atPath: output).isEmpty)
        let recovered = try SessionDatabase.openReadOnly(atPath: output)
        defer { try? recovered.close() }
        let archive = try recovered.exportArchive()
        let kept = Set(archive.browsers.flatMap { $0.tabs.map { $0.id.uuidString.lowercased() } })
        let share = Double(kept.intersection(intact).count) / Double(max(1, intact.count))
        print("recovery: \(Int(fraction * 100))% of \(pageCount) pages zeroed (seed \(seed)): "
            + "\(kept.intersection(intact).count) of \(intact.count) tabs on intact pages recovered "
            + "(\(String(format: "%.1f", share * 100))%), \(report.browsers.count) window(s), \(report.repairs.count) repair line(s)")
        if fraction <= 0.05 { #expect(share >= 0.95) }
    }

    /// A tab row that cannot be read (an outside writer's bad date) costs that tab, not the recovery.
    @Test func unreadableTabRow_costsThatTab() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("store.sqlite")
        try Self.makeStore(atPath: source)
        try PlainSQLite.execute(
            "UPDATE tabs SET created_at = x'ff00' WHERE rowid = (SELECT min(rowid) FROM tabs WHERE browser_id IS NOT NULL)",
            atPath: source)
        let output = directory.file("recovered.sqlite")
        let report = try SessionStoreFile.recover(from: source, to: output)
        #expect(report.tabsRecovered == Self.tabCount + 2 - 1 - 1)
        #expect(try SessionStoreFile.check(atPath: output).isEmpty)
    }

    @Test func existingOutput_orNothingReadable_isRefused_andWritesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.file("store.sqlite")
        try Self.makeStore(atPath: source)
        let existing = directory.file("exists.sqlite")
        #expect(FileManager.default.createFile(atPath: existing, contents: Data("x".utf8)))
        #expect(throws: StorageError.fileExists(path: existing)) { try SessionStoreFile.recover(from: source, to: existing) }
        let garbage = directory.file("garbage.sqlite")
        #expect(FileManager.default.createFile(atPath: garbage, contents: Data(repeating: 0xAB, count: 8192)))
        let output = directory.file("out.sqlite")
        #expect(throws: StorageError.self) { try SessionStoreFile.recover(from: garbage, to: output) }
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
