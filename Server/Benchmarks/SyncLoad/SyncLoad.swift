import ArgumentParser
import Foundation
import SyncServerHarness

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sessionstore-sync-load`: load and faults against a real
/// `sessionstore-sync-server` process on a throwaway PostgreSQL (or a server
/// given by URL): idle hint streams and upload throughput, kill -9 and
/// PostgreSQL restarts under load with a ledger of everything acknowledged,
/// and hostile clients beside a normal one. Bounded in count and time; exits
/// non-zero when anything acknowledged was lost or applied twice, a hostile
/// client was not refused, or fewer hint streams were held than asked.
@main
struct SyncLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessionstore-sync-load",
        abstract: "Load, faults and hostile clients against the sync server.",
        discussion: """
            Sizes are reduced (for CI) unless SESSIONSTORE_LOAD_FULL=1 or --full: \
            500 / 10,000 hint streams, 10 / 100 server kills, 3 / 20 PostgreSQL restarts. \
            Every size has its own option. SESSIONSTORE_LOAD_TRACE=1 prints failed and slow \
            requests on standard error. The server is the sessionstore-sync-server built beside \
            this tool (or $SESSIONSTORE_SYNC_SERVER_BIN); build both in release for figures.
            """)

    @Option(help: "Parts to run, comma-separated: streams, uploads, faults, hostile (capacity = streams,uploads).")
    var parts = "streams,uploads,faults,hostile"

    @Flag(help: "Full sizes (as SESSIONSTORE_LOAD_FULL=1).")
    var full = false

    @Option(help: "Sync server to load instead of starting one (no kills or PostgreSQL restarts then), e.g. http://127.0.0.1:8080.")
    var server: String?

    @Option(name: .customLong("jwt-secret"), help: "The token secret of the --server, to try an expired token.")
    var jwtSecret: String?

    @Option(name: .customLong("hint-bus"), help: "The started server's --hint-bus: postgres or local.")
    var hintBus = "postgres"

    @Flag(name: .customLong("keep-logs"), help: "Keep the server logs even when everything passed.")
    var keepLogs = false

    // Capacity (a): hint streams.
    @Option(help: "Idle hint streams held at once (reduced 500, full 10,000).")
    var streams: Int?
    @Option(name: .customLong("devices-per-account"), help: "Devices per account of the streams and uploads.")
    var devicesPerAccount = 2
    @Option(help: "Seconds the streams are held once open (reduced 10, full 30).")
    var hold: Int?
    @Option(name: .customLong("hint-wait"), help: "wait= of each hint poll, in seconds (the server caps it at 60).")
    var hintWait = 60
    @Option(name: .customLong("register-parallelism"), help: "Accounts registered at once.")
    var registerParallelism = 32
    @Option(name: .customLong("open-parallelism"), help: "Streams connecting at once.")
    var openParallelism = 200
    @Option(name: .customLong("wake-samples"), help: "Hint wake-ups timed while the streams are held.")
    var wakeSamples = 20

    // Capacity (b): uploads.
    @Option(name: .customLong("upload-devices"), help: "Devices uploading batches (reduced 10, full 50).")
    var uploadDevices: Int?
    @Option(help: "Seconds of batch uploads (reduced 10, full 30).")
    var duration: Int?
    @Option(help: "Records per batch.")
    var batch = 100
    @Option(name: .customLong("record-bytes"), help: "Sealed bytes per record.")
    var recordBytes = 2048
    @Option(name: .customLong("upload-rate"), help: "Batches per second per device at most (the server's quota is 10).")
    var uploadRate = 10

    // Faults.
    @Option(help: "Server kills with SIGKILL (reduced 10, full 100).")
    var kills: Int?
    @Option(name: .customLong("pg-restarts"), help: "PostgreSQL restarts with pg_ctl stop -m immediate (reduced 3, full 20).")
    var pgRestarts: Int?
    @Option(name: .customLong("fault-devices"), help: "Devices uploading and sending commands during the faults (reduced 10, full 20).")
    var faultDevices: Int?
    @Option(name: .customLong("fault-interval"), help: "Milliseconds of load between two faults.")
    var faultInterval = 1000
    @Option(name: .customLong("fault-pace"), help: "Milliseconds between two uploads (and commands) of a device.")
    var faultPace = 250
    @Option(name: .customLong("fault-records"), help: "Records per upload during the faults.")
    var faultRecords = 10
    @Option(name: .customLong("fault-hint-wait"), help: "wait= of the devices' hint polls during the faults.")
    var faultHintWait = 5
    @Option(name: .customLong("catch-up-timeout"), help: "Seconds every device has to catch up after a fault.")
    var catchUpTimeout = 60
    @Option(name: .customLong("pg-downtime"), help: "Milliseconds PostgreSQL stays down.")
    var pgDowntime = 500

    // Hostile clients.
    @Option(name: .customLong("slow-clients"), help: "Connections that never finish their request (reduced 20, full 200).")
    var slowClients: Int?
    @Option(name: .customLong("slow-seconds"), help: "Seconds the slow connections are held (reduced 10, full 20).")
    var slowSeconds: Int?

    func validate() throws {
        let known: Set<String> = ["streams", "uploads", "faults", "hostile", "capacity"]
        for part in selectedParts where !known.contains(part) {
            throw ValidationError("unknown part \(part); known: \(known.sorted().joined(separator: ", "))")
        }
        for (name, value) in [("streams", streams), ("hold", hold), ("upload-devices", uploadDevices), ("duration", duration),
                              ("kills", kills), ("pg-restarts", pgRestarts), ("fault-devices", faultDevices),
                              ("slow-clients", slowClients), ("slow-seconds", slowSeconds)] {
            if let value, value < 0 { throw ValidationError("--\(name) must be at least 0") }
        }
        guard devicesPerAccount >= 1, batch >= 1, batch <= 1000, recordBytes >= 1, recordBytes <= 16_384,
              uploadRate >= 1, faultRecords >= 1, faultRecords <= 200
        else { throw ValidationError("--devices-per-account, --batch (≤ 1,000), --record-bytes (≤ 16,384), --upload-rate and --fault-records (≤ 200) must be at least 1") }
        guard ["postgres", "local"].contains(hintBus) else { throw ValidationError("--hint-bus must be postgres or local") }
    }

    private var selectedParts: Set<String> {
        var parts = Set(self.parts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        if parts.remove("capacity") != nil { parts.formUnion(["streams", "uploads"]) }
        return parts
    }

    private var isFull: Bool { full || ProcessInfo.processInfo.environment["SESSIONSTORE_LOAD_FULL"] == "1" }
    private func size(_ value: Int?, reduced: Int, full: Int) -> Int { value ?? (isFull ? full : reduced) }

    mutating func run() async throws {
        let openFiles = raiseOpenFileLimit()
        Trace.note("started")
        let parts = selectedParts
        let sizes = (
            streams: size(streams, reduced: 500, full: 10_000), hold: size(hold, reduced: 10, full: 30),
            uploadDevices: size(uploadDevices, reduced: 10, full: 50), duration: size(duration, reduced: 10, full: 30),
            kills: size(kills, reduced: 10, full: 100), pgRestarts: size(pgRestarts, reduced: 3, full: 20),
            faultDevices: size(faultDevices, reduced: 10, full: 20),
            slowClients: size(slowClients, reduced: 20, full: 200), slowSeconds: size(slowSeconds, reduced: 10, full: 20))
        let machine = "\(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + "\(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB, open files \(Figures.count(openFiles)) per process"
        let logDirectory = NSTemporaryDirectory() + "sessionstore-sync-load-\(getpid())"
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)

        // The server: given by URL, or started here on a throwaway PostgreSQL.
        let host: ServerHost
        var secret = jwtSecret
        var postgres = "none (server given by URL)"
        var databaseURL: String?
        if let server {
            guard let url = URL(string: server), url.host != nil else { throw ValidationError("--server must be a URL") }
            host = ServerHost(external: url, logDirectory: logDirectory)
        } else {
            let executable = try ServerProcess.executableURL()
            let url = try await TestPostgres.shared.createDatabase()
            databaseURL = url
            postgres = LocalCluster.rootDirectory != nil
                ? "a cluster started here from \(LocalCluster.binDirectory)" : "SESSIONSTORE_SYNC_TEST_DATABASE_URL"
            let generated = hex(randomBytes(32))
            secret = generated
            host = try await ServerHost.start(
                databaseURL: url, arguments: ["--hint-bus", hintBus], jwtSecret: generated, logDirectory: logDirectory)
            postgres += "; server \(executable.path), hint bus \(hintBus)"
        }
        say("sessionstore-sync-load: \(machine); PostgreSQL: \(postgres)")
        say("sizes: \(isFull ? "full" : "reduced (SESSIONSTORE_LOAD_FULL=1 for full)"): \(Figures.count(sizes.streams)) hint streams, "
            + "uploads \(sizes.uploadDevices) devices x \(sizes.duration) s, \(sizes.kills) server kills, \(sizes.pgRestarts) PostgreSQL restarts, "
            + "\(sizes.slowClients) slow clients; parts: \(["streams", "uploads", "faults", "hostile"].filter(parts.contains).joined(separator: ", "))")

        let api = API.make(endpoint: host.endpoint, connections: 512)
        var goals: [(met: Bool, counts: Bool, text: String)] = []
        var untried: [String] = []
        let isLocal = await host.isLocal

        if parts.contains("streams") {
            say("\ncapacity: idle hint streams (GET /v1/hints?wait=\(hintWait), each on its own connection)")
            do {
                let outcome = try await HintStreams.run(.init(
                    streams: sizes.streams, perAccount: devicesPerAccount, wait: hintWait, hold: sizes.hold,
                    registerParallelism: registerParallelism, openParallelism: openParallelism,
                    wakeSamples: wakeSamples, serverPID: await host.processID), api: api)
                HintStreams.report(outcome)
                goals.append((outcome.heldConcurrently >= sizes.streams, true,
                              "idle hint streams held concurrently >= \(Figures.count(sizes.streams)): \(Figures.count(outcome.heldConcurrently)) (connections open min \(Figures.count(outcome.connectedMin)), server gauge max \(outcome.serverWaitingMax.map(Figures.count) ?? "n/a"), min \(outcome.serverWaitingMin.map(Figures.count) ?? "n/a"))"))
                if sizes.streams < 10_000 {
                    untried.append("10,000 idle hint streams: not tried at this size (SESSIONSTORE_LOAD_FULL=1)")
                }
            } catch {
                say("  FAILED: \(error)")
                goals.append((false, true, "idle hint streams: the part failed: \(error)"))
            }
        }

        if parts.contains("uploads") {
            say("\ncapacity: upload batches")
            do {
                let outcome = try await UploadThroughput.run(.init(
                    devices: sizes.uploadDevices, perAccount: devicesPerAccount, seconds: sizes.duration, batch: batch,
                    recordBytes: recordBytes, rate: uploadRate), api: api)
                UploadThroughput.report(outcome)
                goals.append((outcome.failed == 0 && outcome.batches > 0, true,
                              "upload batches of \(batch): \(Figures.rate(Double(outcome.batches) / max(0.001, outcome.seconds))) batches/s, p50 \(Figures.ms(Figures.percentile(outcome.latencies, 50))), p99 \(Figures.ms(Figures.percentile(outcome.latencies, 99))), \(outcome.failed) failed"))
            } catch {
                say("  FAILED: \(error)")
                goals.append((false, true, "upload batches: the part failed: \(error)"))
            }
        }

        if parts.contains("faults") {
            say("\nfaults under load: \(sizes.kills) kill -9 of the server, \(sizes.pgRestarts) PostgreSQL stop -m immediate")
            let options = Faults.Options(
                devices: sizes.faultDevices, perAccount: max(2, devicesPerAccount), kills: sizes.kills,
                postgresRestarts: sizes.pgRestarts, interval: .milliseconds(faultInterval), pace: .milliseconds(faultPace),
                recordsPerUpload: faultRecords, recordBytes: 1024, hintWait: faultHintWait,
                catchUpTimeout: .seconds(catchUpTimeout), postgresDowntime: .milliseconds(pgDowntime),
                canKill: isLocal, canRestartPostgres: isLocal && LocalCluster.rootDirectory != nil)
            do {
                let outcome = try await Faults.run(options, api: api, host: host)
                Faults.report(outcome, options: options)
                goals.append((outcome.lost == 0 && outcome.verifyFailure == nil, true,
                              "acknowledged records lost: \(outcome.lost) of \(Figures.count(outcome.recordsChecked)) (\(outcome.kills) kills, \(outcome.postgresRestarts) PostgreSQL restarts)"))
                goals.append((outcome.duplicatedAfterAck == 0, true,
                              "commands delivered again after their ack: \(outcome.duplicatedAfterAck) of \(Figures.count(outcome.commands.acknowledged))"))
                goals.append((outcome.commands.undelivered == 0, true,
                              "acknowledged commands not delivered: \(outcome.commands.undelivered) of \(Figures.count(outcome.commands.acknowledged))"))
                goals.append((outcome.caughtUpAfterEvery && outcome.events.allSatisfy { $0.failure == nil }, true,
                              "every device caught up after every restart: \(Figures.yes(outcome.caughtUpAfterEvery)) (\(outcome.events.filter { !$0.caughtUp }.count) of \(outcome.events.count) not; \(outcome.events.filter { $0.failure != nil }.count) restarts failed)"))
                goals.append((outcome.tally.conflictsOnRetry == 0, true,
                              "a retried upload with its Idempotency-Key answered 409: \(outcome.tally.conflictsOnRetry) times"))
            } catch {
                say("  FAILED: \(error)")
                goals.append((false, true, "faults: the part failed: \(error)"))
            }
        }

        if parts.contains("hostile") {
            say("\nhostile clients, beside a normal client")
            do {
                let outcome = try await Hostile.run(.init(
                    slowClients: sizes.slowClients, slowSeconds: sizes.slowSeconds, jwtSecret: secret), api: api)
                let normal = outcome.normal
                say("  normal client: \(Figures.count(normal.requests - normal.failed)) of \(Figures.count(normal.requests)) requests served, p50 \(Figures.ms(Figures.percentile(normal.latencies, 50))), p99 \(Figures.ms(Figures.percentile(normal.latencies, 99)))\(normal.firstFailure.map { "; first failure: \($0)" } ?? "")")
                for item in outcome.cases {
                    goals.append((item.refused, !item.informational, "hostile: \(item.goal ?? "\(item.name) refused")"
                                  + (item.informational ? " (not in the exit status)" : "")))
                }
                goals.append((outcome.normalKeptWorking, true,
                              "the normal client kept working beside them: \(normal.failed) of \(normal.requests) requests failed"))
            } catch {
                say("  FAILED: \(error)")
                goals.append((false, true, "hostile clients: the part failed: \(error)"))
            }
        }

        await api.shutdown()
        await host.stop()
        if let databaseURL { try? await TestPostgres.shared.dropDatabase(databaseURL) }

        let errors = await host.logLines(containing: " error ")
        if isLocal {
            say("\nserver logs: \(errors.count) errors")
            var kinds: [String: Int] = [:]
            for line in errors { kinds[Self.kind(ofLogLine: line), default: 0] += 1 }
            for (kind, count) in kinds.sorted(by: { $0.value > $1.value }).prefix(8) {
                say("  \(count) x \(kind)")
            }
        }

        say("\nGoals:")
        for goal in goals { say(Figures.goal(goal.met, goal.text)) }
        for text in untried { say(Figures.untried(text)) }
        let failed = goals.contains { !$0.met && $0.counts }
        if failed || keepLogs {
            say("server logs kept in \(logDirectory)")
        } else {
            try? FileManager.default.removeItem(atPath: logDirectory)
        }
        if failed { throw ExitCode(1) }
    }

    /// An error line of the server's log, shortened to what kind of error it is:
    /// the message (`request failed`, `sweep failed`) and the start of the error.
    static func kind(ofLogLine line: String) -> String {
        let message = line.range(of: "] ", options: .backwards).map { String(line[$0.upperBound...]) } ?? ""
        var error = line.range(of: "error=").map { String(line[$0.upperBound...]) } ?? line
        if let sqlState = error.range(of: "sqlState: ") {
            error = "sqlState " + error[sqlState.upperBound...].prefix(5)
                + (error.range(of: "message: ").map { ": " + error[$0.upperBound...].prefix(60) } ?? "")
        } else {
            for marker in [", triggeredFromRequestInFile", " hb.request.id=", " ["] {
                if let end = error.range(of: marker) { error = String(error[..<end.lowerBound]) }
            }
        }
        return "\(message.isEmpty ? "" : message + ": ")\(error.prefix(140))"
    }

    /// Raises the soft limit of open files to the hard one; returns it.
    private func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(limit.rlim_cur)
    }
}
