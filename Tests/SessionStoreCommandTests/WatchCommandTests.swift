import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing
@testable import SessionStoreCommand

/// `sessionstore watch`, run as a separate process while this one changes the file.
@Suite struct WatchCommandTests {
    let binary = SessionStoreBinary()

    @Test func watch_printsTheStrip_thenAnUpdateFromAnotherProcess_andExitsZeroOnSIGINT() throws {
        let store = try TemporaryStore.onDisk()
        let path = try #require(store.path)
        let (browser, names) = try store.seed("a | b* c")
        try store.histories.commit(NavigationItem(url: "https://example.org/", title: "Example"), in: names.webStateID("b"))
        let watch = try WatchProcess(path: binary.path, arguments: ["--db", path], in: store.directory!.path)
        defer { if watch.process.isRunning { watch.process.terminate() } }

        #expect(watch.waitForLines { $0.count >= 1 }, "no initial line; stderr: \(watch.errorText)")
        #expect(watch.lines.first == #"3 tabs: (empty) | "Example"* (empty)"#)

        // This process is another process to the watcher: its change arrives through data_version.
        try store.tabs.close(in: browser, at: 2)
        #expect(watch.waitForLines { $0.count >= 2 }, "no update line; stderr: \(watch.errorText)")
        #expect(watch.lines.dropFirst().first == #"-1 +0 >0 ~0: 2 tabs: (empty) | "Example"*"#)

        watch.process.interrupt()
        #expect(watch.waitForExit() == 0)
        #expect(watch.lines.count == 2)
        #expect(watch.errorText == "watching browser \(browser) in \(path); Ctrl-C to stop\n")
    }

    /// SIGTERM the moment the first line arrives ends the watch at once, every time: the
    /// signals are caught before anything is read (a SIGTERM that came before was lost,
    /// 3 times in 30 on a small store, and the watch ran on).
    @Test func watch_sigtermRightAfterTheFirstLine_alwaysExitsZero() throws {
        let store = try TemporaryStore.onDisk()
        let path = try #require(store.path)
        _ = try store.seed("| a b*")
        for round in 0..<20 {
            let watch = try WatchProcess(path: binary.path, arguments: ["--db", path], in: store.directory!.path)
            defer { if watch.process.isRunning { kill(watch.process.processIdentifier, SIGKILL) } }
            #expect(watch.waitForLines { $0.count >= 1 }, "round \(round): no first line; stderr: \(watch.errorText)")
            watch.process.terminate()
            #expect(watch.waitForExit(timeout: 5) == 0, "round \(round): SIGTERM did not end the watch")
        }
    }

    /// A SIGTERM at any instant of the watch's start ends it: one sent while a dispatch
    /// signal source was being registered (the signal ignored meanwhile) was lost, about
    /// 1 in 300 starts, and the watch ran on (the shared-store suite found it).
    @Test func watch_sigtermAtAnyMomentOfItsStart_endsIt() throws {
        let store = try TemporaryStore.onDisk()
        let path = try #require(store.path)
        _ = try store.seed("| a b*")
        var rng = SplitMix64(seed: 29)
        // posix_spawn and waitpid, not Foundation's Process: 200 quick launches of it
        // beside the other tests once crashed libdispatch's event loop in the test process.
        let argv: [UnsafeMutablePointer<CChar>?] = [binary.path, "watch", "--db", path].map { (text: String) in strdup(text) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        for round in 0..<200 {
            var pid: pid_t = 0
            guard posix_spawn(&pid, binary.path, &actions, nil, argv, environ) == 0 else {
                Issue.record("round \(round): cannot start the watch")
                return
            }
            Thread.sleep(forTimeInterval: Double.random(in: 0..<0.06, using: &rng))
            kill(pid, SIGTERM)
            var status: Int32 = 0
            var endedInTime = false
            for _ in 0..<500 {
                if waitpid(pid, &status, WNOHANG) == pid {
                    endedInTime = true
                    break
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            if !endedInTime {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
            }
            #expect(endedInTime, "round \(round): SIGTERM did not end the watch")
        }
    }

    @Test func watch_givenBrowser_isTheOneWatched_andClosingItEndsTheWatch() throws {
        let store = try TemporaryStore.onDisk()
        let path = try #require(store.path)
        let (first, _) = try store.seed("| a*", scope: 1)
        let (second, _) = try store.seed("| a* b", scope: 2)
        try store.browsers.markActive(second)
        // A prefix of the browser's identifier, as `ls` prints it.
        let prefix = String(first.uuidString.prefix(8))
        let watch = try WatchProcess(path: binary.path, arguments: ["--db", path, "--browser", prefix], in: store.directory!.path)
        defer { if watch.process.isRunning { watch.process.terminate() } }
        #expect(watch.waitForLines { $0.count >= 1 }, "stderr: \(watch.errorText)")
        #expect(watch.lines == ["1 tab: | (empty)*"])
        try store.browsers.closeBrowser(first)
        #expect(watch.waitForExit() == 0)
        // The exit can be seen before the pipe's last chunk is read: wait for it.
        _ = watch.waitForLines(timeout: 5) { $0.count >= 2 }
        #expect(watch.lines == ["1 tab: | (empty)*", "closed"])
    }

    /// A store deleted, or replaced by another file renamed over it, under a running
    /// watch: one line on stderr and exit 65, as for a store that cannot be read.
    @Test(arguments: ["deleted", "replaced"])
    func watch_storeDeletedOrReplaced_saysSo_andExits65(how: String) throws {
        try TemporaryDirectory.with { dir in
            #expect(try binary.run(["demo", "--browsers", "1", "--tabs", "3"], in: dir.path).status == 0)
            let path = dir.file("sessionstore.sqlite")
            let watch = try WatchProcess(path: binary.path, arguments: ["--db", path], in: dir.path)
            defer { if watch.process.isRunning { watch.process.terminate() } }
            #expect(watch.waitForLines { $0.count >= 1 }, "no initial line; stderr: \(watch.errorText)")
            if how == "deleted" {
                try FileManager.default.moveItem(atPath: path, toPath: dir.file("moved.sqlite"))
            } else {
                #expect(try binary.run(["demo", "--db", "other.sqlite", "--browsers", "1", "--tabs", "2"], in: dir.path).status == 0)
                #expect(rename(dir.file("other.sqlite"), path) == 0)
            }
            #expect(watch.waitForExit() == 65, "stderr: \(watch.errorText)")
            #expect(watch.errorText.contains(how == "deleted" ? "deleted or moved away" : "replaced by another file"),
                    "stderr: \(watch.errorText)")
        }
    }

    @Test func watch_missingFile_failsLikeTheOtherSubcommands() throws {
        try TemporaryDirectory.with { dir in
            let result = try binary.run(["watch", "--db", "missing.sqlite"], in: dir.path)
            #expect(result.status == 66)
            #expect(result.stdout == "")
            #expect(result.stderr.hasPrefix("sessionstore: missing.sqlite: "))
            #expect(!FileManager.default.fileExists(atPath: dir.file("missing.sqlite")))
        }
    }

    @Test func watch_emptyStore_andUnknownBrowser_areDataErrors() throws {
        let store = try TemporaryStore.onDisk()
        let path = try #require(store.path)
        let empty = try binary.run(["watch", "--db", path], in: store.directory!.path)
        #expect(empty == .init(status: 65, stdout: "", stderr: "sessionstore: \(path): no browser to watch.\n"))
        let unknown = BrowserID()
        let result = try binary.run(["watch", "--db", path, "--browser", unknown.uuidString], in: store.directory!.path)
        #expect(result.status == 65)
        #expect(result.stderr == "sessionstore: \(StorageError.unknownBrowser(unknown.uuidString).description) "
            + "`sessionstore ls --all` lists the browsers and tabs.\n")
    }

    @Test func watchBrowser_thatIsNoIdentifier_isAUsageError_andAnUnknownPrefixADataError() throws {
        let store = try TemporaryStore.onDisk()
        let path = try #require(store.path)
        _ = try store.seed("| a*", scope: 1)
        let malformed = try binary.run(["watch", "--db", path, "--browser", "first"], in: store.directory!.path)
        #expect(malformed.status == 64 && malformed.stderr.contains("is not a browser identifier"), "\(malformed)")
        let unknown = try binary.run(["watch", "--db", path, "--browser", "0000-0000"], in: store.directory!.path)
        #expect(unknown.status == 65 && unknown.stderr.contains("no browser 00000000…"), "\(unknown)")
    }
}
