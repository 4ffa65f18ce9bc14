import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `sessionstore-sync-server serve --port 0` process.
public final class ServerProcess: Sendable {
    /// Where the server answers, e.g. `http://127.0.0.1:40123`.
    public let baseURL: URL
    /// The server's standard error (its log).
    public let logPath: String
    private let pid: pid_t

    struct StartupFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the server on `databaseURL` and waits for its `listening on` line.
    public static func start(
        databaseURL: String, extraArguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        var env = ProcessInfo.processInfo.environment
        env["SESSIONSTORE_SYNC_JWT_SECRET"] = nil
        env.merge(environment) { _, new in new }
        let logPath = NSTemporaryDirectory() + "sync-server-\(UUID().uuidString).log"
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw StartupFailure(description: "pipe failed") }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(
                [try executableURL().path, "serve", "--database-url", databaseURL, "--port", "0"] + extraArguments,
                environment: env, stdoutFD: writeEnd, closeInChild: [readEnd, writeEnd], stderrPath: logPath)
        } catch {
            close(writeEnd)
            throw error
        }
        close(writeEnd)
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)

        do {
            let line = try await readLine(from: readEnd, prefix: "listening on ", timeout: .seconds(120))
            let address = String(line.dropFirst("listening on ".count))
            guard let url = URL(string: "http://\(address)") else {
                throw StartupFailure(description: "unexpected line \(line)")
            }
            return ServerProcess(pid: pid, baseURL: url, logPath: logPath)
        } catch {
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            throw StartupFailure(description: "server did not start: \(error)\n\(log)")
        }
    }

    private init(pid: pid_t, baseURL: URL, logPath: String) {
        self.pid = pid
        self.baseURL = baseURL
        self.logPath = logPath
    }

    /// Sends SIGTERM, waits up to 10 s for the process to end (then SIGKILL).
    public func stop() async {
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(10)
        while ChildProcess.poll(pid) == nil {
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                _ = ChildProcess.wait(pid)
                break
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// The server's process id.
    public var processID: pid_t { pid }

    /// Kills the process with SIGKILL, with no chance to shut down, and reaps
    /// it; its log is kept.
    public func killImmediately() {
        kill(pid, SIGKILL)
        _ = ChildProcess.wait(pid)
    }

    /// Polls the non-blocking `fd` until a line starting with `prefix` arrives.
    private static func readLine(from fd: Int32, prefix: String, timeout: Duration) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                if let line = lines.dropLast().first(where: { $0.hasPrefix(prefix) }) { return String(line) }
                continue
            }
            if count == 0 { throw StartupFailure(description: "the server closed its standard output") }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw StartupFailure(description: "read failed: \(errno)")
            }
            guard ContinuousClock.now < deadline else { throw StartupFailure(description: "timed out") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The executable: `SESSIONSTORE_SYNC_SERVER_BIN`, else beside the test
    /// bundle in the build products directory.
    public static func executableURL() throws -> URL {
        let name = "sessionstore-sync-server"
        if let path = ProcessInfo.processInfo.environment["SESSIONSTORE_SYNC_SERVER_BIN"] {
            return URL(fileURLWithPath: path)
        }
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL {
            var directory = executable.deletingLastPathComponent()
            // On Apple platforms the test bundle's executable sits in *.xctest/Contents/MacOS.
            for _ in 0..<4 {
                candidates.append(directory.appendingPathComponent(name))
                directory = directory.deletingLastPathComponent()
            }
        }
        candidates.append(URL(fileURLWithPath: ".build/debug/\(name)"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw StartupFailure(description: "cannot find \(name); looked at \(candidates.map(\.path))")
    }
}
