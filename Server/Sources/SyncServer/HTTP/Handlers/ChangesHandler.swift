import Foundation
import Hummingbird
import ServiceLifecycle

extension SyncAPI {
    /// How often a long poll re-reads the account counter, for commits made
    /// through another server process.
    static let pollInterval: Duration = .milliseconds(500)

    /// `GET /v1/changes?after=N&limit=L&wait=S`: the account's records with a
    /// sequence number above `N`, holding the request up to `S` seconds when
    /// there are none.
    func changes(_ request: Request, context: some RequestContext) async throws -> Response {
        let caller = try await authenticate(request)
        let parameters = request.uri.queryParameters
        let after = try Self.integer(parameters["after"], name: "after", default: 0, min: 0)
        let limit = min(
            try Self.integer(parameters["limit"], name: "limit", default: Int64(Limits.maxChangesLimit), min: 1),
            Int64(Limits.maxChangesLimit))
        let wait = min(try Self.integer(parameters["wait"], name: "wait", default: 0, min: 0), Int64(limits.maxWaitSeconds))
        let deadline = ContinuousClock.now + .seconds(wait)

        while true {
            let generation = await notifier.generation(of: caller.accountID)
            let page = try await readPage(accountID: caller.accountID, after: after, limit: Int(limit))
            if !page.records.isEmpty || ContinuousClock.now >= deadline {
                return JSONResponse.make(body: response(for: page.records, after: after, limit: Int(limit)))
            }
            // A server shutting down answers its long polls at once (with what there is), so it stops promptly.
            do {
                try await cancelWhenGracefulShutdown {
                    try await waitForCommit(
                        accountID: caller.accountID, generation: generation, counter: page.counter, deadline: deadline)
                }
            } catch is CancellationError {
                return JSONResponse.make(body: response(for: page.records, after: after, limit: Int(limit)))
            }
        }
    }

    private func readPage(accountID: String, after: Int64, limit: Int) async throws -> (counter: Int64, records: [ChangedRecord]) {
        try await database.transaction("changes") { tx in
            guard let counter = try await tx.counter(accountID: accountID) else {
                throw APIError.unauthorized("unknown account")
            }
            guard after <= counter else { throw APIError.badRequest("cursor \(after) is from the future") }
            return (counter, try await tx.changes(accountID: accountID, after: after, limit: limit + 1))
        }.value
    }

    /// Returns once a commit to the account is seen (woken in-process, or the
    /// counter moved when re-read every ``pollInterval``) or at `deadline`.
    private func waitForCommit(accountID: String, generation: UInt64, counter: Int64, deadline: ContinuousClock.Instant) async throws {
        while ContinuousClock.now < deadline {
            let slice = min(Self.pollInterval, deadline - ContinuousClock.now)
            if await notifier.wait(accountID: accountID, since: generation, timeout: slice) { return }
            try Task.checkCancellation()
            let current = try await database.transaction("changes poll") { tx in
                try await tx.counter(accountID: accountID)
            }.value
            if current != counter { return }
        }
    }

    private func response(for rows: [ChangedRecord], after: Int64, limit: Int) -> ChangesResponse {
        let page = rows.prefix(limit)
        let records = page.map {
            ChangesResponse.Record(
                id: $0.recordID, deviceID: $0.deviceID, seq: $0.seq, version: $0.version,
                tombstone: $0.tombstone, modifiedAt: Self.seconds($0.modifiedAt),
                sealed: $0.sealed.map { Data($0).base64EncodedString() })
        }
        return ChangesResponse(records: records, cursor: page.last?.seq ?? after, more: rows.count > limit)
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
