import Foundation
import SyncServerHarness
import NIOConcurrencyHelpers
import NIOCore

/// Capacity (a): idle hint streams. Each device holds `GET /v1/hints?wait=60`
/// on a connection of its own, polling again as soon as one answers, as a
/// real device does; the server's `sessionstore_waiting_requests` confirms
/// how many it holds.
enum HintStreams {
    struct Options {
        var streams: Int
        var perAccount: Int
        var wait: Int
        var hold: Int
        var registerParallelism: Int
        var openParallelism: Int
        var wakeSamples: Int
        var serverPID: Int32?
    }

    struct Outcome {
        var requested = 0
        var accounts = 0
        var registerSeconds = 0.0
        var opened = 0
        var openSeconds = 0.0
        var clientHeldMin = 0
        var clientHeldMax = 0
        var connectedMin = 0
        var renewed = 0
        var serverWaitingMin: Int?
        var serverWaitingMax: Int?
        var holdSeconds = 0.0
        var errors = 0
        var firstError: String?
        var wakes: [Double] = []
        var wakesMissed = 0
        var server: (files: Int, residentBytes: Double)?
        var tool: (files: Int, residentBytes: Double)?

        /// Streams held at once: every stream stayed connected through the hold, and the
        /// server's gauge counted that many waiting at once (`nil` gauge: the client's count).
        /// A poll whose wait ends is sent again at once, so a sample may miss a few renewing.
        var heldConcurrently: Int { min(connectedMin, serverWaitingMax ?? clientHeldMax) }
    }

    /// What the streams share with the driver: how many wait, and each one's last answer.
    final class Board: Sendable {
        struct State {
            /// Polls sent and not answered.
            var held = 0
            /// Connections open (a poll pending, or being sent again after an answer).
            var connected = 0
            /// Streams that sent their first poll.
            var opened = 0
            /// Polls answered (a commit, or the wait's end).
            var answered = 0
            var errors = 0
            var firstError: String?
        }

        let state: NIOLockedValueBox<State>
        /// Each stream's last answer (apart from the counts: the driver reads one at a time).
        private let answers: NIOLockedValueBox<[ContinuousClock.Instant?]>

        init(count: Int) {
            state = NIOLockedValueBox(State())
            answers = NIOLockedValueBox(Array(repeating: nil, count: count))
        }

        func lastAnswer(_ index: Int) -> ContinuousClock.Instant? {
            answers.withLockedValue { $0[index] }
        }

        func sent(first: Bool) {
            state.withLockedValue {
                $0.held += 1
                if first { $0.opened += 1 }
            }
        }

        func answered(_ index: Int) {
            answers.withLockedValue { $0[index] = .now }
            state.withLockedValue {
                $0.held -= 1
                $0.answered += 1
            }
        }

        func connection(opened: Bool) {
            state.withLockedValue { $0.connected += opened ? 1 : -1 }
        }

        func cancelled(wasHeld: Bool) {
            state.withLockedValue { if wasHeld { $0.held -= 1 } }
        }

        func failed(_ error: String, wasHeld: Bool) {
            state.withLockedValue {
                if wasHeld { $0.held -= 1 }
                $0.errors += 1
                if $0.firstError == nil { $0.firstError = error }
            }
        }

        var snapshot: State { state.withLockedValue { $0 } }
    }

    static func run(_ options: Options, api: API) async throws -> Outcome {
        var outcome = Outcome()
        outcome.requested = options.streams
        let accounts = (options.streams + options.perAccount - 1) / options.perAccount
        outcome.accounts = accounts
        say("  registering \(Figures.count(options.streams)) devices in \(Figures.count(accounts)) accounts (\(options.registerParallelism) at once)")
        var clock = ContinuousClock.now
        let fleet = try await Fleet.register(
            accounts: accounts, perAccount: options.perAccount, api: api, parallelism: options.registerParallelism)
        let sessions = Array(fleet.joined().prefix(options.streams))
        outcome.registerSeconds = elapsed(since: clock)
        say("  registered in \(Figures.ms(outcome.registerSeconds)) (\(Figures.rate(Double(sessions.count) / outcome.registerSeconds)) devices/s)")

        let board = Board(count: sessions.count)
        let gate = AsyncGate(options.openParallelism)
        clock = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, session) in sessions.enumerated() {
                group.addTask {
                    await stream(index: index, session: session, wait: options.wait, api: api, board: board, gate: gate)
                }
            }
            // Opening: until every stream has sent its first poll, or progress stops for 30 s.
            var lastOpened = 0
            var lastProgress = ContinuousClock.now
            while true {
                let opened = board.snapshot.opened
                if opened >= sessions.count { break }
                if opened > lastOpened {
                    lastOpened = opened
                    lastProgress = .now
                } else if ContinuousClock.now - lastProgress > .seconds(30) {
                    break
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            outcome.opened = board.snapshot.opened
            // The server has them once its gauge stops climbing.
            var lastWaiting = -1
            let settleDeadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < settleDeadline {
                let waiting = await api.waitingRequests() ?? -1
                if waiting >= board.snapshot.held || (waiting == lastWaiting && waiting >= 0) { break }
                lastWaiting = waiting
                try await Task.sleep(for: .seconds(1))
            }
            outcome.openSeconds = elapsed(since: clock)
            say("  \(Figures.count(outcome.opened)) of \(Figures.count(sessions.count)) streams opened in \(Figures.ms(outcome.openSeconds)); holding \(options.hold) s")

            // Hold: the client's count of waiting polls and the server's, once a second.
            var clientMin = Int.max, clientMax = 0, connectedMin = Int.max
            var serverMin: Int?, serverMax: Int?
            let holdStart = ContinuousClock.now
            let answeredBefore = board.snapshot.answered
            repeat {
                let snapshot = board.snapshot
                clientMin = min(clientMin, snapshot.held)
                clientMax = max(clientMax, snapshot.held)
                connectedMin = min(connectedMin, snapshot.connected)
                if let waiting = await api.waitingRequests() {
                    serverMin = min(serverMin ?? .max, waiting)
                    serverMax = max(serverMax ?? 0, waiting)
                }
                try await Task.sleep(for: .seconds(1))
            } while ContinuousClock.now - holdStart < .seconds(options.hold)
            outcome.holdSeconds = elapsed(since: holdStart)
            outcome.clientHeldMin = clientMin == .max ? 0 : clientMin
            outcome.clientHeldMax = clientMax
            outcome.connectedMin = connectedMin == .max ? 0 : connectedMin
            outcome.renewed = board.snapshot.answered - answeredBefore
            outcome.serverWaitingMin = serverMin
            outcome.serverWaitingMax = serverMax
            if let pid = options.serverPID { outcome.server = processFigures(pid: pid) }
            outcome.tool = processFigures(pid: getpid())

            // Wake-ups among the held streams: an upload by one device of an account, then
            // the time until the other device's poll answers.
            let pool = SealedPool(size: 256, count: 4)
            let samples = min(options.wakeSamples, accounts)
            for sample in 0..<samples {
                let account = sample * accounts / max(1, samples)
                let writer = account * options.perAccount
                let reader = writer + (options.perAccount > 1 ? 1 : 0)
                guard reader < sessions.count else { continue }
                let token = try await sessions[writer].token(api)
                let body = uploadBody([(randomRecordID(), 1)], pool: pool)
                let started = ContinuousClock.now
                let answer = try await api.send(
                    .POST, "/v1/records", text: body, token: token, headers: [("Idempotency-Key", randomUUID())])
                guard answer.status == 200 else {
                    outcome.wakesMissed += 1
                    continue
                }
                let deadline = started + .seconds(10)
                var woke: ContinuousClock.Instant?
                while ContinuousClock.now < deadline {
                    if let at = board.lastAnswer(reader), at > started {
                        woke = at
                        break
                    }
                    try await Task.sleep(for: .milliseconds(2))
                }
                if let woke { outcome.wakes.append(seconds(woke - started)) } else { outcome.wakesMissed += 1 }
            }
            group.cancelAll()
        }
        let final = board.snapshot
        outcome.errors = final.errors
        outcome.firstError = final.firstError
        return outcome
    }

    /// One device's hint stream: a connection of its own, a poll after each answer,
    /// a new connection after a failure, until cancelled.
    static func stream(index: Int, session: Session, wait: Int, api: API, board: Board, gate: AsyncGate) async {
        var counter: Int64 = 0
        var first = true
        var holdsGate = false
        while !Task.isCancelled {
            var pending = false
            do {
                if first {
                    await gate.acquire()
                    holdsGate = true
                }
                try await RawHTTP.connect(api.endpoint) { exchange in
                    board.connection(opened: true)
                    defer { board.connection(opened: false) }
                    while !Task.isCancelled {
                        let token = try await session.token(api)
                        try await exchange.write(RawHTTP.request(
                            "GET", "/v1/hints?after=\(counter)&wait=\(wait)", endpoint: api.endpoint, token: token))
                        board.sent(first: first)
                        pending = true
                        if holdsGate {
                            holdsGate = false
                            await gate.release()
                        }
                        first = false
                        let response = try await exchange.response()
                        pending = false
                        board.answered(index)
                        switch response.status {
                        case 200:
                            if let hint = try? JSONDecoder().decode(Hint.self, from: Data(response.body.utf8)) {
                                counter = hint.counter
                            }
                        case 401:
                            session.invalidate()
                            board.failed("hint: 401 \(response.body)", wasHeld: false)
                        default:
                            board.failed("hint: \(response.status) \(response.body)", wasHeld: false)
                            try await Task.sleep(for: .seconds(1))
                        }
                        if response.headers["connection"]?.lowercased() == "close" { return }
                    }
                }
            } catch {
                if holdsGate {
                    holdsGate = false
                    await gate.release()
                }
                if Task.isCancelled {
                    board.cancelled(wasHeld: pending)
                    return
                }
                board.failed("hint stream: \(error)", wasHeld: pending)
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    struct Hint: Decodable {
        var counter: Int64
        var commands: Int64
    }

    static func report(_ outcome: Outcome) {
        let server = outcome.serverWaitingMin.map {
            "server sessionstore_waiting_requests min \(Figures.count($0)), max \(Figures.count(outcome.serverWaitingMax ?? $0))"
        } ?? "server metrics unavailable"
        say("  held for \(String(format: "%.0f", outcome.holdSeconds)) s: connections open min \(Figures.count(outcome.connectedMin)); polls pending min \(Figures.count(outcome.clientHeldMin)), max \(Figures.count(outcome.clientHeldMax)); \(server); \(Figures.count(outcome.renewed)) polls renewed at the end of their wait")
        var processes: [String] = []
        if let server = outcome.server {
            processes.append("server \(Figures.count(server.files)) open files, \(Figures.bytes(server.residentBytes)) resident")
        }
        if let tool = outcome.tool {
            processes.append("load tool \(Figures.count(tool.files)) open files, \(Figures.bytes(tool.residentBytes)) resident")
        }
        if !processes.isEmpty { say("  " + processes.joined(separator: "; ")) }
        if !outcome.wakes.isEmpty || outcome.wakesMissed > 0 {
            say("  hint answered after an upload by the account's other device: p50 \(Figures.ms(Figures.percentile(outcome.wakes, 50))), max \(Figures.ms(outcome.wakes.max() ?? 0)) over \(outcome.wakes.count)\(outcome.wakesMissed > 0 ? ", \(outcome.wakesMissed) missed" : "")")
        }
        say("  stream errors: \(outcome.errors)\(outcome.firstError.map { " (first: \($0.prefix(160)))" } ?? "")")
    }
}
