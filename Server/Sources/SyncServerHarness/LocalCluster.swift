import Foundation
import SyncServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `pg_ctl stop` command and the directory to remove at process exit
/// (set once, by ``LocalCluster/start()``, before `atexit` is registered).
nonisolated(unsafe) private var stopCommand: [String] = []
nonisolated(unsafe) private var clusterRoot = ""

/// A throwaway PostgreSQL cluster: `initdb` into a temporary directory and
/// `pg_ctl start` listening on a unix socket only (as user `postgres` when
/// the tests run as root).
public enum LocalCluster {
    public static let binDirectory = ProcessInfo.processInfo.environment["SESSIONSTORE_SYNC_TEST_PG_BIN"]
        ?? "/usr/lib/postgresql/15/bin"

    /// Starts the cluster and returns the URL of its `postgres` database.
    public static func start() throws -> DatabaseURL {
        let root = "/tmp/sss-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let data = "\(root)/data", sockets = "\(root)/sock"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        let asRoot = getuid() == 0
        if asRoot { try ChildProcess.run(["chown", "-R", "postgres:postgres", root]) }
        let prefix = asRoot ? ["runuser", "-u", "postgres", "--"] : []
        let port = Int.random(in: 20_000...60_000)
        try ChildProcess.run(prefix + ["\(binDirectory)/initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync"])
        try ChildProcess.run(prefix + [
            "\(binDirectory)/pg_ctl", "-D", data, "-l", "\(root)/postgres.log",
            "-o", "-k \(sockets) -p \(port) -c listen_addresses='' -c fsync=off -c max_connections=200",
            "-w", "start",
        ])
        stopCommand = prefix + ["\(binDirectory)/pg_ctl", "-D", data, "-m", "fast", "-w", "stop"]
        clusterRoot = root
        atexit {
            _ = try? ChildProcess.run(stopCommand)
            try? FileManager.default.removeItem(atPath: clusterRoot)
        }
        return try DatabaseURL("postgres://postgres@localhost:\(port)/postgres?host=\(sockets)")
    }

    /// The directory holding the data, sockets and log of the cluster that
    /// ``start()`` made in this process (`nil` before it).
    public static var rootDirectory: String? {
        clusterRoot.isEmpty ? nil : clusterRoot
    }
}
