import Foundation
import SessionStore
import SessionSync

/// Notes when each tab id first shows in one browser of a store (an
/// observation of the repository: what a tab strip's mediator reads).
final class TabArrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var shown: Set<WebStateID> = []
    private var waiting: [WebStateID: CheckedContinuation<Date?, Never>] = [:]

    func update(_ snapshot: WebStateListSnapshot) {
        let now = Date()
        let ids = Set((0..<snapshot.list.count).map { snapshot.list.id(at: $0) })
        lock.lock()
        shown = ids
        let arrived = waiting.filter { ids.contains($0.key) }
        for id in arrived.keys { waiting[id] = nil }
        lock.unlock()
        for continuation in arrived.values { continuation.resume(returning: now) }
    }

    /// When `id` showed, or `nil` after `timeout` seconds.
    func arrival(of id: WebStateID, timeout: Double) async -> Date? {
        await withCheckedContinuation { continuation in
            lock.lock()
            if shown.contains(id) {
                lock.unlock()
                return continuation.resume(returning: Date())
            }
            waiting[id] = continuation
            lock.unlock()
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                lock.lock()
                let expired = waiting.removeValue(forKey: id)
                lock.unlock()
                expired?.resume(returning: nil)
            }
        }
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return shown.count
    }
}

enum CommandLatency {
    /// Sends `commands` tabs from `sender` to `receiver`, one at a time, 100 ms
    /// after the last one showed, with both devices' sync loops running, and
    /// times each from the moment it is queued (its undo window is 0, so it
    /// leaves at once) to the receiver's store showing the new tab. Returns the
    /// latencies of those shown within 10 s, how many were not (late), how many
    /// never showed by the end (lost), and how many tabs were opened beyond one
    /// per command (applied twice).
    static func measure(sender: BenchDevice, receiver: BenchDevice, commands: Int) async throws
        -> (latencies: [Double], late: Int, lost: Int, duplicated: Int)
    {
        let existing = try await receiver.browsers.browsers().first?.id
        let browser = if let existing { existing } else { try await receiver.browsers.createBrowser().id }
        let before = try await receiver.tabs.webStateList(in: browser).count
        let arrivals = TabArrivals()
        let observation = receiver.tabs.observe(browser) { result in
            if case .success(let snapshot) = result { arrivals.update(snapshot) }
        }
        defer { observation.cancel() }
        let loops = [Task { await sender.client.run() }, Task { await receiver.client.run() }]
        defer { loops.forEach { $0.cancel() } }
        try await receiver.browsers.markActive(browser)
        let target = receiver.credentials.device.deviceID
        var latencies: [Double] = []
        var late = 0
        for index in 0..<commands {
            try await Task.sleep(for: .milliseconds(100))
            let start = Date()
            let command = try await sender.client.sendTab(
                SyncSendTab(url: "https://sent.example/\(index)", title: "Sent \(index)"), to: target)
            guard let uuid = UUID(uuidString: command.id) else { continue }
            if let arrived = await arrivals.arrival(of: WebStateID(rawValue: uuid), timeout: 10) {
                latencies.append(arrived.timeIntervalSince(start))
            } else {
                late += 1
            }
        }
        // Give stragglers a moment, then count: every command opened exactly one tab.
        try await Task.sleep(for: .seconds(late > 0 ? 15 : 1))
        let opened = try await receiver.tabs.webStateList(in: browser).count - before
        return (latencies, late, max(0, commands - opened), max(0, opened - commands))
    }
}
