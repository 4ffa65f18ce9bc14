import Foundation
import Hummingbird

/// An error answered as `{"error": code, "message": text}` with its status.
public struct APIError: HTTPResponseError, Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A short machine-readable code.
    public var code: String
    /// A human-readable explanation.
    public var message: String
    /// Extra header fields (`Retry-After`).
    public var headers: HTTPFields

    /// An error with `status`, `code` and `message`.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// The JSON error response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(status: status, body: ErrorBody(error: code, message: message), headers: headers)
    }

    /// The JSON body of an error.
    struct ErrorBody: Codable {
        var error: String
        var message: String
    }

    static func badRequest(_ message: String) -> Self { .init(.badRequest, "bad_request", message) }
    static func unauthorized(_ message: String) -> Self { .init(.unauthorized, "unauthorized", message) }
    static func forbidden(_ message: String) -> Self { .init(.forbidden, "forbidden", message) }
    static func conflict(_ message: String) -> Self { .init(.conflict, "conflict", message) }
    static func tooLarge(_ message: String) -> Self { .init(.contentTooLarge, "too_large", message) }
    static func notFound(_ message: String) -> Self { .init(.notFound, "not_found", message) }
    /// The account does not exist on this server (deleted, or never made here).
    static func noAccount() -> Self {
        .init(.notFound, "no_account", "no such account on this server: it was deleted, or never made here")
    }
    /// `410`: the cursor is older than the tombstones kept; fetch again from 0.
    static func cursorExpired(_ message: String) -> Self { .init(.gone, "cursor_expired", message) }
    /// `413` for an account quota (`quota_devices`, `quota_records`, `quota_bytes`).
    static func quota(_ code: String, _ message: String) -> Self { .init(.contentTooLarge, code, message) }

    /// `429` with `Retry-After` (`rate_limited`, `commands_full`).
    static func tooManyRequests(_ code: String, retryAfter seconds: Int, _ message: String) -> Self {
        var headers = HTTPFields()
        headers[.retryAfter] = String(seconds)
        return .init(.tooManyRequests, code, message, headers: headers)
    }
}
