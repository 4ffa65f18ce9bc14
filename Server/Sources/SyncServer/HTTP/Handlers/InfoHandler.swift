import Hummingbird

extension SyncAPI {
    /// `GET /v1/info`: the server's limits, without authentication.
    func info(_ request: Request, context: some RequestContext) async throws -> Response {
        JSONResponse.make(body: limits)
    }
}
