import Foundation
import SessionStore
import SessionSync

/// The consumer of the receiving device: notes when each awaited URL first shows.
@MainActor
final class ArrivalWatcher: OtherDevicesConsumer {
    /// URLs committed on the other device and not shown yet.
    private var awaited: Set<String> = []
    /// When each awaited URL first showed.
    private(set) var arrivals: [String: Date] = [:]

    func configure(with snapshot: OtherDevicesSnapshot) {
        update(to: snapshot)
    }

    func update(to snapshot: OtherDevicesSnapshot) {
        guard !awaited.isEmpty else { return }
        let now = Date()
        for device in snapshot.devices {
            for window in device.windows {
                for tab in window.tabs where awaited.contains(tab.url) {
                    awaited.remove(tab.url)
                    arrivals[tab.url] = now
                }
            }
        }
    }

    func otherDevicesBecameUnavailable(_ reason: Unavailability) {}

    /// Notes that `url` is about to be committed on the other device.
    func expect(_ url: String) {
        awaited.insert(url)
    }

    /// Waits until every awaited URL showed, or `timeout` seconds passed; returns how many did not show.
    func settle(timeout: Double) async -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        while !awaited.isEmpty, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return awaited.count
    }
}

enum Propagation {
    /// Commits `changes` navigations on `sender`, one every `interval` on a fixed
    /// schedule (not waiting for the one before to show), each on another tab,
    /// and times each from its commit to the receiver's consumer
    /// (`OtherDevicesMediator`) showing it. Both devices run `SyncClient.run()`
    /// with the configuration they were made with (the default one: the upload
    /// pacing is included). A change not shown 10 s after the last commit is lost.
    @MainActor
    static func measure(
        sender: BenchDevice, receiver: BenchDevice, changes: Int, interval: Duration, label: String
    ) async throws -> (latencies: [Double], lost: Int) {
        let watcher = ArrivalWatcher()
        let mediator = OtherDevicesMediator(sync: receiver.sync, consumer: watcher)
        defer { mediator.disconnect() }
        let loops = [Task { await sender.client.run() }, Task { await receiver.client.run() }]
        defer { loops.forEach { $0.cancel() } }
        let browser = try await sender.browsers.browsers()[0].id
        let tabs = try await sender.tabs.webStateList(in: browser).webStates.map(\.id)
        // Both loops connected and idle before the first commit.
        try await Task.sleep(for: .seconds(1))
        var committed: [(url: String, at: Date)] = []
        let start = ContinuousClock.now
        for change in 0..<changes {
            try await Task.sleep(until: start + interval * change, clock: .continuous)
            let url = "https://propagation.example/\(label)/\(change)"
            watcher.expect(url)
            let at = Date()
            try await sender.histories.commit(NavigationItem(url: url, title: "Change \(change)"), in: tabs[change % tabs.count])
            committed.append((url, at))
        }
        let lost = await watcher.settle(timeout: 10)
        let latencies = committed.compactMap { change in watcher.arrivals[change.url].map { $0.timeIntervalSince(change.at) } }
        return (latencies, lost)
    }

    /// Commits `changes` one-tab navigations on `device` at `perSecond`, its
    /// `SyncClient.run()` uploading them, and returns the bytes of upload bodies
    /// and the uploads they took, once its outbox is empty again.
    @MainActor
    static func burst(device: BenchDevice, changes: Int, perSecond: Int) async throws -> (bytes: Int, uploads: Int) {
        let browser = try await device.browsers.browsers()[0].id
        let tabs = try await device.tabs.webStateList(in: browser).webStates.map(\.id)
        try await device.client.sync()
        let loop = Task { await device.client.run() }
        defer { loop.cancel() }
        try await Task.sleep(for: .seconds(1))
        let before = device.transport.totals
        var pages = PageGenerator(seed: 11)
        let start = ContinuousClock.now
        for change in 0..<changes {
            try await Task.sleep(until: start + .seconds(1) / perSecond * change, clock: .continuous)
            try await device.histories.commit(
                NavigationItem(url: pages.url(), title: pages.title()), in: tabs[pages.int(0...min(99, tabs.count - 1))])
        }
        // Everything uploaded: the outbox is empty, and stays so past the longest wait of either configuration.
        var quiet = 0
        while quiet < 3 {
            try await Task.sleep(for: .milliseconds(500))
            quiet = try device.sync.state().pendingCount == 0 ? quiet + 1 : 0
        }
        let after = device.transport.totals
        return (after.bytes - before.bytes, after.requests - before.requests)
    }
}
