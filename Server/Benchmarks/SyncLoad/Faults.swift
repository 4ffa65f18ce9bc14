import AsyncHTTPClient
import Foundation
import SyncServerHarness

/// Faults under load: devices upload records and send each other commands
/// while the server is killed with SIGKILL and PostgreSQL is stopped with
/// `pg_ctl stop -m immediate`, each started again; a ledger of everything
/// acknowledged is checked against the server at the end.
enum Faults {
    struct Options {
        var devices: Int
        var perAccount: Int
        var kills: Int
        var postgresRestarts: Int
        var interval: Duration
        var pace: Duration
        var recordsPerUpload: Int
        var recordBytes: Int
        var hintWait: Int
        var catchUpTimeout: Duration
        var postgresDowntime: Duration
        var canKill: Bool
        var canRestartPostgres: Bool
    }

    enum Kind: String { case kill = "kill -9 of the server", postgres = "PostgreSQL stop -m immediate + start" }

    struct Event {
        var kind: Kind
        var restartSeconds: Double
        var caughtUp: Bool
        var catchUpSeconds: Double
        var lagging: Int
        var failure: String?
    }

    struct Outcome {
        var devices = 0
        var seconds = 0.0
        var events: [Event] = []
        var uploads = 0
        var records = 0
        var recordsChecked = 0
        var lost = 0
        var lostExamples: [String] = []
        var commands = Ledger.CommandFigures()
        var duplicatedAfterAck = 0
        var duplicateExamples: [String] = []
        var redeliveredBeforeAck = 0
        var tally = Ledger.Tally()
        var verifyFailure: String?

        var kills: Int { events.filter { $0.kind == .kill && $0.failure == nil }.count }
        var postgresRestarts: Int { events.filter { $0.kind == .postgres && $0.failure == nil }.count }
        var caughtUpAfterEvery: Bool { events.allSatisfy(\.caughtUp) }
    }

    /// A device of the run: its session, the account's other device (its commands' target).
    struct Device: Sendable {
        var index: Int
        var session: Session
        var peer: String
    }

    static func run(_ options: Options, api: API, host: ServerHost) async throws -> Outcome {
        let accounts = (options.devices + options.perAccount - 1) / options.perAccount
        let fleet = try await Fleet.register(accounts: accounts, perAccount: max(2, options.perAccount), api: api, parallelism: 8)
        var planned: [Device] = []
        for sessions in fleet {
            for (position, session) in sessions.enumerated() where planned.count < options.devices {
                planned.append(Device(index: planned.count, session: session,
                                      peer: sessions[(position + 1) % sessions.count].deviceID))
            }
        }
        let devices = planned
        let ledger = Ledger()
        let stop = StopFlag()
        let pool = SealedPool(size: options.recordBytes, count: 64)
        var schedule: [Kind] = []
        let kills = options.canKill ? options.kills : 0
        let restarts = options.canRestartPostgres ? options.postgresRestarts : 0
        let total = kills + restarts
        for index in 0..<total {
            schedule.append((index + 1) * restarts / total > index * restarts / total ? .postgres : .kill)
        }
        say("  \(devices.count) devices in \(accounts) accounts, each uploading \(options.recordsPerUpload) records of \(Figures.bytes(Double(options.recordBytes))) and sending a command to its peer every \(Figures.ms(seconds(options.pace))); long-polling hints, pulling changes, acknowledging commands")
        if !options.canKill { say("  (the server was given by URL: no kills)") }
        if !options.canRestartPostgres { say("  (PostgreSQL is not a cluster this tool started: no PostgreSQL restarts)") }

        var outcome = Outcome()
        outcome.devices = devices.count
        let start = ContinuousClock.now
        let writers = Task {
            await withTaskGroup(of: Void.self) { group in
                for device in devices {
                    group.addTask { await writer(device, options: options, api: api, ledger: ledger, pool: pool, stop: stop) }
                }
            }
        }
        let readers = Task {
            await withTaskGroup(of: Void.self) { group in
                for device in devices {
                    group.addTask { await reader(device, options: options, api: api, ledger: ledger, stop: stop) }
                }
            }
        }
        let catchUpDevices = devices.map { (index: $0.index, account: $0.session.accountID) }

        for (number, kind) in schedule.enumerated() {
            // Load between events: the interval, and at least one acknowledged upload since the last one.
            let before = await ledger.uploadsAcknowledged
            try await Task.sleep(for: options.interval)
            let flowing = ContinuousClock.now + .seconds(30)
            while await ledger.uploadsAcknowledged == before, ContinuousClock.now < flowing {
                try await Task.sleep(for: .milliseconds(50))
            }
            let expected = await ledger.cursorSnapshot()
            var event = Event(kind: kind, restartSeconds: 0, caughtUp: false, catchUpSeconds: 0, lagging: 0)
            do {
                switch kind {
                case .kill:
                    event.restartSeconds = try await host.killAndRestart()
                case .postgres:
                    let started = ContinuousClock.now
                    try await blocking { try LocalCluster.stopImmediately() }
                    try await Task.sleep(for: options.postgresDowntime)
                    try await blocking { try LocalCluster.startAgain() }
                    event.restartSeconds = elapsed(since: started)
                }
            } catch {
                event.failure = "\(error)"
            }
            var lastGasp: String?
            if event.failure != nil {
                // One more try to bring it back; without it the rest of the run is meaningless.
                do {
                    switch kind {
                    case .kill: _ = try await host.killAndRestart()
                    case .postgres: try await blocking { try LocalCluster.startAgain() }
                    }
                } catch {
                    lastGasp = "\(error)"
                }
            }
            let done = ContinuousClock.now
            Trace.note("fault \(number + 1) (\(kind)) done")
            while true {
                let lagging = await ledger.lagging(after: done, expected: expected, devices: catchUpDevices)
                event.lagging = lagging.count
                if lagging.isEmpty {
                    event.caughtUp = true
                    break
                }
                if ContinuousClock.now - done > options.catchUpTimeout { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            event.catchUpSeconds = elapsed(since: done)
            outcome.events.append(event)
            let what = kind == .kill ? "kill -9 of the server" : "PostgreSQL stop -m immediate"
            if let failure = event.failure {
                say("  \(number + 1)/\(schedule.count) \(what): FAILED to restart: \(failure.prefix(300))")
                if let lastGasp {
                    say("  could not start it again either (\(lastGasp.prefix(200))): the remaining faults are skipped")
                    break
                }
            } else {
                say("  \(number + 1)/\(schedule.count) \(what): up again in \(Figures.ms(event.restartSeconds)); "
                    + (event.caughtUp
                        ? "all \(devices.count) devices caught up in \(Figures.ms(event.catchUpSeconds))"
                        : "\(event.lagging) of \(devices.count) devices NOT caught up after \(Figures.ms(event.catchUpSeconds))"))
            }
        }
        // Load after the last event too, then stop: writers finish the request under way.
        try await Task.sleep(for: options.interval)
        stop.set()
        await writers.value
        await readers.value
        outcome.seconds = elapsed(since: start)

        // Every target takes what still waits for it; then the server's records are read back.
        for device in devices {
            var attempts = 0
            while await !drainCommands(device, api: api, ledger: ledger), attempts < 20 {
                attempts += 1
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        var accountsChecked = Set<String>()
        for device in devices where !accountsChecked.contains(device.session.accountID) {
            accountsChecked.insert(device.session.accountID)
            let acknowledged = await ledger.acknowledgedRecords(of: device.session.accountID)
            do {
                let held = try await serverRecords(device.session, api: api)
                for (id, version) in acknowledged {
                    outcome.recordsChecked += 1
                    if (held[id] ?? 0) < version {
                        outcome.lost += 1
                        if outcome.lostExamples.count < 5 {
                            outcome.lostExamples.append("\(id) v\(version) (server: \(held[id].map { "v\($0)" } ?? "absent"))")
                        }
                    }
                }
            } catch {
                outcome.verifyFailure = "reading back \(device.session.accountID): \(error)"
                outcome.lost += acknowledged.count
            }
        }
        outcome.uploads = await ledger.uploadsAcknowledged
        outcome.records = await ledger.recordsAcknowledged
        outcome.commands = await ledger.commandFigures()
        outcome.duplicatedAfterAck = await ledger.duplicatedAfterAck
        outcome.duplicateExamples = await ledger.duplicateExamples
        outcome.redeliveredBeforeAck = await ledger.redeliveredBeforeAck
        outcome.tally = await ledger.tally
        return outcome
    }

    // MARK: The devices

    /// Uploads a batch and sends a command to the peer every `pace`, each
    /// retried with the same body and key until acknowledged.
    static func writer(_ device: Device, options: Options, api: API, ledger: Ledger, pool: SealedPool, stop: StopFlag) async {
        let ids = (0..<200).map { _ in randomRecordID() }
        var version: Int64 = 0
        while !stop.isSet {
            let next = ContinuousClock.now + options.pace
            version += 1
            let first = Int(version) * options.recordsPerUpload
            let batch = (0..<options.recordsPerUpload).map { (id: ids[(first + $0) % ids.count], version: version) }
            let body = uploadBody(batch, pool: pool, offset: first)
            let key = randomUUID()
            if let answer = await acknowledged("upload", device: device, api: api, ledger: ledger, { token in
                try await api.send(.POST, "/v1/records", text: body, token: token, headers: [("Idempotency-Key", key)])
            }) {
                if let cursor = answer.decode(UploadAnswer.self)?.cursor {
                    await ledger.uploadAcknowledged(account: device.session.accountID, records: batch, cursor: cursor)
                } else {
                    await ledger.count { $0.unexpected += 1; $0.firstUnexpected = $0.firstUnexpected ?? "upload 200 without cursor: \(answer.text)" }
                }
            }
            let command = CommandsBody(commands: [.init(
                id: randomUUID(), target: device.peer, expiresAt: unixNow() + 3600,
                sealed: String(pool.pick(Int(version)).prefix(88)))])
            guard let json = try? JSONEncoder().encode(command) else { continue }
            if let answer = await acknowledged("command", device: device, api: api, ledger: ledger, { token in
                try await api.send(.POST, "/v1/commands", json: json, token: token)
            }) {
                if let result = answer.decode(CommandsAnswer.self), result.stored + result.duplicates == 1 {
                    await ledger.commandAcknowledged(id: command.commands[0].id, target: device.peer)
                } else {
                    await ledger.count { $0.unexpected += 1; $0.firstUnexpected = $0.firstUnexpected ?? "commands 200: \(answer.text)" }
                }
            }
            if next > ContinuousClock.now { try? await Task.sleep(until: next) }
        }
    }

    /// Long-polls hints; on a new counter pulls the changes, on waiting commands
    /// takes and acknowledges them.
    static func reader(_ device: Device, options: Options, api: API, ledger: Ledger, stop: StopFlag) async {
        var counter: Int64 = 0
        var cursor: Int64 = 0
        while !stop.isSet {
            let started = ContinuousClock.now
            do {
                let token = try await device.session.token(api)
                let answer = try await api.send(
                    .GET, "/v1/hints?after=\(counter)&wait=\(options.hintWait)", token: token,
                    timeout: .seconds(options.hintWait + 15))
                guard answer.status == 200, let hint = answer.decode(HintStreams.Hint.self) else {
                    await note(answer, device: device, ledger: ledger, what: "hints")
                    try await Task.sleep(for: .milliseconds(200))
                    continue
                }
                counter = hint.counter
                await ledger.hintSeen(device: device.index, started: started, counter: hint.counter)
                if hint.counter > cursor { cursor = try await pullChanges(device, after: cursor, api: api) }
                if hint.commands > 0 { _ = await drainCommands(device, api: api, ledger: ledger) }
            } catch {
                await noteFailure(error, ledger: ledger)
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// Reads changes after `cursor` until no more; returns the new cursor.
    static func pullChanges(_ device: Device, after cursor: Int64, api: API) async throws -> Int64 {
        var cursor = cursor
        while true {
            let token = try await device.session.token(api)
            let answer = try await api.send(.GET, "/v1/changes?after=\(cursor)&limit=1000", token: token)
            guard answer.status == 200, let page = answer.decode(ChangesPage.self) else { return cursor }
            cursor = max(cursor, page.cursor)
            if !page.more { return cursor }
        }
    }

    /// Takes the device's waiting commands and acknowledges them, until none
    /// wait; `false` when a request failed.
    static func drainCommands(_ device: Device, api: API, ledger: Ledger) async -> Bool {
        do {
            while true {
                let token = try await device.session.token(api)
                let answer = try await api.send(.GET, "/v1/commands?limit=1000", token: token)
                guard answer.status == 200, let pending = answer.decode(PendingCommands.self) else {
                    await note(answer, device: device, ledger: ledger, what: "commands")
                    return false
                }
                let ids = pending.commands.map(\.id)
                if ids.isEmpty { return true }
                await ledger.delivered(ids, to: device.session.deviceID)
                let ack = try await api.send(.POST, "/v1/commands/ack", json: try JSONEncoder().encode(["ids": ids]), token: token)
                guard ack.status == 200 else {
                    await note(ack, device: device, ledger: ledger, what: "ack")
                    return false
                }
                await ledger.acknowledged(ids, by: device.session.deviceID)
            }
        } catch {
            await noteFailure(error, ledger: ledger)
            return false
        }
    }

    /// Sends the same request until it is answered `200` (returned), or until
    /// it is refused for good or two minutes pass (`nil`: not acknowledged).
    static func acknowledged(
        _ what: String, device: Device, api: API, ledger: Ledger, _ send: (String) async throws -> Answer
    ) async -> Answer? {
        let giveUp = ContinuousClock.now + .seconds(120)
        var attempt = 0
        while ContinuousClock.now < giveUp {
            if attempt > 0 {
                await ledger.count { $0.retries += 1 }
                try? await Task.sleep(for: .milliseconds(min(1000, 50 * attempt)))
            }
            attempt += 1
            do {
                let answer = try await send(try await device.session.token(api))
                switch answer.status {
                case 200:
                    return answer
                case 429:
                    await ledger.count { $0.rateLimited += 1 }
                    try? await Task.sleep(for: .seconds(answer.retryAfter ?? 1))
                case 401:
                    device.session.invalidate()
                    await ledger.count { $0.unauthorized += 1 }
                case 500...:
                    await note(answer, device: device, ledger: ledger, what: what)
                case 409 where attempt > 1:
                    // A repeat with the same Idempotency-Key must get the first answer, never a conflict.
                    await ledger.count {
                        $0.conflictsOnRetry += 1
                        $0.firstUnexpected = $0.firstUnexpected ?? "\(what) retried with its key: 409 \(answer.text)"
                    }
                    return nil
                default:
                    await note(answer, device: device, ledger: ledger, what: what)
                    return nil
                }
            } catch {
                await noteFailure(error, ledger: ledger)
            }
        }
        return nil
    }

    /// A request that got no answer: refused or cut (the server down), or never answered in time.
    static func noteFailure(_ error: any Error, ledger: Ledger) async {
        if let error = error as? HTTPClientError, error == .deadlineExceeded {
            await ledger.count { $0.timeouts += 1 }
        } else {
            await ledger.count { $0.connectionErrors += 1 }
        }
    }

    static func note(_ answer: Answer, device: Device, ledger: Ledger, what: String) async {
        let text = "\(what): \(answer.status) \(answer.text.prefix(200))"
        switch answer.status {
        case 401:
            device.session.invalidate()
            await ledger.count { $0.unauthorized += 1 }
        case 429:
            await ledger.count { $0.rateLimited += 1 }
        case 500...:
            await ledger.count { $0.serverErrors += 1; $0.firstServerError = $0.firstServerError ?? text }
        default:
            await ledger.count { $0.unexpected += 1; $0.firstUnexpected = $0.firstUnexpected ?? text }
        }
    }

    /// Every record of the account on the server: id → version.
    static func serverRecords(_ session: Session, api: API) async throws -> [String: Int64] {
        var held: [String: Int64] = [:]
        var after: Int64 = 0
        while true {
            let token = try await session.token(api)
            let answer = try await api.send(.GET, "/v1/changes?after=\(after)&limit=1000", token: token, timeout: .seconds(60))
            guard answer.status == 200, let page = answer.decode(ChangesPage.self) else {
                throw LoadError("changes: \(answer.status) \(answer.text.prefix(200))")
            }
            for record in page.records ?? [] where !(record.tombstone ?? false) {
                held[record.id] = max(held[record.id] ?? 0, record.version)
            }
            guard page.more, page.cursor > after else { return held }
            after = page.cursor
        }
    }

    static func report(_ outcome: Outcome, options: Options) {
        let catchUps = outcome.events.map(\.catchUpSeconds)
        let restarts = outcome.events.filter { $0.failure == nil }.map(\.restartSeconds)
        say("  kills: \(outcome.kills) of \(options.canKill ? options.kills : 0); PostgreSQL restarts: \(outcome.postgresRestarts) of \(options.canRestartPostgres ? options.postgresRestarts : 0); over \(String(format: "%.0f", outcome.seconds)) s")
        if !restarts.isEmpty {
            say("  back up after a fault: p50 \(Figures.ms(Figures.percentile(restarts, 50))), max \(Figures.ms(restarts.max() ?? 0)); every device caught up: p50 \(Figures.ms(Figures.percentile(catchUps, 50))), max \(Figures.ms(catchUps.max() ?? 0))")
        }
        say("  records acknowledged: \(Figures.count(outcome.records)) in \(Figures.count(outcome.uploads)) uploads (\(Figures.count(outcome.recordsChecked)) distinct checked); lost: \(outcome.lost)\(outcome.lostExamples.isEmpty ? "" : " e.g. " + outcome.lostExamples.joined(separator: ", "))")
        say("  commands acknowledged: \(Figures.count(outcome.commands.acknowledged)); delivered: \(Figures.count(outcome.commands.delivered)); not delivered: \(outcome.commands.undelivered)\(outcome.commands.undeliveredExamples.isEmpty ? "" : " e.g. " + outcome.commands.undeliveredExamples.joined(separator: ", ")); duplicated after ack: \(outcome.duplicatedAfterAck)\(outcome.duplicateExamples.isEmpty ? "" : " e.g. " + outcome.duplicateExamples.joined(separator: ", "))")
        say("  delivered again before its ack succeeded (allowed): \(outcome.redeliveredBeforeAck); delivered without an acknowledged post (the post's answer was lost): \(outcome.commands.deliveredWithoutAck)")
        say("  caught up after every restart: \(Figures.yes(outcome.caughtUpAfterEvery))")
        let slow = outcome.events.filter { $0.catchUpSeconds > 5 }
        if !slow.isEmpty {
            say("  slow catch-ups (over 5 s): \(slow.filter { $0.kind == .kill }.count) after a kill, \(slow.filter { $0.kind == .postgres }.count) after a PostgreSQL restart; requests never answered until the client's timeout: \(outcome.tally.timeouts)")
        }
        let tally = outcome.tally
        say("  retries \(Figures.count(tally.retries)): connection refused or cut \(Figures.count(tally.connectionErrors)), never answered (client timeout) \(tally.timeouts), server errors (5xx) \(Figures.count(tally.serverErrors)), rate-limited \(tally.rateLimited), 401 \(tally.unauthorized), 409 on a retried key \(tally.conflictsOnRetry), other \(tally.unexpected)")
        if let first = tally.firstServerError { say("  first server error: \(first)") }
        if let first = tally.firstUnexpected { say("  first unexpected answer: \(first)") }
        if let failure = outcome.verifyFailure { say("  verification failed: \(failure)") }
    }

    // MARK: Bodies and answers

    struct CommandsBody: Encodable {
        var commands: [Command]

        struct Command: Encodable {
            var id: String
            var target: String
            var expiresAt: Int64
            var sealed: String
            enum CodingKeys: String, CodingKey { case id, target, sealed, expiresAt = "expires_at" }
        }
    }

    struct CommandsAnswer: Decodable {
        var stored: Int
        var duplicates: Int
    }

    struct PendingCommands: Decodable {
        var commands: [Command]
        struct Command: Decodable { var id: String }
    }

    struct UploadAnswer: Decodable { var cursor: Int64 }

    struct ChangesPage: Decodable {
        var records: [Record]?
        var cursor: Int64
        var more: Bool

        struct Record: Decodable {
            var id: String
            var version: Int64
            var tombstone: Bool?
        }
    }
}
