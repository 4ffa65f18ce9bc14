import Foundation
import Hummingbird
import Metrics
import Prometheus

extension SyncAPI {
    /// `GET /health`: `200 {"status":"ok"}` when the database answers, else
    /// `503`. No authentication, for load balancers and orchestrators.
    func health(_ request: Request, context: some RequestContext) async throws -> Response {
        do {
            try await database.transaction("health") { tx in try await tx.query("SELECT 1") }
            return JSONResponse.make(body: HealthResponse(status: "ok"))
        } catch {
            logger.warning("health check failed", metadata: ["error": "\(String(reflecting: error))"])
            return JSONResponse.make(status: .serviceUnavailable, body: HealthResponse(status: "database unreachable"))
        }
    }

    /// `GET /metrics`: the Prometheus text format: request counts and
    /// durations by route (Hummingbird's `MetricsMiddleware`), what was stored,
    /// and how many requests wait on a hint or long poll now.
    func metrics(_ request: Request, context: some RequestContext) async throws -> Response {
        guard let registry = metricsRegistry else { throw APIError.notFound("metrics are off") }
        Gauge(label: "sessionstore_waiting_requests").record(await notifier.waiting)
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
    }
}

/// The server's own counters (requests are counted by `MetricsMiddleware`).
enum ServerMetrics {
    static let recordsStored = Counter(label: "sessionstore_records_stored_total")
    static let commandsStored = Counter(label: "sessionstore_commands_stored_total")
    static let commandsAcknowledged = Counter(label: "sessionstore_commands_acknowledged_total")
}
