import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// Deletes what the server no longer needs, in small batches (one
/// transaction each, so uploads wait on no long lock):
///
/// 1. the records of devices revoked, or silent for `sweep_device_days`, are
///    tombstoned (so the other devices remove them: a revoked device's with the
///    revocation statement it was revoked with, a silent one's once the reader
///    too has heard nothing from it for that long, by its own clock);
/// 2. tombstones older than `tombstone_days` are deleted, and the account
///    remembers the newest sequence number pruned: a cursor from before it gets
///    `410` and the device fetches again from 0;
/// 3. expired records and commands, and idempotency keys past their window,
///    are deleted. (Readers drop an expired record by its time; `/v1/changes`
///    stops returning it as it expires.)
struct Sweeper: Service {
    /// Rows per transaction.
    static let batch = 500

    let api: SyncAPI
    /// Time between sweeps (`nil`: only when asked, by `sweep`).
    let interval: Duration?
    /// Opens once the schema is migrated: in `serve` the migrations run beside
    /// the services, and a sweep before them fails on missing tables.
    var ready: Gate? = nil

    /// Opens once; ``wait()`` returns when it is open (or the task is cancelled).
    struct Gate: Sendable {
        private let stream: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() {
            (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        }

        /// Opens the gate (more calls do nothing).
        func open() {
            continuation.finish()
        }

        /// Waits until the gate is open (one waiter at a time).
        func wait() async {
            for await _ in stream {}
        }
    }

    /// What one sweep did.
    struct Report: Sendable, CustomStringConvertible {
        var tombstoned: Int64 = 0
        var prunedTombstones = 0
        var expiredRecords = 0
        var expiredCommands = 0
        var idempotencyKeys = 0

        var description: String {
            "tombstoned \(tombstoned), pruned tombstones \(prunedTombstones), expired records \(expiredRecords), "
                + "expired commands \(expiredCommands), idempotency keys \(idempotencyKeys)"
        }
    }

    func run() async throws {
        guard let interval else { return try await gracefulShutdown() }
        if let ready {
            await cancelWhenGracefulShutdown { await ready.wait() }
            if Task.isCancelled { return }
        }
        while !Task.isShuttingDownGracefully {
            do {
                let report = try await cancelWhenGracefulShutdown { try await sweep() }
                api.logger.info("swept", metadata: ["report": "\(report)"])
            } catch is CancellationError {
                return
            } catch {
                api.logger.error("sweep failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        }
    }

    /// One full sweep.
    func sweep() async throws -> Report {
        var report = Report()
        for (account, device) in try await goneDevices() {
            report.tombstoned += try await api.tombstoneAll(accountID: account, deviceID: device)
        }
        report.prunedTombstones = try await repeatBatches(Self.pruneTombstones(days: api.limits.tombstoneDays))
        report.expiredRecords = try await repeatBatches(Self.deleteExpiredRecords)
        report.expiredCommands = try await repeatBatches(Self.deleteExpiredCommands)
        report.idempotencyKeys = try await repeatBatches(Self.deleteOldIdempotencyKeys)
        return report
    }

    /// Devices revoked or long silent that still have live records.
    private func goneDevices() async throws -> [(String, String)] {
        let days = "\(api.limits.sweepDeviceDays) days"
        return try await api.database.transaction("sweep devices") { tx in
            let rows = try await tx.query("""
                SELECT d.account_id, d.device_id FROM devices d
                WHERE (d.revoked_at IS NOT NULL OR d.last_seen_at < now() - \(days)::interval)
                  AND EXISTS (SELECT 1 FROM records r WHERE r.account_id = d.account_id
                              AND r.device_id = d.device_id AND NOT r.tombstone)
                """)
            var devices: [(String, String)] = []
            for try await row in rows.decode((String, String).self) { devices.append(row) }
            return devices
        }.value
    }

    /// Runs `statement` (which deletes at most ``batch`` rows and returns how
    /// many) until a batch comes back short; returns the total.
    private func repeatBatches(_ statement: PostgresQuery) async throws -> Int {
        var total = 0
        while true {
            let count = try await api.database.transaction("sweep") { tx in
                let rows = try await tx.query(statement)
                for try await count in rows.decode(Int64.self) { return Int(count) }
                return 0
            }.value
            total += count
            if count < Self.batch { return total }
        }
    }

    private static func pruneTombstones(days: Int) -> PostgresQuery {
        let age = "\(days) days"
        return """
            WITH gone AS (
                DELETE FROM records WHERE (account_id, record_id) IN (
                    SELECT account_id, record_id FROM records
                    WHERE tombstone AND modified_at < now() - \(age)::interval LIMIT \(Int64(batch)))
                RETURNING account_id, seq),
            bumped AS (
                UPDATE accounts a SET pruned_seq = greatest(a.pruned_seq, g.newest)
                FROM (SELECT account_id, max(seq) AS newest FROM gone GROUP BY account_id) g
                WHERE a.account_id = g.account_id
                RETURNING 1)
            SELECT count(*) FROM gone
            """
    }

    private static let deleteExpiredRecords: PostgresQuery = """
        WITH gone AS (
            DELETE FROM records WHERE (account_id, record_id) IN (
                SELECT account_id, record_id FROM records
                WHERE expires_at < now() LIMIT \(Int64(batch)))
            RETURNING account_id, tombstone, size),
        shrunk AS (
            UPDATE accounts a SET live_records = a.live_records - g.records, live_bytes = a.live_bytes - g.bytes
            FROM (SELECT account_id, count(*) FILTER (WHERE NOT tombstone) AS records,
                         coalesce(sum(size), 0) AS bytes
                  FROM gone GROUP BY account_id) g
            WHERE a.account_id = g.account_id
            RETURNING 1)
        SELECT count(*) FROM gone
        """

    private static let deleteExpiredCommands: PostgresQuery = """
        WITH gone AS (
            DELETE FROM commands WHERE (account_id, target_device_id, command_id) IN (
                SELECT account_id, target_device_id, command_id FROM commands
                WHERE expires_at < now() LIMIT \(Int64(batch)))
            RETURNING 1)
        SELECT count(*) FROM gone
        """

    private static let deleteOldIdempotencyKeys: PostgresQuery = """
        WITH gone AS (
            DELETE FROM idempotency WHERE (account_id, device_id, key) IN (
                SELECT account_id, device_id, key FROM idempotency
                WHERE created_at < now() - \("\(Limits.idempotencyWindowSeconds) seconds")::interval
                LIMIT \(Int64(batch)))
            RETURNING 1)
        SELECT count(*) FROM gone
        """
}
