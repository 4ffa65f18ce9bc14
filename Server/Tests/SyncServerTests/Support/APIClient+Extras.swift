import Foundation

/// Calls of the API beyond records and changes: hints, commands, revocation,
/// account deletion, devices, and the operations endpoints.
extension APIClient {
    private func bearer(_ token: String) -> [String: String] { ["Authorization": "Bearer \(token)"] }

    private static func query(_ items: [(String, String?)]) -> String {
        let given = items.compactMap { name, value in value.map { "\(name)=\($0)" } }
        return given.isEmpty ? "" : "?" + given.joined(separator: "&")
    }

    func hints(token: String, after: Int64? = nil, wait: Int? = nil) async throws -> HTTPAnswer {
        let query = Self.query([("after", after.map(String.init)), ("wait", wait.map(String.init))])
        return try await send("GET", "/v1/hints\(query)", headers: bearer(token))
    }

    func postCommands(_ commands: [[String: Any]], token: String) async throws -> HTTPAnswer {
        try await send("POST", "/v1/commands", json: ["commands": commands], headers: bearer(token))
    }

    func pendingCommands(token: String, limit: Int? = nil) async throws -> HTTPAnswer {
        try await send("GET", "/v1/commands\(Self.query([("limit", limit.map(String.init))]))", headers: bearer(token))
    }

    func acknowledge(_ ids: [String], token: String) async throws -> HTTPAnswer {
        try await send("POST", "/v1/commands/ack", json: ["ids": ids], headers: bearer(token))
    }

    /// `DELETE /v1/devices/{id}`, with the account's signed `statement` as its body when given
    /// (a version 1 client sends none).
    func revoke(_ deviceID: String, token: String, statement: [String: Any]? = nil) async throws -> HTTPAnswer {
        try await send("DELETE", "/v1/devices/\(deviceID)", json: statement, headers: bearer(token))
    }

    func deleteAccount(token: String) async throws -> HTTPAnswer {
        try await send("DELETE", "/v1/account", headers: bearer(token))
    }

    func devices(token: String) async throws -> HTTPAnswer {
        try await send("GET", "/v1/devices", headers: bearer(token))
    }

    /// The Prometheus text of `GET /metrics`.
    func metricsText() async throws -> String {
        let answer = try await send("GET", "/metrics")
        guard answer.status == 200 else { throw ClientError(description: "metrics: \(answer.status)") }
        return String(decoding: answer.body, as: UTF8.self)
    }

    /// The value of the unlabelled sample `name` in `GET /metrics`, if present.
    func metric(_ name: String) async throws -> Double? {
        Self.sample(name, in: try await metricsText())
    }

    /// The value of the unlabelled sample `name` in a Prometheus text.
    static func sample(_ name: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// Waits until `count` requests wait on a hint or long poll in this server
    /// process (`sessionstore_waiting_requests`), so that a test acts only once
    /// a poll really waits. Throws after `timeout`.
    func waitUntilWaiting(_ count: Int, timeout: Duration = .seconds(30)) async throws {
        try await eventually("\(count) waiting requests", timeout: timeout) {
            try await metric("sessionstore_waiting_requests") == Double(count)
        }
    }
}

/// The `commands` of a `GET /v1/commands` answer.
extension HTTPAnswer {
    var commands: [[String: Any]] { json["commands"] as? [[String: Any]] ?? [] }
    var commandIDs: [String] { commands.compactMap { $0["id"] as? String } }
}

/// A command as `POST /v1/commands` takes it: opaque sealed bytes for `target`.
func testCommand(to target: String, id: String = UUID().uuidString.lowercased(),
                 expiresIn seconds: Int64 = 3600, sealedBytes: Int = 48) -> [String: Any] {
    [
        "id": id, "target": target, "expires_at": Int64(Date().timeIntervalSince1970) + seconds,
        "sealed": Data((0..<sealedBytes).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(),
    ]
}

/// An upload record of `bytes` opaque sealed bytes under a random id.
func rawRecord(bytes: Int, id: String = hex((0..<16).map { _ in UInt8.random(in: 0...255) }),
               version: Int64 = 1) -> [String: Any] {
    ["id": id, "version": version, "sealed": Data(repeating: 7, count: bytes).base64EncodedString()]
}

/// A tombstone upload record.
func tombstoneRecord(id: String, version: Int64) -> [String: Any] {
    ["id": id, "version": version, "tombstone": true]
}
