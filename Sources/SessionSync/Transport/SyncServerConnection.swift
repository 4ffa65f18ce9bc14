import Foundation

/// The server's API as calls: registers the device once, keeps a token, keeps
/// the offset of the server's clock from this device's, and turns refusals into
/// ``SyncError``s.
actor SyncServerConnection {
    private let baseURL: URL
    private let transport: any SyncTransport
    private let credentials: SyncCredentials
    private let clock: @Sendable () -> Date
    private var registration: SyncAPI.Registered?
    /// Whether registering may make the account: as the client last decided (never, until it has).
    private var mayCreate = false
    /// The generation of the account this device joined, sent with each registration.
    private var joinedGeneration: String?
    private var token: SyncAPI.Token?
    /// The server's clock minus this device's, in seconds, from the `Date` header of the
    /// last answer: token times and command expiry are on the server's clock.
    private(set) var clockOffset: TimeInterval = 0

    init(
        baseURL: URL, transport: any SyncTransport, credentials: SyncCredentials,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.credentials = credentials
        self.clock = clock
    }

    /// The time on the server's clock, as last observed.
    func serverNow() -> Date {
        clock().addingTimeInterval(clockOffset)
    }

    /// Sends `request` and notes the server's clock from the answer's `Date` header
    /// (whole seconds: the middle of that second is taken).
    private func send(_ request: SyncHTTPRequest) async throws -> SyncHTTPResponse {
        let response = try await transport.send(request)
        if let date = response.headers["date"].flatMap(httpDates.date(from:)) {
            clockOffset = date.timeIntervalSince(clock()) + 0.5
        }
        return response
    }

    /// Reads an IMF-fixdate (RFC 9110), the only form servers send today.
    private let httpDates: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()

    /// The server's protocol version and id (`GET /v1/info`).
    func info() async throws -> SyncAPI.Info {
        try decode(try checked(await send(SyncHTTPRequest(method: "GET", url: url("v1/info")))))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private func url(_ path: String, query: [URLQueryItem] = []) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        return components.url!
    }

    /// Registers this device in its account (again is harmless), once per connection.
    /// With `create` false, an account missing on the server is not made again,
    /// and with a `generation`, an account of another generation is refused
    /// (both ``SyncError/accountDeleted(serverURL:)``).
    @discardableResult
    func register(create: Bool, generation: String? = nil) async throws -> SyncAPI.Registered {
        mayCreate = create
        joinedGeneration = generation
        if let registration { return registration }
        let device = credentials.device
        let signature = try credentials.account.registrationSignature(
            deviceID: device.deviceID, deviceKey: device.publicKeyText)
        let body = SyncAPI.Registration(
            accountID: credentials.account.accountID, accountKey: credentials.account.publicKey.base64EncodedString(),
            deviceID: device.deviceID, deviceKey: device.publicKeyText, signature: signature.base64EncodedString(),
            create: create ? nil : false, generation: joinedGeneration)
        let registered: SyncAPI.Registered = try decode(try await checked(send(SyncHTTPRequest(
            method: "POST", url: url("v1/devices"), headers: ["Content-Type": "application/json"],
            body: try Self.encoder.encode(body)))))
        registration = registered
        return registered
    }

    /// Forgets the registration and the token: the next call registers again (and
    /// the client checks the account again).
    func forgetRegistration() {
        registration = nil
        token = nil
    }

    private func bearer() async throws -> String {
        let now = Int64(serverNow().timeIntervalSince1970)
        if let token, token.expiresAt > now + 60 { return token.token }
        try await register(create: mayCreate, generation: joinedGeneration)
        // Signed on the server's clock as last observed; a refusal for the clock brings the
        // server's `Date`, so one more try is on its clock whatever this device's says.
        var retried = false
        while true {
            let issuedAt = Int64(serverNow().timeIntervalSince1970)
            let signature = try credentials.device.tokenSignature(
                accountID: credentials.account.accountID, issuedAt: issuedAt)
            let body = SyncAPI.TokenRequest(
                accountID: credentials.account.accountID, deviceID: credentials.device.deviceID, issuedAt: issuedAt,
                signature: signature.base64EncodedString())
            let response = try await send(SyncHTTPRequest(
                method: "POST", url: url("v1/token"), headers: ["Content-Type": "application/json"],
                body: try Self.encoder.encode(body)))
            if response.status == 403, !retried, String(decoding: response.body, as: UTF8.self).contains("issued_at") {
                retried = true
                continue
            }
            let fresh: SyncAPI.Token = try decode(try checked(response))
            token = fresh
            return fresh.token
        }
    }

    /// Sends an authorized request; a `401` gets one new token and one retry,
    /// and a short rate limit (`429 rate_limited`, `Retry-After` up to 5 s) is
    /// waited out, up to 3 times, before it surfaces as ``SyncError/rateLimited(retryAfter:)``.
    private func authorized(_ request: SyncHTTPRequest) async throws -> SyncHTTPResponse {
        var refreshed = false
        var waits = 0
        while true {
            var request = request
            request.headers["Authorization"] = "Bearer \(try await bearer())"
            let response = try await send(request)
            if response.status == 401, !refreshed {
                refreshed = true
                token = nil
                continue
            }
            if response.status == 429, waits < 3,
               let seconds = response.headers["retry-after"].flatMap({ Int($0) }), seconds <= 5,
               (try? JSONDecoder().decode(SyncAPI.Failure.self, from: response.body))?.error == "rate_limited"
            {
                waits += 1
                try await Task.sleep(for: .seconds(seconds))
                continue
            }
            return try checked(response)
        }
    }

    /// Uploads records; returns the server's cursor after them.
    func upload(_ records: [SyncAPI.UploadRecord], idempotencyKey: String) async throws -> Int64 {
        let body = try Self.encoder.encode(SyncAPI.Upload(records: records))
        let response = try await authorized(SyncHTTPRequest(
            method: "POST", url: url("v1/records"),
            headers: ["Content-Type": "application/json", "Idempotency-Key": idempotencyKey], body: body))
        let cursor: SyncAPI.Cursor = try decode(response)
        return cursor.cursor
    }

    /// Records after `cursor`, waiting up to `wait` seconds for one; with `accountWide`, the
    /// account-wide ones too (protocol version 3).
    func changes(after cursor: Int64, wait: Int, accountWide: Bool = false) async throws -> SyncAPI.Changes {
        var query = [URLQueryItem(name: "after", value: String(cursor))]
        if accountWide { query.append(URLQueryItem(name: "protocol", value: "3")) }
        if wait > 0 { query.append(URLQueryItem(name: "wait", value: String(wait))) }
        let response = try await authorized(SyncHTTPRequest(
            method: "GET", url: url("v1/changes", query: query), timeout: TimeInterval(wait + 30)))
        return try decode(response)
    }

    /// The account's counter and this device's waiting commands, as soon as the
    /// counter differs from `counter`, or after `wait` seconds.
    func hint(after counter: Int64, wait: Int) async throws -> SyncAPI.Hint {
        let query = [URLQueryItem(name: "after", value: String(counter)), URLQueryItem(name: "wait", value: String(wait))]
        return try decode(try await authorized(SyncHTTPRequest(
            method: "GET", url: url("v1/hints", query: query), timeout: TimeInterval(wait + 30))))
    }

    /// Queues sealed commands for other devices; a known id is not stored twice.
    func post(_ commands: [SyncAPI.OutgoingCommand]) async throws -> SyncAPI.CommandsStored {
        let body = try Self.encoder.encode(SyncAPI.CommandsUpload(commands: commands))
        return try decode(try await authorized(SyncHTTPRequest(
            method: "POST", url: url("v1/commands"), headers: ["Content-Type": "application/json"], body: body)))
    }

    /// The commands waiting for this device, oldest first.
    func pendingCommands() async throws -> [SyncAPI.PendingCommand] {
        let pending: SyncAPI.PendingCommands = try decode(try await authorized(SyncHTTPRequest(
            method: "GET", url: url("v1/commands"))))
        return pending.commands
    }

    /// Acknowledges applied commands: the server does not deliver them again.
    func acknowledge(commands ids: [String]) async throws {
        guard !ids.isEmpty else { return }
        let body = try Self.encoder.encode(SyncAPI.Acknowledge(ids: ids))
        _ = try await authorized(SyncHTTPRequest(
            method: "POST", url: url("v1/commands/ack"), headers: ["Content-Type": "application/json"], body: body))
    }

    /// The account's devices as the server knows them (ids and times only).
    func devices() async throws -> [SyncAPI.ServerDevice] {
        let devices: SyncAPI.ServerDevices = try decode(try await authorized(SyncHTTPRequest(
            method: "GET", url: url("v1/devices"))))
        return devices.devices
    }

    /// Revokes a device of the account (this one included), with the account
    /// key's signed statement that the server keeps and readers check.
    func revoke(device id: String) async throws {
        let revokedAt = Int64(serverNow().timeIntervalSince1970)
        let signature = try credentials.account.revocationSignature(deviceID: id, revokedAt: revokedAt)
        let body = try Self.encoder.encode(
            SyncAPI.Revocation(revokedAt: revokedAt, signature: signature.base64EncodedString()))
        _ = try await authorized(SyncHTTPRequest(
            method: "DELETE", url: url("v1/devices/\(id)"), headers: ["Content-Type": "application/json"], body: body))
    }

    /// Deletes the account and everything the server holds of it.
    func deleteAccount() async throws {
        _ = try await authorized(SyncHTTPRequest(method: "DELETE", url: url("v1/account")))
    }

    private func checked(_ response: SyncHTTPResponse) throws -> SyncHTTPResponse {
        guard (200..<300).contains(response.status) else {
            let failure = try? JSONDecoder().decode(SyncAPI.Failure.self, from: response.body)
            let message = failure?.message ?? String(decoding: response.body.prefix(200), as: UTF8.self)
            let code = failure?.error ?? "error"
            if code == "no_account" { throw SyncError.accountDeleted(serverURL: baseURL.absoluteString) }
            if let quota = SyncQuota(code: code) {
                throw SyncError.quotaExceeded(
                    quota, message: message, retryAfter: response.headers["retry-after"].flatMap { Int($0) })
            }
            switch response.status {
            case 429: throw SyncError.rateLimited(retryAfter: response.headers["retry-after"].flatMap { Int($0) })
            case 413: throw SyncError.tooLarge(message)
            case 410: throw SyncError.cursorExpired
            default: throw SyncError.server(status: response.status, code: code, message: message)
            }
        }
        return response
    }

    private func decode<T: Decodable>(_ response: SyncHTTPResponse) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            throw SyncError.malformedResponse("\(T.self): \(error)")
        }
    }
}
