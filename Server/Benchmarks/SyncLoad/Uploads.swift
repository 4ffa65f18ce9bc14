import Foundation
import SyncServerHarness
import NIOConcurrencyHelpers

/// Capacity (b): devices uploading batches of records as fast as the quota
/// lets them (at most `rate` a second each), for a fixed time.
enum UploadThroughput {
    struct Options {
        var devices: Int
        var perAccount: Int
        var seconds: Int
        var batch: Int
        var recordBytes: Int
        var rate: Int
    }

    struct Outcome {
        var devices = 0
        var seconds = 0.0
        var batches = 0
        var records = 0
        var sealedBytes = 0.0
        var latencies: [Double] = []
        var rateLimited = 0
        var failed = 0
        var firstFailure: String?
    }

    private struct DeviceTally: Sendable {
        var batches = 0
        var latencies: [Double] = []
        var rateLimited = 0
        var failed = 0
        var firstFailure: String?
    }

    static func run(_ options: Options, api: API) async throws -> Outcome {
        let accounts = (options.devices + options.perAccount - 1) / options.perAccount
        let sessions = Array(try await Fleet.register(
            accounts: accounts, perAccount: options.perAccount, api: api, parallelism: 16).joined().prefix(options.devices))
        let pool = SealedPool(size: options.recordBytes, count: 256)
        say("  \(sessions.count) devices in \(accounts) accounts, batches of \(options.batch) records of \(Figures.bytes(Double(options.recordBytes))) sealed, at most \(options.rate) a second each, for \(options.seconds) s")
        let start = ContinuousClock.now
        let deadline = start + .seconds(options.seconds)
        let tallies = try await withThrowingTaskGroup(of: DeviceTally.self) { group in
            for session in sessions {
                group.addTask { try await device(session, options: options, pool: pool, api: api, until: deadline) }
            }
            var all: [DeviceTally] = []
            for try await tally in group { all.append(tally) }
            return all
        }
        var outcome = Outcome()
        outcome.devices = sessions.count
        outcome.seconds = elapsed(since: start)
        for tally in tallies {
            outcome.batches += tally.batches
            outcome.latencies += tally.latencies
            outcome.rateLimited += tally.rateLimited
            outcome.failed += tally.failed
            if outcome.firstFailure == nil { outcome.firstFailure = tally.firstFailure }
        }
        outcome.records = outcome.batches * options.batch
        outcome.sealedBytes = Double(outcome.records * options.recordBytes)
        return outcome
    }

    /// One device: a batch of `batch` records, each a fixed set of ids cycled with a
    /// growing version (updates, so the tables stay the same size), paced to `rate`.
    private static func device(
        _ session: Session, options: Options, pool: SealedPool, api: API, until deadline: ContinuousClock.Instant
    ) async throws -> DeviceTally {
        var tally = DeviceTally()
        let ids = (0..<(options.batch * 10)).map { _ in randomRecordID() }
        let interval = Duration.seconds(1) / max(1, options.rate)
        var next = ContinuousClock.now
        var index = 0
        while ContinuousClock.now < deadline {
            if next > ContinuousClock.now { try await Task.sleep(until: next) }
            guard ContinuousClock.now < deadline else { break }
            next = max(next + interval, .now)
            let slot = (index % 10) * options.batch
            let version = Int64(index / 10 + 1)
            let records = (0..<options.batch).map { (ids[slot + $0], version) }
            let body = uploadBody(records, pool: pool, offset: index * options.batch)
            let token = try await session.token(api)
            let started = ContinuousClock.now
            do {
                let answer = try await api.send(
                    .POST, "/v1/records", text: body, token: token,
                    headers: [("Idempotency-Key", randomUUID())], timeout: .seconds(60))
                switch answer.status {
                case 200:
                    tally.batches += 1
                    tally.latencies.append(elapsed(since: started))
                    index += 1
                case 429:
                    tally.rateLimited += 1
                    next = .now + .seconds(answer.retryAfter ?? 1)
                default:
                    tally.failed += 1
                    if tally.firstFailure == nil { tally.firstFailure = "\(answer.status) \(answer.text.prefix(160))" }
                    if answer.status == 401 { session.invalidate() }
                    index += 1
                }
            } catch {
                tally.failed += 1
                if tally.firstFailure == nil { tally.firstFailure = "\(error)" }
                index += 1
            }
        }
        return tally
    }

    static func report(_ outcome: Outcome) {
        let rate = Double(outcome.batches) / max(outcome.seconds, 0.001)
        say("  \(Figures.count(outcome.batches)) batches in \(String(format: "%.1f", outcome.seconds)) s: \(Figures.rate(rate)) batches/s, \(Figures.rate(rate * Double(outcome.records) / Double(max(1, outcome.batches)))) records/s, \(Figures.bytes(outcome.sealedBytes / max(outcome.seconds, 0.001)))/s sealed")
        say("  ingest latency (request to 200): p50 \(Figures.ms(Figures.percentile(outcome.latencies, 50))), p99 \(Figures.ms(Figures.percentile(outcome.latencies, 99))), max \(Figures.ms(outcome.latencies.max() ?? 0))")
        say("  rate-limited (429): \(outcome.rateLimited); failed: \(outcome.failed)\(outcome.firstFailure.map { " (first: \($0))" } ?? "")")
    }
}
