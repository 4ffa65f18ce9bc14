import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP answer: status, headers and the body parsed as a JSON object.
struct HTTPAnswer: @unchecked Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// The body as a JSON object (empty when it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// `records` of a `/v1/changes` answer.
    var records: [[String: Any]] { json["records"] as? [[String: Any]] ?? [] }
    /// The error code of an error answer.
    var errorCode: String? { json["error"] as? String }
}

/// A minimal client of the sync API, over URLSession.
struct APIClient: Sendable {
    let baseURL: URL
    let session: URLSession

    init(baseURL: URL) {
        self.baseURL = baseURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 120
        configuration.timeoutIntervalForResource = 120
        session = URLSession(configuration: configuration)
    }

    func send(_ method: String, _ path: String, json: Any? = nil, rawBody: Data? = nil,
              headers: [String: String] = [:]) async throws -> HTTPAnswer {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!)
        request.httpMethod = method
        request.timeoutInterval = 120
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
        } else if let rawBody {
            request.httpBody = rawBody
        }
        if request.httpBody != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return HTTPAnswer(status: http.statusCode, headers: fields, body: data)
    }

    func register(_ device: TestDevice) async throws -> HTTPAnswer {
        try await send("POST", "/v1/devices", json: device.registration())
    }

    /// Registers `device` (if needed) and returns a fresh bearer token.
    func token(for device: TestDevice, register: Bool = true) async throws -> String {
        if register {
            let registered = try await self.register(device)
            precondition([200, 201].contains(registered.status), "register: \(registered.status)")
        }
        let answer = try await send("POST", "/v1/token", json: device.tokenRequest())
        guard answer.status == 200, let token = answer.json["token"] as? String else {
            throw ClientError(description: "token: \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        return token
    }

    func upload(_ records: [[String: Any]], token: String, key: String = UUID().uuidString) async throws -> HTTPAnswer {
        try await send("POST", "/v1/records", json: ["records": records],
                       headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": key])
    }

    func changes(
        token: String, after: Int64? = nil, limit: Int? = nil, wait: Int? = nil, protocolVersion: Int? = nil
    ) async throws -> HTTPAnswer {
        var items: [String] = []
        if let protocolVersion { items.append("protocol=\(protocolVersion)") }
        if let after { items.append("after=\(after)") }
        if let limit { items.append("limit=\(limit)") }
        if let wait { items.append("wait=\(wait)") }
        let query = items.isEmpty ? "" : "?" + items.joined(separator: "&")
        return try await send("GET", "/v1/changes\(query)", headers: ["Authorization": "Bearer \(token)"])
    }

    struct ClientError: Error, CustomStringConvertible {
        var description: String
    }
}
