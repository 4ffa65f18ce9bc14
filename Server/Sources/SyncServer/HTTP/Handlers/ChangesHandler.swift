import Foundation
import Hummingbird
import ServiceLifecycle

extension SyncAPI {
    /// `GET /v1/changes?after=N&limit=L&wait=S&protocol=P`: the account's records with a
    /// sequence number above `N`, holding the request up to `S` seconds when
    /// there are none. Account-wide records go only to a reader of protocol 3 or later
    /// (`P`, 2 when absent): an older one would take them for a foreign device's.
    func changes(_ request: Request, context: some RequestContext) async throws -> Response {
        let caller = try await authenticate(request)
        let parameters = request.uri.queryParameters
        let after = try Self.integer(parameters["after"], name: "after", default: 0, min: 0)
        let limit = min(
            try Self.integer(parameters["limit"], name: "limit", default: Int64(Limits.maxChangesLimit), min: 1),
            Int64(Limits.maxChangesLimit))
        let accountWide = try Self.integer(parameters["protocol"], name: "protocol", default: 2, min: 1) >= 3
        let wait = min(try Self.integer(parameters["wait"], name: "wait", default: 0, min: 0), Int64(limits.maxWaitSeconds))
        let deadline = ContinuousClock.now + .seconds(wait)

        while true {
            let generation = await notifier.generation(of: caller.accountID)
            let page = try await readPage(
                accountID: caller.accountID, after: after, limit: Int(limit), accountWide: accountWide)
            if !page.records.isEmpty || ContinuousClock.now >= deadline {
                return JSONResponse.make(body: response(for: page.records, after: after, limit: Int(limit), counter: page.counter))
            }
            guard await waitForAnnouncement(accountID: caller.accountID, since: generation, until: deadline) else {
                return JSONResponse.make(body: response(for: page.records, after: after, limit: Int(limit), counter: page.counter))
            }
        }
    }

    private func readPage(
        accountID: String, after: Int64, limit: Int, accountWide: Bool
    ) async throws -> (counter: Int64, records: [ChangedRecord]) {
        try await database.transaction("changes") { tx in
            // Three statements, each with its own snapshot (READ COMMITTED), in this order:
            // - the counter before the records: a last page's cursor is this counter, so it
            //   must not count a commit newer than the records read (that record would be
            //   skipped for ever);
            // - `pruned_seq` after the records: a prune deletes tombstones and raises it in
            //   one commit, so a prune that removed tombstones before the records were read
            //   is seen here, and the page is refused rather than silently missing them.
            guard let (counter, _) = try await tx.cursorBounds(accountID: accountID) else {
                throw APIError.unauthorized("unknown account")
            }
            guard after <= counter else { throw APIError.badRequest("cursor \(after) is from the future") }
            let records = try await tx.changes(
                accountID: accountID, after: after, limit: limit + 1, accountWide: accountWide, counter: counter)
            guard let (_, prunedSeq) = try await tx.cursorBounds(accountID: accountID) else {
                throw APIError.unauthorized("unknown account")
            }
            guard after == 0 || after >= prunedSeq else {
                throw APIError.cursorExpired("cursor \(after) is older than the tombstones kept; fetch again from 0")
            }
            return (counter, records)
        }.value
    }

    /// Waits until a commit to the account is announced (`true`), or until
    /// `deadline` or a graceful shutdown (`false`): a server shutting down
    /// answers its waiting requests at once, with what there is.
    func waitForAnnouncement(accountID: String, since generation: UInt64, until deadline: ContinuousClock.Instant) async -> Bool {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return false }
        return await cancelWhenGracefulShutdown {
            await notifier.wait(accountID: accountID, since: generation, timeout: remaining)
        }
    }

    private func response(for rows: [ChangedRecord], after: Int64, limit: Int, counter: Int64) -> ChangesResponse {
        let page = rows.prefix(limit)
        let records = page.map {
            ChangesResponse.Record(
                id: $0.recordID, deviceID: $0.deviceID, seq: $0.seq, version: $0.version,
                tombstone: $0.tombstone, modifiedAt: Self.seconds($0.modifiedAt),
                sealed: $0.sealed.map { Data($0).base64EncodedString() },
                revocation: $0.revocation.map {
                    ChangesResponse.Revocation(revokedAt: $0.revokedAt, signature: Data($0.signature).base64EncodedString())
                })
        }
        // The last page ends at the counter read with it: commands and revocations move the
        // counter past the last record too, and a cursor left behind would wake every hint at once.
        let more = rows.count > limit
        return ChangesResponse(records: records, cursor: more ? (page.last?.seq ?? after) : max(counter, after), more: more)
    }
}

extension SyncAPI {
    /// An integer query parameter (`400` when not an integer or below `min`).
    static func integer(_ text: Substring?, name: String, default value: Int64, min: Int64) throws -> Int64 {
        guard let text else { return value }
        guard let number = Int64(text), number >= min else {
            throw APIError.badRequest("\(name) must be an integer of at least \(min)")
        }
        return number
    }
}
