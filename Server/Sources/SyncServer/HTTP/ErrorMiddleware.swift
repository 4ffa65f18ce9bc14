import Hummingbird
import Logging
import NIOHTTP1
import PostgresNIO

/// Answers every error in the protocol's JSON error format: ``APIError`` as it
/// is, a database that cannot be reached as `503` with `Retry-After`, other
/// HTTP errors (unknown route, body too large) with their status, anything
/// else as `500` (logged).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPParserError {
            // The client went away mid-request, or sent what is not HTTP: its fault, not ours.
            context.logger.info("request cut short by the client", metadata: ["error": "\(error)"])
            return JSONResponse.make(
                status: .badRequest, body: APIError.ErrorBody(error: "bad_request", message: "\(error)"))
        } catch let error as Database.Unavailable {
            return Self.unavailable(error.description, context: context)
        } catch let error as PSQLError where error.code == .connectionError || error.code == .serverClosedConnection {
            return Self.unavailable("\(error.code)", context: context)
        } catch let error as HTTPResponseError {
            let code = error.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
            return JSONResponse.make(
                status: error.status,
                body: APIError.ErrorBody(error: code, message: error.status.reasonPhrase))
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            return JSONResponse.make(
                status: .internalServerError,
                body: APIError.ErrorBody(error: "internal", message: "internal server error"))
        }
    }

    private static func unavailable(_ reason: String, context: Context) -> Response {
        context.logger.warning("database unavailable", metadata: ["reason": "\(reason)"])
        var headers = HTTPFields()
        headers[.retryAfter] = "1"
        return JSONResponse.make(
            status: .serviceUnavailable,
            body: APIError.ErrorBody(error: "unavailable", message: "the database is unavailable; try again"),
            headers: headers)
    }
}
