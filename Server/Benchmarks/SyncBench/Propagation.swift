import Foundation
import SessionStore
import SessionSync

/// The consumer of the receiving device: notes when a URL first shows.
@MainActor
final class ArrivalWatcher: OtherDevicesConsumer {
    private var shown: Set<String> = []
    private var waiting: (url: String, continuation: CheckedContinuation<Date?, Never>)?

    func configure(with snapshot: OtherDevicesSnapshot) {
        update(to: snapshot)
    }

    func update(to snapshot: OtherDevicesSnapshot) {
        shown = Set(snapshot.devices.flatMap { $0.windows.flatMap { $0.tabs.map(\.url) } })
        if let waiting, shown.contains(waiting.url) {
            self.waiting = nil
            waiting.continuation.resume(returning: Date())
        }
    }

    func otherDevicesBecameUnavailable(_ reason: Unavailability) {}

    /// When `url` showed, or `nil` after `timeout` seconds.
    func arrival(of url: String, timeout: Double) async -> Date? {
        if shown.contains(url) { return Date() }
        return await withCheckedContinuation { continuation in
            waiting = (url, continuation)
            DispatchQueue.main.asyncAfter(deadline: .now() + timeout) { [weak self] in
                MainActor.assumeIsolated {
                    guard let self, let waiting = self.waiting, waiting.url == url else { return }
                    self.waiting = nil
                    waiting.continuation.resume(returning: nil)
                }
            }
        }
    }
}

enum Propagation {
    /// Commits `changes` navigations on `sender`, one at a time, 450 ms after the
    /// last one showed, and times each from its commit to the receiver's consumer
    /// showing it; both devices run their sync loops (the sender's debounce is 0:
    /// the debounce is excluded).
    @MainActor
    static func measure(sender: BenchDevice, receiver: BenchDevice, changes: Int) async throws -> (latencies: [Double], lost: Int) {
        let watcher = ArrivalWatcher()
        let mediator = OtherDevicesMediator(sync: receiver.sync, consumer: watcher)
        defer { mediator.disconnect() }
        let loops = [Task { await sender.client.run() }, Task { await receiver.client.run() }]
        defer { loops.forEach { $0.cancel() } }
        let browser = try await sender.browsers.browsers()[0].id
        let tabs = try await sender.tabs.webStateList(in: browser).webStates.map(\.id)
        var latencies: [Double] = []
        var lost = 0
        for change in 0..<changes {
            // A person's changes, not a burst: the mediator paces a burst to one update per 400 ms at most,
            // by design, so each change comes 450 ms after the last one showed.
            try await Task.sleep(for: .milliseconds(450))
            let url = "https://propagation.example/change/\(change)"
            let start = Date()
            try await sender.histories.commit(NavigationItem(url: url, title: "Change \(change)"), in: tabs[change % tabs.count])
            if let arrived = await watcher.arrival(of: url, timeout: 10) {
                latencies.append(arrived.timeIntervalSince(start))
            } else {
                lost += 1
            }
        }
        return (latencies, lost)
    }
}
