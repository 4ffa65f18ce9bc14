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
