import Hummingbird

extension SyncAPI {
    /// The router of the HTTP API (every path under `/v1`).
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.middlewares.add(MetricsMiddleware())
        router.middlewares.add(ErrorMiddleware())
        let v1 = router.group("v1")
        v1.get("info", use: info)
        v1.post("devices", use: register)
        v1.get("devices", use: devices)
        v1.post("token", use: token)
        v1.post("records", use: upload)
        v1.get("changes", use: changes)
        v1.get("hints", use: hints)
        v1.delete("devices/:device", use: revoke)
        v1.delete("account", use: deleteAccount)
        v1.post("commands", use: postCommands)
        v1.get("commands", use: pendingCommands)
        v1.post("commands/ack", use: acknowledgeCommands)
        router.get("health", use: health)
        router.get("metrics", use: metrics)
        return router
    }
}
