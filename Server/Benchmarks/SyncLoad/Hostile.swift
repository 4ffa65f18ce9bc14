import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Hostile clients beside a normal one: each must be refused or cut off
/// while the normal client keeps being served.
enum Hostile {
    struct Options {
        var slowClients: Int
        var slowSeconds: Int
        /// The server's token secret, to forge an expired token (`nil`: unknown).
        var jwtSecret: String?
    }

    struct Case {
        var name: String
        var refused: Bool
        var detail: String
        /// Reported, not counted in the exit status.
        var informational = false
        /// The goal's line (default: "NAME refused").
        var goal: String?
    }

    struct Outcome {
        var cases: [Case] = []
        var normal = NormalClient.Tally()
        var slowHeld = 0
        var slowCutOff = 0
        var slowFailedToOpen = 0
        var probesServed = 0
        var probes = 0
        var normalDuringSlow = NormalClient.Tally()

        var allRefused: Bool { cases.allSatisfy { $0.refused || $0.informational } }
        var normalKeptWorking: Bool { normal.failed == 0 && normal.requests > 0 && normalDuringSlow.requests > 0 }
    }

    static func run(_ options: Options, api: API) async throws -> Outcome {
        let a = try await Fleet.register(accounts: 1, perAccount: 2, api: api, parallelism: 1)[0]
        let b = try await Fleet.register(accounts: 1, perAccount: 1, api: api, parallelism: 1)[0]
        let h = try await Fleet.register(accounts: 1, perAccount: 2, api: api, parallelism: 1)[0]
        let (a1, a2, b1, h1, h2) = (a[0], a[1], b[0], h[0], h[1])
        let pool = SealedPool(size: 512, count: 8)

        // The normal client's own record, which the others will try to take.
        let owned = randomRecordID()
        let first = try await api.send(
            .POST, "/v1/records", text: uploadBody([(owned, 1)], pool: pool), token: try await a1.token(api),
            headers: [("Idempotency-Key", randomUUID())])
        guard first.status == 200 else { throw LoadError("normal client's first upload: \(first.status) \(first.text)") }

        let normal = NormalClient(session: a1, api: api, pool: pool)
        let normalTask = Task { await normal.run() }
        var outcome = Outcome()
        func add(_ item: Case) {
            outcome.cases.append(item)
            say("  \(item.informational ? (item.refused ? "ok      " : "NOTE    ") : (item.refused ? "REFUSED " : "ACCEPTED"))\(item.name): \(item.detail)")
        }

        add(try await revokedDevice(h1, by: h2, api: api, pool: pool))
        let held = try await revokedDeviceHeldPoll(api: api, pool: pool)
        add(held)
        add(try await badTokens(a1, secret: options.jwtSecret, api: api))
        add(try await otherDevicesRecord(owned, attacker: a2, api: api, pool: pool))
        add(try await otherAccountsRecord(owned, owner: a1, attacker: b1, api: api, pool: pool))
        add(try await otherAccountsDevices(owner: a1, attacker: b1, api: api))
        add(try await replayedCommand(target: a1, sender: a2, stranger: b1, api: api))
        add(try await oversized(a2, api: api))
        add(try await malformed(a2, api: api))

        // Slow clients: connections that never finish their headers or their body.
        let before = normal.tally
        let slow = try await slowClients(options, session: a2, probe: a1, api: api)
        outcome.slowHeld = slow.held
        outcome.slowCutOff = slow.cutOff
        outcome.slowFailedToOpen = slow.failedToOpen
        outcome.probes = slow.probes
        outcome.probesServed = slow.served
        outcome.normalDuringSlow = normal.tally.since(before)
        add(Case(
            name: "slow clients",
            refused: slow.probes > 0 && slow.served == slow.probes && outcome.normalDuringSlow.failed == 0
                && outcome.normalDuringSlow.requests > 0,
            detail: "\(options.slowClients) connections (half never finish their headers, half their body, a byte a second) for \(options.slowSeconds) s: "
                + "\(slow.cutOff) cut off by the server, \(slow.held) still open at the end\(slow.failedToOpen > 0 ? ", \(slow.failedToOpen) failed to open" : ""); "
                + "meanwhile \(slow.served) of \(slow.probes) requests on fresh connections served, normal client \(outcome.normalDuringSlow.requests - outcome.normalDuringSlow.failed) of \(outcome.normalDuringSlow.requests) served",
            goal: "slow clients (\(slow.cutOff) of \(options.slowClients) cut off by the server): everyone else still served"))

        normal.stop.set()
        await normalTask.value
        outcome.normal = normal.tally
        return outcome
    }

    // MARK: The cases

    static func revokedDevice(_ victim: Session, by other: Session, api: API, pool: SealedPool) async throws -> Case {
        let token = try await victim.token(api)
        let revoke = try await api.send(.DELETE, "/v1/devices/\(victim.deviceID)", token: try await other.token(api))
        let changes = try await api.send(.GET, "/v1/changes?after=0", token: token)
        let upload = try await api.send(.POST, "/v1/records", text: uploadBody([(randomRecordID(), 1)], pool: pool),
                                        token: token, headers: [("Idempotency-Key", randomUUID())])
        let hints = try await api.send(.GET, "/v1/hints?after=0&wait=0", token: token)
        let newToken = try await api.send(.POST, "/v1/token", json: try victim.device.tokenBody())
        let register = try await api.send(.POST, "/v1/devices", json: try victim.device.registrationBody())
        let command = try await api.send(.POST, "/v1/commands", json: try commandBody(id: randomUUID(), target: victim.deviceID),
                                         token: try await other.token(api))
        return Case(
            name: "revoked device",
            refused: revoke.status == 200 && changes.status == 401 && upload.status == 401 && hints.status == 401
                && newToken.status == 403 && register.status == 403 && command.status == 404,
            detail: "revoked (\(revoke.status)); its token: changes \(changes.status), upload \(upload.status), hints \(hints.status); "
                + "new token \(newToken.status), registering again \(register.status); a command for it \(command.status)")
    }

    /// A revoked device's hint poll that was waiting before the revocation:
    /// does the server answer it again after a later commit (it should not:
    /// the device is no longer the account's)?
    static func revokedDeviceHeldPoll(api: API, pool: SealedPool) async throws -> Case {
        let pair = try await Fleet.register(accounts: 1, perAccount: 2, api: api, parallelism: 1)[0]
        let (victim, other) = (pair[0], pair[1])
        let token = try await victim.token(api)
        let start = try await api.send(.GET, "/v1/hints?after=0&wait=0", token: token)
        let counter = start.decode(HintStreams.Hint.self)?.counter ?? 0
        let endpoint = api.endpoint
        let poll = Task {
            try await RawHTTP.connect(endpoint) { exchange in
                try await exchange.write(RawHTTP.request("GET", "/v1/hints?after=\(counter)&wait=15", endpoint: endpoint, token: token))
                return try await exchange.response()
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        let revoke = try await api.send(.DELETE, "/v1/devices/\(victim.deviceID)", token: try await other.token(api))
        let upload = try await api.send(.POST, "/v1/records", text: uploadBody([(randomRecordID(), 1)], pool: pool),
                                        token: try await other.token(api), headers: [("Idempotency-Key", randomUUID())])
        let answer = try? await poll.value
        let leaked = answer?.status == 200
        return Case(
            name: "revoked device's waiting hint poll",
            refused: !leaked,
            detail: "poll held before the revocation (\(revoke.status)), then a commit by the other device (\(upload.status)): "
                + (answer.map { "the poll answered \($0.status) \($0.body.prefix(80))" } ?? "the poll was cut")
                + (leaked ? " — the revoked device still hears of the account's commits until its poll ends" : ""),
            informational: true)
    }

    static func badTokens(_ device: Session, secret: String?, api: API) async throws -> Case {
        let real = try await device.token(api)
        var results: [(String, Int, Int)] = []  // name, status, expected
        func probe(_ name: String, _ token: String?, expect: Int = 401) async throws {
            let answer = try await api.send(.GET, "/v1/changes?after=0&limit=1", token: token)
            results.append((name, answer.status, expect))
        }
        try await probe("garbage", "not-a-token")
        try await probe("missing", nil)
        let parts = real.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3 {
            let claims = ForgedToken.base64URL(Data(#"{"sub":"\#(randomUUID())","acc":"\#(device.accountID)","exp":\#(unixNow() + 600)}"#.utf8))
            try await probe("claims swapped under a real signature", parts[0] + "." + claims + "." + parts[2])
        }
        try await probe("alg none", ForgedToken.unsigned(accountID: device.accountID, deviceID: device.deviceID))
        try await probe("signed with another secret", ForgedToken.make(
            secret: "another secret", accountID: device.accountID, deviceID: device.deviceID, expiresAt: unixNow() + 600))
        if let secret {
            try await probe("expired (signed with the server's secret)", ForgedToken.make(
                secret: secret, accountID: device.accountID, deviceID: device.deviceID, expiresAt: unixNow() - 120))
            try await probe("control: fresh, signed with the server's secret", ForgedToken.make(
                secret: secret, accountID: device.accountID, deviceID: device.deviceID, expiresAt: unixNow() + 600), expect: 200)
        }
        let refused = results.allSatisfy { $0.1 == $0.2 }
        return Case(
            name: "expired or garbage tokens",
            refused: refused,
            detail: results.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
                + (secret == nil ? " (expired token not tried: the server's secret is unknown; give --jwt-secret)" : ""))
    }

    static func otherDevicesRecord(_ id: String, attacker: Session, api: API, pool: SealedPool) async throws -> Case {
        let answer = try await api.send(
            .POST, "/v1/records", text: uploadBody([(id, 1_000_000)], pool: pool), token: try await attacker.token(api),
            headers: [("Idempotency-Key", randomUUID())])
        return Case(name: "another device's record id (same account)", refused: answer.status == 403,
                    detail: "upload of its record at a higher version: \(answer.status)")
    }

    static func otherAccountsRecord(_ id: String, owner: Session, attacker: Session, api: API, pool: SealedPool) async throws -> Case {
        let answer = try await api.send(
            .POST, "/v1/records", text: uploadBody([(id, 1_000_000)], pool: pool), token: try await attacker.token(api),
            headers: [("Idempotency-Key", randomUUID())])
        let ownerView = try await Faults.serverRecords(owner, api: api)
        let attackerFeed = try await api.send(.GET, "/v1/changes?after=0", token: try await attacker.token(api))
        let foreign = (attackerFeed.decode(Feed.self)?.records ?? []).filter { $0.deviceID != attacker.deviceID }.count
        let untouched = ownerView[id] == 1
        return Case(
            name: "another account's record id",
            refused: untouched && foreign == 0 && attackerFeed.status == 200,
            detail: "upload under that id: \(answer.status)\(answer.status == 200 ? " (kept in the attacker's own account)" : ""); "
                + "owner's record \(untouched ? "unchanged (v1)" : "CHANGED to \(ownerView[id].map { "v\($0)" } ?? "absent")"); "
                + "records of other devices in the attacker's feed: \(foreign)")
    }

    static func otherAccountsDevices(owner: Session, attacker: Session, api: API) async throws -> Case {
        let token = try await attacker.token(api)
        let command = try await api.send(.POST, "/v1/commands", json: try commandBody(id: randomUUID(), target: owner.deviceID), token: token)
        let revoke = try await api.send(.DELETE, "/v1/devices/\(owner.deviceID)", token: token)
        let list = try await api.send(.GET, "/v1/devices", token: token)
        let listed = list.text.contains(owner.deviceID)
        let ownerStill = try await api.send(.GET, "/v1/hints?after=0&wait=0", token: try await owner.token(api))
        return Case(
            name: "another account's devices",
            refused: command.status == 404 && revoke.status == 404 && !listed && ownerStill.status == 200,
            detail: "a command for one: \(command.status); revoking one: \(revoke.status); listed: \(listed ? "YES" : "no"); the owner still works: \(ownerStill.status)")
    }

    static func replayedCommand(target: Session, sender: Session, stranger: Session, api: API) async throws -> Case {
        let id = randomUUID()
        let body = try commandBody(id: id, target: target.deviceID)
        let senderToken = try await sender.token(api)
        let targetToken = try await target.token(api)
        let sent = try await api.send(.POST, "/v1/commands", json: body, token: senderToken)
        let pending = try await api.send(.GET, "/v1/commands", token: targetToken)
        let delivered = pending.decode(Faults.PendingCommands.self)?.commands.contains { $0.id == id } == true
        let ack = try await api.send(.POST, "/v1/commands/ack", json: try JSONEncoder().encode(["ids": [id]]), token: targetToken)
        let replay = try await api.send(.POST, "/v1/commands", json: body, token: senderToken)
        let strangerReplay = try await api.send(.POST, "/v1/commands", json: body, token: try await stranger.token(api))
        let after = try await api.send(.GET, "/v1/commands", token: targetToken)
        let redelivered = after.decode(Faults.PendingCommands.self)?.commands.contains { $0.id == id } ?? true
        let ackAgain = try await api.send(.POST, "/v1/commands/ack", json: try JSONEncoder().encode(["ids": [id]]), token: targetToken)
        let replayCounts = replay.decode(Faults.CommandsAnswer.self)
        return Case(
            name: "replayed command",
            refused: sent.text.contains("\"stored\":1") && delivered && ack.text.contains("\"acknowledged\":1")
                && replay.status == 200 && replayCounts?.stored == 0 && replayCounts?.duplicates == 1
                && strangerReplay.status == 404 && !redelivered && ackAgain.text.contains("\"acknowledged\":0"),
            detail: "sent \(sent.text), delivered \(delivered ? "yes" : "NO"), acked \(ack.text); replayed after the ack: \(replay.status) \(replay.text); "
                + "replayed by another account: \(strangerReplay.status); delivered again: \(redelivered ? "YES" : "no"); ack again: \(ackAgain.text)")
    }

    static func oversized(_ session: Session, api: API) async throws -> Case {
        let token = try await session.token(api)
        let size = 7 * 1024 * 1024
        let declared = await rawOversized(api.endpoint, token: token, size: size, chunked: false)
        let chunked = await rawOversized(api.endpoint, token: token, size: size, chunked: true)
        let bigRecord = try await api.send(
            .POST, "/v1/records", text: uploadBody([(randomRecordID(), 1)], pool: SealedPool(size: 16_385, count: 1)),
            token: token, headers: [("Idempotency-Key", randomUUID())])
        let many = try await api.send(
            .POST, "/v1/records", text: uploadBody((0..<1001).map { _ in (randomRecordID(), 1) }, pool: SealedPool(size: 16, count: 1)),
            token: token, headers: [("Idempotency-Key", randomUUID())])
        func show(_ status: Int?) -> String { status.map(String.init) ?? "no answer" }
        return Case(
            name: "oversized bodies",
            refused: declared == 413 && chunked == 413 && bigRecord.status == 413 && many.status == 413,
            detail: "7 MiB with Content-Length \(show(declared)), 7 MiB chunked \(show(chunked)), a 16,385-byte record \(bigRecord.status), 1,001 records \(many.status)")
    }

    static func malformed(_ session: Session, api: API) async throws -> Case {
        let token = try await session.token(api)
        let key = [("Idempotency-Key", randomUUID())]
        let bodies: [(String, String, String)] = [
            ("/v1/records", "truncated JSON", #"{"records": [{"id": "#),
            ("/v1/records", "wrong type", #"{"records": "all of them"}"#),
            ("/v1/records", "bad id", #"{"records": [{"id": "../../etc/passwd", "version": 1, "sealed": "AA=="}]}"#),
            ("/v1/records", "not base64", #"{"records": [{"id": "00000000000000000000000000000000", "version": 1, "sealed": "%%%"}]}"#),
            ("/v1/commands", "commands not JSON", "commands please"),
            ("/v1/commands/ack", "ack of non-UUIDs", #"{"ids": ["DROP TABLE commands"]}"#),
        ]
        var results: [(String, Int)] = []
        for (path, name, body) in bodies {
            let answer = try await api.send(.POST, path, text: body, token: token, headers: path == "/v1/records" ? key : [])
            results.append((name, answer.status))
        }
        let noKey = try await api.send(.POST, "/v1/records", text: #"{"records": []}"#, token: token)
        results.append(("upload without Idempotency-Key", noKey.status))
        return Case(name: "malformed requests", refused: results.allSatisfy { $0.1 == 400 },
                    detail: results.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
    }

    // MARK: Raw connections

    /// A 7 MiB upload body, declared or chunked, written while the answer is awaited.
    static func rawOversized(_ endpoint: Endpoint, token: String, size: Int, chunked: Bool) async -> Int? {
        try? await withTimeout(.seconds(60)) {
            try await RawHTTP.connect(endpoint) { exchange in
                let head = RawHTTP.request(
                    "POST", "/v1/records", endpoint: endpoint, token: token,
                    headers: ["Idempotency-Key: \(randomUUID())", "Content-Type: application/json",
                              chunked ? "Transfer-Encoding: chunked" : "Content-Length: \(size)"])
                try await exchange.write(head)
                let outbound = exchange.outbound
                let writer = Task {
                    let piece = String(repeating: "a", count: 65_536)
                    var written = 0
                    try await outbound.write(ByteBuffer(string: chunked ? "f\r\n{\"records\": [\"a\r\n" : "{\"records\": [\""))
                    while written < size, !Task.isCancelled {
                        try await outbound.write(ByteBuffer(string: chunked ? "10000\r\n" + piece + "\r\n" : piece))
                        written += piece.count
                    }
                    if chunked { try await outbound.write(ByteBuffer(string: "0\r\n\r\n")) }
                }
                defer { writer.cancel() }
                return try await exchange.response().status
            }
        }
    }

    struct SlowOutcome {
        var held = 0
        var cutOff = 0
        var failedToOpen = 0
        var probes = 0
        var served = 0
    }

    static func slowClients(_ options: Options, session: Session, probe: Session, api: API) async throws -> SlowOutcome {
        let token = try await session.token(api)
        let probeToken = try await probe.token(api)
        let endpoint = api.endpoint
        let results = NIOLockedValueBox<(held: Int, cutOff: Int, failed: Int)>((0, 0, 0))
        let clients = (0..<options.slowClients).map { index in
            Task {
                let bodySlow = index % 2 == 1
                var opened = false
                do {
                    try await RawHTTP.connect(endpoint) { exchange in
                        opened = true
                        if bodySlow {
                            try await exchange.write(RawHTTP.request(
                                "POST", "/v1/records", endpoint: endpoint, token: token,
                                headers: ["Idempotency-Key: \(randomUUID())", "Content-Type: application/json",
                                          "Content-Length: 1048576"]) + "{\"records\": [")
                        } else {
                            try await exchange.write("POST /v1/records HTTP/1.1\r\nHost: \(endpoint.host)\r\n")
                        }
                        let outbound = exchange.outbound
                        let dribbler = Task {
                            var count = 0
                            while !Task.isCancelled {
                                try await Task.sleep(for: .seconds(1))
                                count += 1
                                try await outbound.write(ByteBuffer(string: bodySlow ? " " : "X-Slow-\(count): 1\r\n"))
                            }
                        }
                        defer { dribbler.cancel() }
                        // Anything from the server, or its close, before the end: cut off.
                        let answered = try await exchange.anything()
                        if Task.isCancelled && !answered {
                            results.withLockedValue { $0.held += 1 }
                        } else {
                            results.withLockedValue { $0.cutOff += 1 }
                        }
                    }
                } catch {
                    if !opened {
                        results.withLockedValue { $0.failed += 1 }
                    } else if Task.isCancelled {
                        results.withLockedValue { $0.held += 1 }
                    } else {
                        results.withLockedValue { $0.cutOff += 1 }
                    }
                }
            }
        }
        // Meanwhile: requests on fresh connections, four a second.
        var outcome = SlowOutcome()
        let deadline = ContinuousClock.now + .seconds(options.slowSeconds)
        try await Task.sleep(for: .milliseconds(500))
        while ContinuousClock.now < deadline {
            outcome.probes += 1
            let request = outcome.probes % 2 == 0
                ? RawHTTP.request("GET", "/health", endpoint: endpoint)
                : RawHTTP.request("GET", "/v1/hints?after=0&wait=0", endpoint: endpoint, token: probeToken)
            if let response = try? await withTimeout(.seconds(5), { try await RawHTTP.once(endpoint, request) }),
               response.status == 200 {
                outcome.served += 1
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        for client in clients { client.cancel() }
        for client in clients { await client.value }
        let final = results.withLockedValue { $0 }
        outcome.held = final.held
        outcome.cutOff = final.cutOff
        outcome.failedToOpen = final.failed
        return outcome
    }

    // MARK: Helpers

    static func commandBody(id: String, target: String) throws -> Data {
        try JSONEncoder().encode(Faults.CommandsBody(commands: [.init(
            id: id, target: target, expiresAt: unixNow() + 3600, sealed: Data(randomBytes(48)).base64EncodedString())]))
    }

    struct Feed: Decodable {
        var records: [Record]
        struct Record: Decodable {
            var deviceID: String
            enum CodingKeys: String, CodingKey { case deviceID = "device_id" }
        }
    }
}

/// The normal client beside the hostile ones: uploads a record, reads changes
/// and a hint, five times a second, and counts what failed.
final class NormalClient: Sendable {
    struct Tally: Sendable {
        var requests = 0
        var failed = 0
        var latencies: [Double] = []
        var firstFailure: String?

        func since(_ earlier: Tally) -> Tally {
            Tally(requests: requests - earlier.requests, failed: failed - earlier.failed,
                  latencies: Array(latencies.dropFirst(earlier.latencies.count)), firstFailure: nil)
        }
    }

    let session: Session
    let api: API
    let pool: SealedPool
    let stop = StopFlag()
    private let box = NIOLockedValueBox(Tally())

    init(session: Session, api: API, pool: SealedPool) {
        self.session = session
        self.api = api
        self.pool = pool
    }

    var tally: Tally { box.withLockedValue { $0 } }

    func run() async {
        var cursor: Int64 = 0
        while !stop.isSet {
            let next = ContinuousClock.now + .milliseconds(200)
            await step("upload") { token in
                try await self.api.send(.POST, "/v1/records", text: uploadBody([(randomRecordID(), 1)], pool: self.pool),
                                        token: token, headers: [("Idempotency-Key", randomUUID())])
            }
            if let page = await step("changes", { token in
                try await self.api.send(.GET, "/v1/changes?after=\(cursor)", token: token)
            })?.decode(Faults.ChangesPage.self) {
                cursor = max(cursor, page.cursor)
            }
            await step("hints") { token in try await self.api.send(.GET, "/v1/hints?after=0&wait=0", token: token) }
            if next > ContinuousClock.now { try? await Task.sleep(until: next) }
        }
    }

    @discardableResult
    private func step(_ what: String, _ send: (String) async throws -> Answer) async -> Answer? {
        let started = ContinuousClock.now
        do {
            let answer = try await send(try await session.token(api))
            let latency = elapsed(since: started)
            box.withLockedValue {
                $0.requests += 1
                $0.latencies.append(latency)
                if answer.status != 200 {
                    $0.failed += 1
                    if $0.firstFailure == nil { $0.firstFailure = "\(what): \(answer.status) \(answer.text.prefix(160))" }
                }
            }
            return answer.status == 200 ? answer : nil
        } catch {
            box.withLockedValue {
                $0.requests += 1
                $0.failed += 1
                if $0.firstFailure == nil { $0.firstFailure = "\(what): \(error)" }
            }
            return nil
        }
    }
}

/// `body`, or an error once `limit` passes (the body is cancelled).
func withTimeout<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw LoadError("timed out after \(limit)")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
