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

    /// An error with `status`, `code` and `message`.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The JSON error response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(status: status, body: ErrorBody(error: code, message: message))
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
}
