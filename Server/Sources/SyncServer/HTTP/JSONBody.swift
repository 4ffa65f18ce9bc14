import Foundation
import Hummingbird
import NIOCore

/// Reads a capped request body and decodes it as JSON.
enum JSONBody {
    /// The body, at most ``Limits/maxRequestBodyBytes`` long (`413` past that).
    static func collect(_ request: Request) async throws -> ByteBuffer {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > Limits.maxRequestBodyBytes {
            throw APIError.tooLarge("request body over \(Limits.maxRequestBodyBytes) bytes")
        }
        do {
            return try await request.body.collect(upTo: Limits.maxRequestBodyBytes)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge("request body over \(Limits.maxRequestBodyBytes) bytes")
        }
    }

    /// The body decoded as `T` (`400` when it is not valid JSON of that shape).
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        let buffer = try await collect(request)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw APIError(.badRequest, "malformed_json", describe(error))
        } catch {
            throw APIError(.badRequest, "malformed_json", "the body is not valid JSON")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context):
            return "the body is not valid JSON: \(context.debugDescription)"
        case .keyNotFound(let key, _):
            return "missing field \(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "wrong type at \(path.isEmpty ? "top level" : path)"
        @unknown default:
            return "the body does not match the expected JSON"
        }
    }
}
