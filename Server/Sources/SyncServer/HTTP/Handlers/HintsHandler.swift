import Foundation
import Hummingbird

extension SyncAPI {
    /// `GET /v1/hints?after=N&wait=S`: a hint, never data. Answers as soon as
    /// the account's counter differs from `N` (at once if it already does), or
    /// after `S` seconds, with the counter and how many commands wait for the
    /// caller. The client then pulls `/v1/changes` and `/v1/commands`, the same
    /// calls as a cold start.
    ///
    /// A waiting hint costs the server one continuation and no query: it is
    /// woken by the ``HintBus``, so ten thousand idle devices are cheap.
    func hints(_ request: Request, context: some RequestContext) async throws -> Response {
        let caller = try await authenticate(request)
        let parameters = request.uri.queryParameters
        let after = try Self.integer(parameters["after"], name: "after", default: 0, min: 0)
        let wait = min(
            try Self.integer(parameters["wait"], name: "wait", default: 0, min: 0), Int64(limits.maxHintWaitSeconds))
        let deadline = ContinuousClock.now + .seconds(wait)
        while true {
            let generation = await notifier.generation(of: caller.accountID)
            let hint = try await database.transaction("hints") { tx in
                guard let hint = try await tx.hint(accountID: caller.accountID, deviceID: caller.deviceID) else {
                    throw APIError.unauthorized("unknown account or revoked device")
                }
                return hint
            }.value
            if hint.counter != after {
                return JSONResponse.make(body: hint)
            }
            guard await waitForAnnouncement(accountID: caller.accountID, since: generation, until: deadline) else {
                return JSONResponse.make(body: hint)
            }
        }
    }
}

/// Answer of `GET /v1/hints`.
struct HintResponse: Codable, Sendable {
    /// The account's counter: above the client's cursor, there are changes.
    var counter: Int64
    /// How many unexpired commands wait for the caller.
    var commands: Int64
}

extension Transaction {
    /// The account's counter and the device's pending command count, in one
    /// query; `nil` when the account is gone or the device revoked (a poll that
    /// began before a revocation hears nothing after it).
    func hint(accountID: String, deviceID: String) async throws -> HintResponse? {
        let rows = try await query("""
            SELECT counter,
                   (SELECT count(*) FROM commands
                    WHERE account_id = \(accountID) AND target_device_id = \(deviceID)
                      AND acked_at IS NULL AND expires_at > now())
            FROM accounts WHERE account_id = \(accountID)
              AND EXISTS (SELECT 1 FROM devices WHERE account_id = \(accountID) AND device_id = \(deviceID)
                          AND revoked_at IS NULL)
            """)
        for try await (counter, commands) in rows.decode((Int64, Int64).self) {
            return HintResponse(counter: counter, commands: commands)
        }
        return nil
    }
}
