import Foundation
import PostgresNIO
import SyncServerHarness
import Testing

/// `/v1/changes` reads the account's bounds and its records in separate
/// statements, each with its own snapshot. These tests stop a read between its
/// statements (a table held locked by the test's own transaction), commit
/// something meanwhile in that transaction, and check the page is still right.
@Suite("changes under concurrent commits")
struct ChangesConsistencyTests {
    /// A prune that commits during a read must not give a page that skips the
    /// pruned tombstones: the reader would keep those records for ever.
    @Test func aPruneCommittingDuringARead_neverGivesAPageWithoutItsTombstones() async throws {
        try await TestServer.with(arguments: ["--sweep-interval", "0"]) { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            let doomed = rawRecord(bytes: 10)
            _ = try await server.client.upload([doomed, rawRecord(bytes: 10)], token: token)  // seq 1, 2
            _ = try await server.client.upload([tombstoneRecord(id: doomed["id"] as! String, version: 2)], token: token)  // seq 3
            _ = try await server.client.upload([rawRecord(bytes: 10)], token: token)  // seq 4
            // The reader is at cursor 2: it has not seen the tombstone at seq 3.
            let answer = try await Self.read(server, token: token, after: 2, stoppedAt: "records") { connection in
                // What a sweep does, in one transaction: delete the tombstone, remember its seq.
                _ = try await connection.query("DELETE FROM records WHERE tombstone", logger: TestPostgres.logger)
                _ = try await connection.query("UPDATE accounts SET pruned_seq = 3", logger: TestPostgres.logger)
            }
            if answer.status == 200 {
                let seqs = answer.records.compactMap { $0["seq"] as? Int }
                #expect(seqs.contains(3), "a page after cursor 2 without the tombstone at 3: \(seqs)")
            } else {
                #expect(answer.status == 410)
                #expect(answer.errorCode == "cursor_expired")
            }
        }
    }

    /// An upload that commits during a read must not be skipped by the cursor:
    /// a last page's cursor is the counter, which must not be newer than the
    /// records read with it.
    @Test func anUploadCommittingDuringARead_isNeverBehindTheCursor() async throws {
        try await TestServer.with(arguments: ["--sweep-interval", "0"]) { (server: TestServer) async throws in
            let device = TestDevice(account: TestAccount())
            let token = try await server.client.token(for: device)
            _ = try await server.client.upload([rawRecord(bytes: 10)], token: token)  // seq 1
            let account = device.account.accountID
            let answer = try await Self.read(server, token: token, after: 1, stoppedAt: "accounts") { connection in
                // What an upload does: the next sequence number, a record, the counter.
                _ = try await connection.query("""
                    INSERT INTO records (account_id, record_id, device_id, seq, version, tombstone, sealed, size, modified_at)
                    VALUES (\(account), \(hex((0..<16).map { _ in UInt8.random(in: 0...255) })), \(device.id), 2, 1, false,
                            \(ByteBuffer(bytes: [1, 2, 3])), 3, now())
                    """, logger: TestPostgres.logger)
                _ = try await connection.query(
                    "UPDATE accounts SET counter = 2 WHERE account_id = \(account)", logger: TestPostgres.logger)
            }
            #expect(answer.status == 200)
            let seqs = answer.records.compactMap { $0["seq"] as? Int }
            let cursor = answer.json["cursor"] as? Int ?? -1
            #expect(cursor < 2 || seqs.contains(2), "cursor \(cursor) past seq 2, which the page lacks: \(seqs)")
        }
    }

    /// Locks `table`, starts `GET /v1/changes?after=`, waits until the read
    /// waits for the lock, runs `commit` in the locking transaction, commits,
    /// and returns the read's answer.
    private static func read(
        _ server: TestServer, token: String, after: Int64, stoppedAt table: String,
        commit: @escaping @Sendable (PostgresConnection) async throws -> Void
    ) async throws -> HTTPAnswer {
        let client = server.client
        return try await withTimeout("the read to finish", .seconds(60)) {
            try await server.sql { connection in
                let log = TestPostgres.logger
                _ = try await connection.query("BEGIN", logger: log)
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "LOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE"), logger: log)
                let read = Task { try await client.changes(token: token, after: after) }
                try await eventually("the read to wait for \(table)") {
                    let rows = try await connection.query(
                        "SELECT count(*) FROM pg_locks WHERE relation = \(table)::regclass AND NOT granted", logger: log)
                    for try await count in rows.decode(Int64.self) { return count > 0 }
                    return false
                }
                try await commit(connection)
                _ = try await connection.query("COMMIT", logger: log)
                return try await read.valueCancellingWithCaller
            }
        }
    }
}
