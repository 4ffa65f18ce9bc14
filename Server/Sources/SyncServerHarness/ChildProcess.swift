import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Child processes through `posix_spawnp` and `waitpid` (Foundation's
/// `Process` can miss the exit of a child whose own child daemonizes, as
/// `pg_ctl start` does).
public enum ChildProcess {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        /// A failure described by `description`.
        public init(description: String) {
            self.description = description
        }
    }

    /// Spawns `arguments` (the first looked up in `PATH`) with standard input
    /// from `stdinPath`, standard output to `stdoutFD` (or `stdoutPath`) and
    /// standard error to `stderrPath`; returns the child's pid.
    public static func spawn(
        _ arguments: [String], environment: [String: String]? = nil, stdinPath: String = "/dev/null",
        stdoutPath: String? = nil, stdoutFD: Int32? = nil, closeInChild: [Int32] = [], stderrPath: String
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        if let stdoutFD {
            posix_spawn_file_actions_adddup2(&actions, stdoutFD, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        for fd in closeInChild { posix_spawn_file_actions_addclose(&actions, fd) }

        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard result == 0 else {
            throw Failure(description: "cannot run \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Blocks until `pid` exits; returns its exit status (128 + signal when killed).
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return exitCode(status)
    }

    /// The exit status if `pid` has exited, else `nil`.
    public static func poll(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        return result == pid ? exitCode(status) : (result == -1 ? -1 : nil)
    }

    private static func exitCode(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Runs a short helper command to completion; throws with its output when it fails.
    @discardableResult
    public static func run(_ arguments: [String], input: Data? = nil) throws -> String {
        let outputPath = NSTemporaryDirectory() + "child-\(UUID().uuidString).out"
        let inputPath = NSTemporaryDirectory() + "child-\(UUID().uuidString).in"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: inputPath)
        }
        if let input { try input.write(to: URL(fileURLWithPath: inputPath)) }
        let pid = try spawn(arguments, stdinPath: input == nil ? "/dev/null" : inputPath,
                            stdoutPath: outputPath, stderrPath: outputPath)
        let status = wait(pid)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) exited \(status): \(output)")
        }
        return output
    }
}
