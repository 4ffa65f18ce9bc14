import Hummingbird
import Logging

/// Answers every error in the protocol's JSON error format: ``APIError`` as it
/// is, other HTTP errors (unknown route, body too large) with their status,
/// anything else as `500` (logged).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
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
}
