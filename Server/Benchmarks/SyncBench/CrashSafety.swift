import Foundation
import SessionStore
import SessionSync
import SyncServerHarness

#if canImport(Glibc)
import Glibc
#endif

/// A syncing client killed with SIGKILL again and again, then compared with the server's view.
enum CrashSafety {
    /// The child: commits changes to the store at `path` and syncs after each, until killed.
    static func child(path: String, server: URL) async throws -> Never {
        let device = try BenchDevice(path: path, name: "Crash", seed: nil, server: server)
        let browser = try await device.browsers.browsers()[0].id
        var pages = PageGenerator(seed: UInt64(getpid()))
        var step = 0
        while true {
            let list = try await device.tabs.webStateList(in: browser)
            let tab = list.webStates[pages.int(0...list.count - 1)].id
            switch pages.int(0...9) {
            case 0 where list.count > 50:
                try await device.tabs.close(in: browser, at: pages.int(0...list.count - 1))
            case 1:
                try await device.tabs.insert(
                    WebState(), in: browser, params: .automatic(), navigatingTo: NavigationItem(url: pages.url(), title: pages.title()))
            default:
                try await device.histories.commit(
                    NavigationItem(url: "https://crash.example/\(getpid())/\(step)", title: pages.title()), in: tab)
            }
            step += 1
            // Written straight to the file descriptor: the parent counts it even when killed right after.
            let line = "committed \(step)\n"
            _ = line.withCString { write(1, $0, strlen($0)) }
            try await device.client.sync()
        }
    }

    struct Outcome {
        var kills = 0
        var committed = 0
        var failedChildren = 0
        var tabs = 0
        var lost = 0
        var duplicated = 0
    }

    /// Kills `kills` children, then syncs the store once more, cleanly, and has a
    /// fresh device compare what the server holds with the store's open tabs.
    static func run(kills: Int, tabs: Int, server: URL, directory: String, executable: String) async throws -> Outcome {
        let path = directory + "/crash.sqlite"
        try BenchStore.make(atPath: path, tabs: tabs, seed: 99)
        let first = try BenchDevice(path: path, name: "Crash", seed: nil, server: server)
        try await first.client.sync()
        let seed = first.credentials.seed
        first.close()
        var outcome = Outcome()
        let log = directory + "/crash-child.log"
        var random = PageGenerator(seed: 7)
        for _ in 0..<kills {
            let pid = try ChildProcess.spawn(
                [executable, "--crash-child", path, "--server", server.absoluteString],
                stdoutPath: log, stderrPath: directory + "/crash-child.err")
            try await Task.sleep(for: .milliseconds(random.int(150...600)))
            kill(pid, SIGKILL)
            let status = ChildProcess.wait(pid)
            if status == 128 + SIGKILL { outcome.kills += 1 } else { outcome.failedChildren += 1 }
        }
        outcome.committed = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
            .split(separator: "\n").filter { $0.hasPrefix("committed") }.count
        let last = try BenchDevice(path: path, name: "Crash", seed: seed, server: server)
        try await last.client.sync()
        let local = try last.openTabs()
        last.close()
        let verifier = try BenchDevice(path: directory + "/verifier.sqlite", name: "Verifier", seed: seed, server: server)
        try await verifier.client.sync()
        let (remote, duplicates) = try verifier.remoteTabs()
        verifier.close()
        outcome.tabs = local.count
        outcome.lost = local.filter { remote[$0.key] != $0.value }.count + remote.keys.filter { local[$0] == nil }.count
        outcome.duplicated = duplicates
        return outcome
    }
}
