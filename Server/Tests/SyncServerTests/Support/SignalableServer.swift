import Foundation
import SyncServerHarness

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server process the test owns by pid, to send it signals and read how it
/// exited (``ServerProcess`` keeps its pid to itself).
final class SignalableServer: Sendable {
    let baseURL: URL
    let logPath: String
    let pid: pid_t

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    private init(baseURL: URL, logPath: String, pid: pid_t) {
        self.baseURL = baseURL
        self.logPath = logPath
        self.pid = pid
    }

    /// Starts `serve --port 0` on `databaseURL` and waits for its `listening on` line.
    static func start(databaseURL: String, arguments: [String] = []) async throws -> SignalableServer {
        let base = NSTemporaryDirectory() + "signalable-\(UUID().uuidString)"
        let outPath = base + ".out", logPath = base + ".log"
        var environment = ProcessInfo.processInfo.environment
        environment["SESSIONSTORE_SYNC_JWT_SECRET"] = nil
        let pid = try ChildProcess.spawn(
            [try ServerProcess.executableURL().path, "serve", "--database-url", databaseURL, "--port", "0"] + arguments,
            environment: environment, stdoutPath: outPath, stderrPath: logPath)
        defer { try? FileManager.default.removeItem(atPath: outPath) }
        var address: String?
        do {
            try await eventually("the server's listening line", timeout: .seconds(120)) {
                if let status = ChildProcess.poll(pid) {
                    throw StartFailure(description: "the server exited \(status) before listening")
                }
                let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
                address = output.split(separator: "\n").first { $0.hasPrefix("listening on ") }
                    .map { String($0.dropFirst("listening on ".count)) }
                return address != nil
            }
        } catch {
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
            throw error
        }
        guard let address, let url = URL(string: "http://\(address)") else {
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
            throw StartFailure(description: "no address")
        }
        return SignalableServer(baseURL: url, logPath: logPath, pid: pid)
    }

    /// Sends `signal` to the process.
    func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the process to exit and returns its status (128 + signal
    /// when killed); after `timeout` it is killed and ``TimedOut`` thrown.
    func exitStatus(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = ChildProcess.poll(pid) { return status }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                _ = ChildProcess.wait(pid)
                throw TimedOut(what: "the server to exit")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Kills the process if it still runs, and removes its log.
    func cleanUp() {
        if ChildProcess.poll(pid) == nil {
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
        }
        try? FileManager.default.removeItem(atPath: logPath)
    }
}

extension SignalableServer {
    /// Runs `body` with a fresh database and a server on it, holding one of the
    /// ``ServerSlots``; afterwards kills the server if it still runs and drops
    /// the database.
    static func with(arguments: [String] = [], _ body: (SignalableServer) async throws -> Void) async throws {
        try await withServerSlot {
            let databaseURL = try await TestPostgres.shared.createDatabase()
            let server: SignalableServer
            do {
                server = try await start(databaseURL: databaseURL, arguments: arguments)
            } catch {
                try? await TestPostgres.shared.dropDatabase(databaseURL)
                throw error
            }
            let result: Result<Void, any Error>
            do {
                try await body(server)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            server.cleanUp()
            try? await TestPostgres.shared.dropDatabase(databaseURL)
            try result.get()
        }
    }
}
