import Foundation
import SyncServerHarness

/// The server under test: a child process this tool started (which it can
/// kill and start again on the same database and port), or one given by URL.
actor ServerHost {
    let endpoint: Endpoint
    private let databaseURL: String?
    private let arguments: [String]
    private let environment: [String: String]
    private var process: ServerProcess?
    /// Where the logs of every server process started are copied.
    let logDirectory: String
    private var started = 0

    /// A server given by URL: nothing to kill or restart.
    init(external url: URL, logDirectory: String) {
        endpoint = Endpoint(url)
        databaseURL = nil
        arguments = []
        environment = [:]
        self.logDirectory = logDirectory
    }

    private init(endpoint: Endpoint, databaseURL: String, arguments: [String], environment: [String: String],
                 process: ServerProcess, logDirectory: String) {
        self.endpoint = endpoint
        self.databaseURL = databaseURL
        self.arguments = arguments
        self.environment = environment
        self.process = process
        self.logDirectory = logDirectory
        started = 1
    }

    /// Starts `sessionstore-sync-server serve` on `databaseURL` with a free port.
    static func start(databaseURL: String, arguments: [String], jwtSecret: String, logDirectory: String) async throws -> ServerHost {
        let environment = ["SESSIONSTORE_SYNC_JWT_SECRET": jwtSecret]
        let process = try await ServerProcess.start(
            databaseURL: databaseURL, extraArguments: arguments, environment: environment)
        return ServerHost(endpoint: Endpoint(process.baseURL), databaseURL: databaseURL, arguments: arguments,
                          environment: environment, process: process, logDirectory: logDirectory)
    }

    var isLocal: Bool { process != nil }
    var processID: Int32? { process?.processID }

    /// `kill -9` of the server (if one runs), then a new process on the same
    /// database and port (another port when that one cannot be bound); returns
    /// the seconds from the kill to the new process listening.
    func killAndRestart() async throws -> Double {
        guard let databaseURL else { throw LoadError("the server was given by URL: nothing to kill") }
        let start = ContinuousClock.now
        if let process {
            process.killImmediately()
            keepLog(of: process)
            try? FileManager.default.removeItem(atPath: process.logPath)
            self.process = nil
        }
        let port = endpoint.port
        let next: ServerProcess
        do {
            next = try await ServerProcess.start(
                databaseURL: databaseURL, extraArguments: arguments + ["--port", "\(port)"], environment: environment)
        } catch {
            say("  (port \(port) could not be bound again: \(String(describing: error).prefix(200)); using a new port)")
            next = try await ServerProcess.start(
                databaseURL: databaseURL, extraArguments: arguments, environment: environment)
        }
        self.process = next
        started += 1
        endpoint.url = next.baseURL
        return elapsed(since: start)
    }

    /// Stops the server (SIGTERM), keeping its log.
    func stop() async {
        guard let process else { return }
        keepLog(of: process)
        await process.stop()
        self.process = nil
    }

    /// Lines of the logs kept so far that contain `text`.
    func logLines(containing text: String) -> [String] {
        var lines: [String] = []
        var files = (try? FileManager.default.contentsOfDirectory(atPath: logDirectory)) ?? []
        files.sort()
        for file in files where file.hasPrefix("server-") {
            let content = (try? String(contentsOfFile: logDirectory + "/" + file, encoding: .utf8)) ?? ""
            lines += content.split(separator: "\n").filter { $0.contains(text) }.map { "\(file): \($0)" }
        }
        return lines
    }

    private func keepLog(of process: ServerProcess) {
        let target = logDirectory + String(format: "/server-%03d.log", started)
        try? FileManager.default.removeItem(atPath: target)
        try? FileManager.default.copyItem(atPath: process.logPath, toPath: target)
    }
}
