import Foundation
import SessionModel
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request of the sync protocol.
public struct SyncHTTPRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: String
    /// The full URL.
    public var url: URL
    /// Header fields.
    public var headers: [String: String]
    /// The body, for `POST`.
    public var body: Data?
    /// How long to wait for the answer, in seconds.
    public var timeout: TimeInterval

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval = 30) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// One HTTP response.
public struct SyncHTTPResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields, names lowercased.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Carries the sync protocol's requests: ``URLSessionSyncTransport`` by default;
/// an app may bring its own (its networking stack, a proxy).
public protocol SyncTransport: Sendable {
    /// Sends `request` and returns the server's response, whatever its status.
    ///
    /// - Throws: ``SyncError/unreachable(_:)`` when no response came.
    func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPResponse
}

/// The sync protocol over `URLSession`.
public struct URLSessionSyncTransport: SyncTransport {
    private let session: URLSession

    /// A transport over `session` (by default, an ephemeral session of its own).
    public init(session: URLSession? = nil) {
        self.session = session ?? URLSession(configuration: .ephemeral)
    }

    public func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let (data, response) = try await load(urlRequest)
        guard let http = response as? HTTPURLResponse else {
            throw SyncError.malformedResponse("not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return SyncHTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    /// The request's answer; cancelling the task cancels the request at once (a
    /// long poll included), which `URLSession.data(for:)` does not do everywhere.
    private func load(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let task = Protected<URLSessionDataTask?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let dataTask = session.dataTask(with: request) { data, response, error in
                    if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else if let error = error as? URLError, error.code == .cancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume(throwing: SyncError.unreachable(
                            error?.localizedDescription ?? "the connection ended without an answer"))
                    }
                }
                task.withLock { $0 = dataTask }
                dataTask.resume()
                if Task.isCancelled { dataTask.cancel() }
            }
        } onCancel: {
            task.withLock { $0?.cancel() }
        }
    }
}
