import Hummingbird

extension SyncAPI {
    /// `GET /v1/info`: the server's limits and its id, without authentication.
    func info(_ request: Request, context: some RequestContext) async throws -> Response {
        JSONResponse.make(body: ServerInfo(limits: limits, serverID: try await serverIdentity.id(in: database)))
    }
}
