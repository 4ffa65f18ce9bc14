import ArgumentParser
import Foundation
import SessionStore
import SessionSync
import SyncServerHarness

/// `sessionstore-sync-bench`: the sync goals of issue 19, measured over loopback
/// against a real `sessionstore-sync-server` on a throwaway PostgreSQL, with the
/// library's own client, side by side with Firefox's whole-list upload.
@main
struct SyncBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessionstore-sync-bench",
        abstract: "Measure sync: bytes per change, propagation, command latency, cold start, completeness, crash safety.")

    @Option(help: "Tab counts of the sending device, comma-separated.")
    var sizes = "100,1000,10000,100000"

    @Option(help: "One-tab changes timed for their upload's bytes, per size.")
    var changes = 30

    @Option(
        name: .customLong("propagation-changes"),
        help: "Changes, one every 100 ms, timed from commit to the other device's consumer.")
    var propagationChanges = 1000

    @Option(
        name: .customLong("propagation-slow-changes"),
        help: "Changes, one a second, timed from commit to the other device's consumer.")
    var propagationSlowChanges = 20

    @Option(name: .customLong("propagation-tabs"), help: "Tabs of the devices while propagation is timed.")
    var propagationTabs = 10000

    @Option(
        name: .customLong("burst-changes"),
        help: "One-tab changes, 100 a second, whose uploads are counted, with the default pacing and with a 1 s debounce.")
    var burstChanges = 300

    @Option(help: "Tabs sent from one device to the other, each timed until it shows.")
    var commands = 1000

    @Option(help: "SIGKILLs of a syncing client.")
    var kills = 200

    @Option(name: .customLong("crash-child"), help: .hidden)
    var crashChild: String?

    @Option(help: .hidden)
    var server: String?

    @Option(
        name: .customLong("saved-groups"),
        help: "Saved-group sets whose rename is measured, as GROUPSxTABS per group, comma-separated.")
    var savedGroups = "10x5,100x20,1000x20"

    mutating func run() async throws {
        if let crashChild, let server, let url = URL(string: server) {
            try await CrashSafety.child(path: crashChild, server: url)
        }
        let sizes = self.sizes.split(separator: ",").compactMap { Int($0) }
        let machine = "\(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + "\(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB"
        print("sessionstore-sync-bench: \(machine); PostgreSQL at \(LocalCluster.binDirectory); sizes \(sizes)")

        let databaseURL = try await TestPostgres.shared.createDatabase()
        let server = try await ServerProcess.start(databaseURL: databaseURL)
        let directory = NSTemporaryDirectory() + "sync-bench-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try await measure(sizes: sizes, server: server.baseURL, directory: directory)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// p50, p90, p99 and max of `latencies`.
    static func spread(_ latencies: [Double]) -> String {
        "p50 \(Figures.ms(Figures.percentile(latencies, 50))), p90 \(Figures.ms(Figures.percentile(latencies, 90))), "
            + "p99 \(Figures.ms(Figures.percentile(latencies, 99))), max \(Figures.ms(latencies.max() ?? 0))"
    }

    private func measure(sizes: [Int], server: URL, directory: String) async throws {
        var perChange: [(size: Int, mean: Double, max: Int, firefox: Int, kept: Int)] = []
        var coldStarts: [(size: Int, seconds: Double)] = []
        var completeness: [(size: Int, local: Int, shown: Int, matching: Int, duplicates: Int)] = []
        var urlChanges: [(size: Int, bytes: Int, uploaded: Int)] = []

        for size in sizes {
            print("\n\(Figures.count(size)) tabs")
            let path = directory + "/sender-\(size).sqlite"
            var clock = Date()
            // One seed for every size: the first tabs, and the changes made to them, are the same at each size.
            try BenchStore.make(atPath: path, tabs: size, seed: 42)
            print("  store made in \(Figures.ms(Date().timeIntervalSince(clock)))")
            let sender = try BenchDevice(path: path, name: "Sender \(size)", seed: nil, server: server)
            clock = Date()
            let first = try await sender.client.sync()
            print("  first upload: \(Figures.count(first.uploaded)) records, \(Figures.bytes(Double(sender.transport.totals.bytes))) in \(sender.transport.totals.requests) requests, \(Figures.ms(Date().timeIntervalSince(clock)))")

            // One-tab changes: what each uploads.
            let browser = try await sender.browsers.browsers()[0].id
            let tabs = try await sender.tabs.webStateList(in: browser).webStates.map(\.id)
            var pages = PageGenerator(seed: 5)
            var sizesOfChanges: [Int] = []
            for _ in 0..<changes {
                let before = sender.transport.totals.bytes
                try await sender.histories.commit(
                    NavigationItem(url: pages.url(), title: pages.title()), in: tabs[pages.int(0...min(99, tabs.count - 1))])
                try await sender.client.sync()
                sizesOfChanges.append(sender.transport.totals.bytes - before)
            }
            let firefox = try FirefoxRecord.size(ofStoreAt: path)
            let mean = Double(sizesOfChanges.reduce(0, +)) / Double(max(1, sizesOfChanges.count))
            perChange.append((size, mean, sizesOfChanges.max() ?? 0, firefox.bytes, firefox.keptUnderCap))
            print("  one-tab change: mean \(Figures.bytes(mean)), max \(Figures.bytes(Double(sizesOfChanges.max() ?? 0))) over \(changes); Firefox's whole list: \(Figures.bytes(Double(firefox.bytes))) (\(Figures.count(firefox.keptUnderCap)) of \(Figures.count(firefox.tabs)) tabs under its 2 MB cap)")

            // A newly paired device: from pairing to every tab shown.
            clock = Date()
            let newcomer = try BenchDevice(
                path: directory + "/newcomer-\(size).sqlite", name: "Newcomer", seed: sender.credentials.seed, server: server)
            try await newcomer.client.sync()
            let (remote, duplicates) = try newcomer.remoteTabs()
            let seconds = Date().timeIntervalSince(clock)
            coldStarts.append((size, seconds))
            let local = try sender.openTabs()
            let matching = local.filter { remote[$0.key] == $0.value }.count
            completeness.append((size, local.count, remote.count, matching, duplicates))
            print("  cold start: \(Figures.count(remote.count)) tabs shown in \(Figures.ms(seconds)); \(Figures.count(matching)) of \(Figures.count(local.count)) match the sender's")

            // The same server behind another URL: the next launch keeps its cursor (issue 36).
            let moved = try await URLChange.measure(device: sender, server: server)
            urlChanges.append((size, moved.bytes, moved.uploaded))
            print("  another URL of the same server: \(Figures.bytes(Double(moved.bytes))) in \(moved.requests) requests, \(moved.uploaded) records uploaded")
            sender.close()
            newcomer.close()
        }

        // Propagation with both devices connected, each running `SyncClient.run()` with the default configuration.
        print("\npropagation at \(Figures.count(propagationTabs)) tabs, both devices running SyncClient.run() with the default configuration")
        let senderPath = directory + "/propagation-sender.sqlite"
        try BenchStore.make(atPath: senderPath, tabs: propagationTabs, seed: 3)
        let sender = try BenchDevice(path: senderPath, name: "Laptop", seed: nil, server: server)
        let receiver = try BenchDevice(
            path: directory + "/propagation-receiver.sqlite", name: "Phone", seed: sender.credentials.seed, server: server)
        try await sender.client.sync()
        try await receiver.client.sync()
        let (latencies, lostChanges) = try await Propagation.measure(
            sender: sender, receiver: receiver, changes: propagationChanges, interval: .milliseconds(100), label: "fast")
        let p50 = Figures.percentile(latencies, 50), p99 = Figures.percentile(latencies, 99)
        print("  one change every 100 ms: \(Self.spread(latencies)) over \(latencies.count); \(lostChanges) lost (not shown within 10 s of the last commit)")
        let (slowLatencies, lostSlow) = try await Propagation.measure(
            sender: sender, receiver: receiver, changes: propagationSlowChanges, interval: .seconds(1), label: "slow")
        let slowP50 = Figures.percentile(slowLatencies, 50), slowP99 = Figures.percentile(slowLatencies, 99)
        print("  one change a second: \(Self.spread(slowLatencies)) over \(slowLatencies.count); \(lostSlow) lost")

        // A burst of one-tab changes: what it uploads with the default pacing, and with the 1 s debounce of before.
        print("\nburst: \(Figures.count(burstChanges)) one-tab changes at 100 a second, at \(Figures.count(propagationTabs)) tabs")
        let paced = try await Propagation.burst(device: sender, changes: burstChanges, perSecond: 100)
        let debouncedPath = directory + "/burst-debounced.sqlite"
        try BenchStore.make(atPath: debouncedPath, tabs: propagationTabs, seed: 3)
        let debouncedDevice = try BenchDevice(
            path: debouncedPath, name: "Old laptop", seed: sender.credentials.seed, server: server, debounce: .seconds(1))
        let debounced = try await Propagation.burst(device: debouncedDevice, changes: burstChanges, perSecond: 100)
        debouncedDevice.close()
        let pacedPerChange = Double(paced.bytes) / Double(max(1, burstChanges))
        let debouncedPerChange = Double(debounced.bytes) / Double(max(1, burstChanges))
        print("  default pacing: \(Figures.bytes(pacedPerChange)) per change, \(Figures.bytes(Double(paced.bytes))) in \(paced.uploads) uploads")
        print("  1 s debounce:   \(Figures.bytes(debouncedPerChange)) per change, \(Figures.bytes(Double(debounced.bytes))) in \(debounced.uploads) uploads")

        // One tab closed: what its upload holds, with recently closed empty and full.
        let closing = try await CloseUpload.measure(device: sender)
        print("\none tab closed, what its upload held:")
        for (label, upload) in [("recently closed empty", closing.first), ("recently closed full ", closing.full)] {
            print("  \(label): \(upload.kinds.count) records (\(upload.kinds.joined(separator: ", "))), \(Figures.bytes(Double(upload.bytes))) in \(upload.uploads) upload(s)")
        }

        // Commands with both devices connected.
        print("\ncommands: \(Figures.count(commands)) tabs sent, each timed from queued to shown in the other store")
        let sent = try await CommandLatency.measure(sender: sender, receiver: receiver, commands: commands)
        sender.close()
        receiver.close()
        let commandP50 = Figures.percentile(sent.latencies, 50), commandP99 = Figures.percentile(sent.latencies, 99)
        print("  p50 \(Figures.ms(commandP50)), p99 \(Figures.ms(commandP99)), max \(Figures.ms(sent.latencies.max() ?? 0)); \(sent.late) not shown within 10 s, \(sent.lost) never shown, \(sent.duplicated) opened twice")

        // Crash safety.
        print("\ncrash safety: \(kills) SIGKILLs of a syncing client")
        let executable = CommandLine.arguments[0].hasPrefix("/")
            ? CommandLine.arguments[0] : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]
        let crash = try await CrashSafety.run(kills: kills, tabs: 200, server: server, directory: directory, executable: executable)
        print("  \(crash.kills) killed, \(crash.failedChildren) ended otherwise; \(Figures.count(crash.committed)) changes committed locally; \(crash.tabs) open tabs: \(crash.lost) lost or stale on the server, \(crash.duplicated) duplicated")

        // Saved groups (issue 39): one rename on the wire.
        print("\nsaved groups: one rename on the laptop, received by the phone")
        var renames: [SavedGroupRename.Figure] = []
        for set in savedGroups.split(separator: ",") {
            let parts = set.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] >= 1, parts[1] >= 1 else { continue }
            let figure = try await SavedGroupRename.measure(
                groups: parts[0], tabsPerGroup: parts[1], server: server, directory: directory)
            renames.append(figure)
            print("  \(Figures.count(figure.groups)) groups of \(figure.tabsPerGroup) tabs: first upload \(Figures.count(figure.firstRecords)) records; "
                + "the phone showed \(figure.complete ? "every group and tab" : "NOT every group and tab") in \(Figures.ms(figure.coldReceive)); "
                + "rename: \(figure.renameRecords) record(s), upload \(Figures.bytes(Double(figure.renameUpload))) both ways "
                + "(the whole sync \(Figures.bytes(Double(figure.renameSync)))), received in \(Figures.bytes(Double(figure.received)))"
                + "\(figure.renamedThere ? "" : " (NOT shown there)"); the whole state as one upload: "
                + "\(Figures.bytes(Double(figure.wholeState))), \(String(format: "%.0fx", Double(figure.wholeState) / Double(max(1, figure.renameUpload)))) the rename's upload")
        }

        // Goals.
        print("\nGoals (issue 39):")
        print(Figures.goal(
            !renames.isEmpty && renames.allSatisfy { $0.renameUpload <= 2048 && $0.renameRecords == 1 && $0.renamedThere && $0.complete },
            "one rename of a saved group costs <= 2 KB on the wire, whatever the number of groups and tabs: "
                + renames.map { "\(Figures.count($0.groups))x\($0.tabsPerGroup): \(Figures.bytes(Double($0.renameUpload))) (\($0.renameRecords) record)" }
                    .joined(separator: "; ")))
        print("\nGoals (issue 36):")
        print(Figures.goal(
            p50 <= 0.25 && p99 <= 1 && lostChanges == 0 && latencies.count >= 1000 && propagationTabs >= 10_000,
            "propagation from a commit on A to B's consumer, default configuration (pacing included), one change every 100 ms, "
                + "at 10,000 tabs: p50 <= 250 ms, p99 <= 1 s over >= 1,000 changes: "
                + "p50 \(Figures.ms(p50)), p99 \(Figures.ms(p99)) over \(latencies.count) at \(Figures.count(propagationTabs)) tabs (\(lostChanges) lost)"))
        print(Figures.goal(
            slowP50 <= 0.25 && slowP99 <= 1 && lostSlow == 0 && slowLatencies.count >= 1000 && propagationTabs >= 10_000,
            "the same, one change a second: "
                + "p50 \(Figures.ms(slowP50)), p99 \(Figures.ms(slowP99)) over \(slowLatencies.count) (\(lostSlow) lost)"
                + (slowLatencies.count < 1000 ? "; fewer than 1,000 changes measured" : "")))
        print(Figures.goal(
            pacedPerChange <= 4096,
            "bytes uploaded per change in a burst of one-tab changes at 100 a second <= 4 KB: "
                + "\(Figures.bytes(pacedPerChange)) in \(paced.uploads) uploads (with the 1 s debounce of before: "
                + "\(Figures.bytes(debouncedPerChange)) in \(debounced.uploads) uploads)"))
        let moved10k = urlChanges.first { $0.size == 10_000 }
        print(Figures.goal(
            (moved10k?.bytes ?? .max) <= 10_240,
            "a URL change to the same server costs <= 10 KB on the wire at 10,000 tabs: "
                + urlChanges.map { "\(Figures.count($0.size)): \(Figures.bytes(Double($0.bytes))), \($0.uploaded) records up" }
                    .joined(separator: "; ") + (moved10k == nil ? " (10,000 not measured)" : "")))
        print("\nGoals (issue 20):")
        print(Figures.goal(
            sent.latencies.count >= 1000 && commandP99 <= 1 && sent.late == 0 && sent.lost == 0 && sent.duplicated == 0,
            "command latency: a sent tab shows on the connected target in p99 <= 1 s over >= 1,000 commands, none lost or applied twice: "
                + "p50 \(Figures.ms(commandP50)), p99 \(Figures.ms(commandP99)) over \(sent.latencies.count) (\(sent.late) later than 10 s, \(sent.lost) lost, \(sent.duplicated) applied twice)"))
        print("\nGoals (issue 19):")
        let at10k = perChange.first { $0.size == 10_000 }
        let means = perChange.map(\.mean)
        let flatness = (means.max() ?? 0) / max(1, means.min() ?? 1)
        print(Figures.goal(
            (at10k?.mean ?? .infinity) <= 4096 && flatness <= 1.2,
            "bytes uploaded per one-tab change <= 4 KB at 10,000 tabs, flat (<= 1.2x) from 100 to 100,000: "
                + perChange.map { "\(Figures.count($0.size)): \(Figures.bytes($0.mean)) (Firefox's whole list \(Figures.bytes(Double($0.firefox))))" }
                    .joined(separator: "; ") + String(format: "; spread %.2fx", flatness)
                + (at10k == nil ? " (10,000 not measured)" : "")))
        let cold10k = coldStarts.first { $0.size == 10_000 }
        print(Figures.goal(
            (cold10k?.seconds ?? .infinity) <= 2,
            "cold start: a newly paired device shows a 10,000-tab session within 2 s: "
                + coldStarts.map { "\(Figures.count($0.size)): \(Figures.ms($0.seconds))" }.joined(separator: "; ")))
        let large = completeness.filter { $0.size >= 10_000 }
        print(Figures.goal(
            large.count >= 2 && completeness.allSatisfy { $0.matching == $0.local && $0.shown == $0.local && $0.duplicates == 0 },
            "completeness: 100% of tabs visible on the other device at 10,000 and 100,000 tabs, none trimmed: "
                + completeness.map { "\(Figures.count($0.size)): \(Figures.count($0.matching)) of \(Figures.count($0.local))" }
                    .joined(separator: "; ")))
        print(Figures.goal(
            crash.kills >= 200 && crash.lost == 0 && crash.duplicated == 0 && crash.failedChildren == 0,
            "crash safety: 200 SIGKILLs of a syncing client lose and duplicate nothing: \(crash.kills) kills, "
                + "\(crash.lost) lost, \(crash.duplicated) duplicated"))
    }
}
