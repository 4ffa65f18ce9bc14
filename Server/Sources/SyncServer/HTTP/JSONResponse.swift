import Foundation
import Hummingbird

/// Builds JSON responses (UTF-8, keys sorted so stored responses are stable).
enum JSONResponse {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own plain model types cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func make(status: HTTPResponse.Status = .ok, json: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }

    static func make(status: HTTPResponse.Status = .ok, body: some Encodable, headers: HTTPFields = [:]) -> Response {
        make(status: status, json: encode(body), headers: headers)
    }
}
