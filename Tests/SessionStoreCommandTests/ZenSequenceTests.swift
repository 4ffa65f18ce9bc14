import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Zen 1.18's loss (zen-browser/desktop #12166) replayed with the default
/// retention: an update writes an empty session, and the backups that follow
/// must not rotate the last good one away. The commands run as the built binary.
@Suite struct ZenSequenceTests {
    let binary = SessionStoreBinary()

    private func run(_ arguments: [String], in dir: TemporaryDirectory) throws -> SessionStoreBinary.Result {
        let result = try binary.run(arguments, in: dir.path)
        try #require(result.status == 0, "\(arguments): \(result)")
        return result
    }

    /// The snapshots as `snapshots --json` lists them.
    private func listed(_ path: String, in dir: TemporaryDirectory) throws -> [[String: Any]] {
        let json = try run(["snapshots", "--json", "--db", path], in: dir).stdout
        return try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    }

    /// 1,000 tabs snapshotted; `import --replace` of an empty document; 100 writes and
    /// 50 `sessionstore snapshot` commands; `restore-snapshot` of the kept snapshot
    /// brings back all 1,000 tabs.
    @Test func emptiedStore_thenFiftySnapshots_keepsTheLastGoodSession() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            _ = try run(["demo", "--db", path, "--browsers", "1", "--tabs", "1001", "--history", "1"], in: dir)
            #expect(try SessionStoreFile.status(atPath: path).counts?.tabs == 1000)
            _ = try run(["snapshot", "--db", path], in: dir)

            let empty = dir.file("empty.json")
            try Data(#"{"format": "sessionstore", "version": 1, "browsers": [], "closedEntries": []}"#.utf8)
                .write(to: URL(fileURLWithPath: empty))
            _ = try run(["import", empty, "--replace", "--db", path], in: dir)
            #expect(try SessionStoreFile.status(atPath: path).counts?.tabs == 0)

            // The app goes on in the emptied store, writing, while 50 snapshots are taken.
            let database = try SessionDatabase.open(atPath: path)
            let browser = try SQLiteBrowserRepository(database: database).createBrowser().id
            let tabs = SQLiteWebStateListRepository(database: database)
            // The window is the first write; 99 tabs, with a snapshot after every other one: 50.
            for step in 1..<100 {
                _ = try tabs.insert(in: browser, params: .automatic().activate())
                if step % 2 == 1 { _ = try run(["snapshot", "--db", path], in: dir) }
            }
            try database.close()

            let snapshots = try listed(path, in: dir)
            let kept = snapshots.filter { $0["is_kept_as_last_good"] as? Bool == true }
            try #require(kept.count == 1, "\(snapshots)")
            #expect(kept[0]["tab_count"] as? Int == 1000)
            // The newest three and the newest of the day (100 tabs at most), and the last good session.
            #expect(snapshots.count == 5, "\(snapshots)")
            #expect(snapshots.prefix(4).allSatisfy { ($0["tab_count"] as? Int ?? 1000) < 100 })
            #expect(!snapshots.contains { $0["is_foreign"] as? Bool == true })
            let name = try #require(kept[0]["name"] as? String)
            let text = try run(["snapshots", "--db", path], in: dir).stdout
            #expect(text.split(separator: "\n").contains { $0.hasPrefix(name) && $0.contains("1000 tabs  kept: last good session") }, "\(text)")

            _ = try run(["restore-snapshot", name, "--db", path], in: dir)
            #expect(try SessionStoreFile.status(atPath: path).counts?.tabs == 1000)
            #expect(try SessionStoreFile.check(atPath: path).isEmpty)
        }
    }

    /// A store made where another store's snapshots remain: `snapshots` shows them
    /// foreign, and `restore-snapshot` refuses one (exit 65, nothing changed) unless `--foreign`.
    @Test func foreignSnapshot_isShownForeign_andRefusedByRestore() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            // The demo closes one of its tabs: 2 open tabs here, 4 in the new store.
            _ = try run(["demo", "--db", path, "--browsers", "1", "--tabs", "3", "--history", "1"], in: dir)
            _ = try run(["snapshot", "--db", path], in: dir)
            let old = try #require(try listed(path, in: dir).first?["name"] as? String)
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            _ = try run(["demo", "--db", path, "--browsers", "1", "--tabs", "5", "--history", "1"], in: dir)

            let snapshots = try listed(path, in: dir)
            #expect(snapshots.first { $0["name"] as? String == old }?["is_foreign"] as? Bool == true, "\(snapshots)")
            // The new store snapshotted itself at its first commit: the old snapshot did not count.
            #expect(snapshots.contains { $0["is_foreign"] as? Bool == false }, "\(snapshots)")
            let text = try run(["snapshots", "--db", path], in: dir).stdout
            #expect(text.split(separator: "\n").contains { $0.hasPrefix(old) && $0.hasSuffix("foreign: another store's") }, "\(text)")

            let refused = try binary.run(["restore-snapshot", old, "--db", path], in: dir.path)
            #expect(refused.status == 65 && refused.stderr.contains("another store"), "\(refused)")
            #expect(refused.stderr.contains("--foreign"), "\(refused)")
            #expect(try SessionStoreFile.status(atPath: path).counts?.tabs == 4)
            #expect(try listed(path, in: dir).count == snapshots.count)

            _ = try run(["restore-snapshot", "--foreign", old, "--db", path], in: dir)
            #expect(try SessionStoreFile.status(atPath: path).counts?.tabs == 2)
        }
    }
}
