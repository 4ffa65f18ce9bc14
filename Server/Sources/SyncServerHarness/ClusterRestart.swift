import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Crashing and restarting the cluster of ``LocalCluster/start()``, for fault tests.
extension LocalCluster {
    struct NotStarted: Error, CustomStringConvertible {
        var description: String { "LocalCluster.start() was not called in this process" }
    }

    /// `pg_ctl stop -m immediate`: every PostgreSQL process quits at once,
    /// without a checkpoint, as in a crash; the next start runs recovery.
    public static func stopImmediately() throws {
        guard let root = rootDirectory else { throw NotStarted() }
        try ChildProcess.run(runAsOwner + ["\(binDirectory)/pg_ctl", "-D", "\(root)/data", "-m", "immediate", "-w", "stop"])
    }

    /// Starts the cluster again after ``stopImmediately()`` with the options of
    /// its first start (read from `postmaster.opts`, as `pg_ctl restart` does),
    /// and waits until it accepts connections.
    public static func startAgain() throws {
        guard let root = rootDirectory else { throw NotStarted() }
        let data = "\(root)/data"
        let options = try String(contentsOfFile: "\(data)/postmaster.opts", encoding: .utf8)
        try ChildProcess.run(runAsOwner + [
            "\(binDirectory)/pg_ctl", "-D", data, "-l", "\(root)/postgres.log",
            "-o", serverOptions(fromPostmasterOpts: options), "-w", "start",
        ])
    }

    /// The arguments of `postmaster.opts` (`/path/postgres "-D" "dir" "-p" "5432" …`)
    /// after the executable, less `-D` and its value, single-quoted for the shell
    /// `pg_ctl` runs them through.
    static func serverOptions(fromPostmasterOpts text: String) -> String {
        var arguments: [String] = []
        var current: String?
        for character in text {
            if character == "\"" {
                if let value = current {
                    arguments.append(value)
                    current = nil
                } else {
                    current = ""
                }
            } else if current != nil {
                current?.append(character)
            }
        }
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            if arguments[index] == "-D" {
                index += 2
                continue
            }
            kept.append(arguments[index])
            index += 1
        }
        return kept.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    }

    /// `runuser -u postgres --` when this process runs as root (PostgreSQL refuses root).
    private static var runAsOwner: [String] {
        getuid() == 0 ? ["runuser", "-u", "postgres", "--"] : []
    }
}
