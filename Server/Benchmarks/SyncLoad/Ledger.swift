import Foundation
import NIOConcurrencyHelpers

/// Everything the server acknowledged during the fault run, and what the
/// devices saw since: the evidence for "lost" and "applied twice".
actor Ledger {
    /// Acknowledged records: account → record id → highest version acknowledged.
    private var records: [String: [String: Int64]] = [:]
    /// The highest cursor an acknowledged upload returned, per account.
    private var cursors: [String: Int64] = [:]
    private(set) var uploadsAcknowledged = 0
    private(set) var recordsAcknowledged = 0

    /// Acknowledged commands: id → target device.
    private var commands: [String: String] = [:]
    /// Command ids each target was handed by `GET /v1/commands`.
    private var deliveredIDs: [String: Set<String>] = [:]
    /// Command ids each target acknowledged with a `200`.
    private var acknowledgedByTarget: [String: Set<String>] = [:]
    private(set) var duplicatedAfterAck = 0
    private(set) var duplicateExamples: [String] = []
    /// Deliveries of the same id again before any ack succeeded (allowed: the ack was lost).
    private(set) var redeliveredBeforeAck = 0

    /// Each device's last successful hint: when its request started, and the counter it saw.
    private var hints: [Int: (started: ContinuousClock.Instant, counter: Int64)] = [:]

    struct Tally: Sendable {
        var retries = 0
        var connectionErrors = 0
        /// Requests the server never answered within the client's timeout.
        var timeouts = 0
        var serverErrors = 0
        var rateLimited = 0
        var unauthorized = 0
        var conflictsOnRetry = 0
        var unexpected = 0
        var firstUnexpected: String?
        var firstServerError: String?
    }

    private(set) var tally = Tally()

    func uploadAcknowledged(account: String, records batch: [(id: String, version: Int64)], cursor: Int64) {
        uploadsAcknowledged += 1
        recordsAcknowledged += batch.count
        for record in batch where (records[account]?[record.id] ?? 0) < record.version {
            records[account, default: [:]][record.id] = record.version
        }
        cursors[account] = max(cursors[account] ?? 0, cursor)
    }

    func commandAcknowledged(id: String, target: String) {
        commands[id] = target
    }

    /// Notes ids handed to `target`; counts those it had acknowledged already.
    func delivered(_ ids: [String], to target: String) {
        for id in ids {
            if acknowledgedByTarget[target]?.contains(id) == true {
                duplicatedAfterAck += 1
                if duplicateExamples.count < 5 { duplicateExamples.append(id) }
            } else if deliveredIDs[target]?.contains(id) == true {
                redeliveredBeforeAck += 1
            }
            deliveredIDs[target, default: []].insert(id)
        }
    }

    func acknowledged(_ ids: [String], by target: String) {
        acknowledgedByTarget[target, default: []].formUnion(ids)
    }

    func hintSeen(device: Int, started: ContinuousClock.Instant, counter: Int64) {
        if let last = hints[device], last.started > started { return }
        hints[device] = (started, counter)
    }

    /// Each account's highest acknowledged cursor now.
    func cursorSnapshot() -> [String: Int64] { cursors }

    /// Devices with no successful hint started after `instant` that saw at least
    /// the account's cursor of `expected`.
    func lagging(after instant: ContinuousClock.Instant, expected: [String: Int64], devices: [(index: Int, account: String)]) -> [Int] {
        devices.filter { device in
            guard let hint = hints[device.index] else { return true }
            return hint.started <= instant || hint.counter < (expected[device.account] ?? 0)
        }.map(\.index)
    }

    func count(_ update: (inout Tally) -> Void) {
        update(&tally)
    }

    /// Acknowledged records of the account.
    func acknowledgedRecords(of account: String) -> [String: Int64] { records[account] ?? [:] }

    struct CommandFigures {
        var acknowledged = 0
        var delivered = 0
        var undelivered = 0
        var undeliveredExamples: [String] = []
        var deliveredWithoutAck = 0
    }

    func commandFigures() -> CommandFigures {
        var figures = CommandFigures()
        figures.acknowledged = commands.count
        for (id, target) in commands {
            if deliveredIDs[target]?.contains(id) == true {
                figures.delivered += 1
            } else {
                figures.undelivered += 1
                if figures.undeliveredExamples.count < 5 { figures.undeliveredExamples.append(id) }
            }
        }
        let allDelivered = deliveredIDs.values.reduce(0) { $0 + $1.count }
        figures.deliveredWithoutAck = allDelivered - figures.delivered
        return figures
    }
}

/// A flag the driver raises to stop the loops.
final class StopFlag: Sendable {
    private let box = NIOLockedValueBox(false)
    var isSet: Bool { box.withLockedValue { $0 } }
    func set() { box.withLockedValue { $0 = true } }
}

/// Runs a blocking call (a child process to wait for) off the cooperative threads.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try body() })
        }
    }
}
