import Foundation
import ArgumentParser
import Logging

/// `sessionstore-sync-server`: the root command.
public struct SyncServerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sessionstore-sync-server",
        abstract: "The SessionStore sync server (see docs/sync-protocol.md).",
        subcommands: [ServeCommand.self, MigrateCommand.self, SweepCommand.self])

    public init() {}

    /// Parses the process's arguments and runs the chosen subcommand.
    public static func runFromCommandLine() async {
        await main()
    }

    /// Sends logs to standard error (standard output carries only the
    /// `listening on` line); the level comes from `LOG_LEVEL` (default `info`).
    static func makeLogger() -> Logger {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "sessionstore-sync-server")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
        return logger
    }
}
