import AsyncHTTPClient
import Foundation
import SyncServerHarness
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// An HTTP answer: status, `Retry-After`, body.
struct Answer: Sendable {
    var status: Int
    var retryAfter: Int?
    var body: ByteBuffer

    var text: String { String(buffer: body) }

    func decode<T: Decodable>(_ type: T.Type) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    /// The `error` code of an error answer.
    var errorCode: String? { decode(ErrorBody.self)?.error }

    private struct ErrorBody: Decodable { var error: String }
}

/// The sync API over AsyncHTTPClient: a pool of keep-alive connections.
struct API: Sendable {
    let client: HTTPClient
    let endpoint: Endpoint

    /// A client with a pool of up to `connections` connections.
    static func make(endpoint: Endpoint, connections: Int) -> API {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10), read: .seconds(120)),
            connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: connections))
        configuration.httpVersion = .http1Only
        return API(client: HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration),
                   endpoint: endpoint)
    }

    func shutdown() async {
        try? await client.shutdown()
    }

    enum Method: String { case GET, POST, DELETE }

    /// Sends one request; throws only when no HTTP answer came (connection
    /// refused or cut, timeout).
    func send(
        _ method: Method, _ path: String, body: ByteBuffer? = nil, token: String? = nil,
        headers: [(String, String)] = [], timeout: Duration = .seconds(30)
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: endpoint.url.absoluteString + path)
        request.method = .init(rawValue: method.rawValue)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body)
        }
        let started = ContinuousClock.now
        let bytes: ByteBuffer
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .nanoseconds(Int64(seconds(timeout) * 1e9)))
            bytes = try await response.body.collect(upTo: 64 * 1024 * 1024)
        } catch {
            Trace.note("\(method.rawValue) \(path.prefix(60)): \(error) after \(Figures.ms(elapsed(since: started)))")
            throw error
        }
        if Trace.enabled, elapsed(since: started) > 2, !path.hasPrefix("/v1/hints") {
            Trace.note("\(method.rawValue) \(path.prefix(60)): \(response.status.code) after \(Figures.ms(elapsed(since: started)))")
        }
        return Answer(
            status: Int(response.status.code), retryAfter: response.headers.first(name: "Retry-After").flatMap(Int.init),
            body: bytes)
    }

    func send(_ method: Method, _ path: String, json: Data, token: String? = nil,
              headers: [(String, String)] = [], timeout: Duration = .seconds(30)) async throws -> Answer {
        try await send(method, path, body: ByteBuffer(bytes: json), token: token, headers: headers, timeout: timeout)
    }

    func send(_ method: Method, _ path: String, text: String, token: String? = nil,
              headers: [(String, String)] = [], timeout: Duration = .seconds(30)) async throws -> Answer {
        try await send(method, path, body: ByteBuffer(string: text), token: token, headers: headers, timeout: timeout)
    }

    /// `sessionstore_waiting_requests` from `/metrics` (`nil` when not there).
    func waitingRequests() async -> Int? {
        guard let answer = try? await send(.GET, "/metrics", timeout: .seconds(10)), answer.status == 200 else { return nil }
        for line in answer.text.split(separator: "\n") where line.hasPrefix("sessionstore_waiting_requests") {
            if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { return Int(value) }
        }
        return nil
    }
}

/// A registered device and its bearer token, refreshed before it expires
/// (tokens live 15 minutes; a full run is longer) or after a `401`.
final class Session: Sendable {
    let device: LoadDevice
    private let cached: NIOLockedValueBox<(token: String, at: ContinuousClock.Instant)?>

    init(device: LoadDevice) {
        self.device = device
        cached = NIOLockedValueBox(nil)
    }

    var accountID: String { device.account.id }
    var deviceID: String { device.id }

    /// A token younger than 10 minutes, asking for a new one when needed.
    func token(_ api: API) async throws -> String {
        if let (token, at) = cached.withLockedValue({ $0 }), ContinuousClock.now - at < .seconds(600) {
            return token
        }
        let started = ContinuousClock.now
        let answer = try await api.send(.POST, "/v1/token", json: try device.tokenBody())
        guard answer.status == 200, let token = answer.decode(TokenAnswer.self)?.token else {
            throw LoadError("token for \(device.id): \(answer.status) \(answer.text)")
        }
        cached.withLockedValue { $0 = (token, started) }
        return token
    }

    /// Forgets the token (after a `401`).
    func invalidate() {
        cached.withLockedValue { $0 = nil }
    }

    /// Registers the device (`201`, or `200` when it already is).
    func register(_ api: API) async throws {
        let answer = try await api.send(.POST, "/v1/devices", json: try device.registrationBody())
        guard answer.status == 201 || answer.status == 200 else {
            throw LoadError("register \(device.id): \(answer.status) \(answer.text)")
        }
    }

    private struct TokenAnswer: Decodable { var token: String }
}

/// Accounts of registered devices with tokens.
enum Fleet {
    /// `accounts` accounts of `perAccount` devices each, registered with at most
    /// `parallelism` accounts at once (an account's devices one after another),
    /// each device with a token; failed steps are tried up to five times.
    static func register(accounts: Int, perAccount: Int, api: API, parallelism: Int) async throws -> [[Session]] {
        let plans = (0..<accounts).map { _ -> [LoadDevice] in
            let account = LoadAccount()
            return (0..<perAccount).map { _ in LoadDevice(account: account) }
        }
        return try await concurrentMap(plans, parallelism: parallelism) { devices in
            var sessions: [Session] = []
            for device in devices {
                let session = Session(device: device)
                try await retrying { try await session.register(api) }
                _ = try await retrying { try await session.token(api) }
                sessions.append(session)
            }
            return sessions
        }
    }

    static func retrying<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await body()
            } catch {
                attempt += 1
                if attempt >= 5 { throw error }
                try await Task.sleep(for: .milliseconds(200 * attempt))
            }
        }
    }
}

/// `SESSIONSTORE_LOAD_TRACE=1`: failed and slow requests on standard error, with times.
enum Trace {
    static let enabled = ProcessInfo.processInfo.environment["SESSIONSTORE_LOAD_TRACE"] == "1"
    static let start = Date()

    static func note(_ text: @autoclosure () -> String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(String(format: "trace %8.3f s: ", Date().timeIntervalSince(start)).utf8 + Data((text() + "\n").utf8)))
    }
}
