import ArgumentParser
import Logging

/// `sessionstore-sync-server sweep`: one sweep, then exit (for cron, and tests).
struct SweepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Tombstone gone devices' records, prune old tombstones, delete expired rows; then exit.")

    @OptionGroup var database: DatabaseOption
    @OptionGroup(title: "Quotas") var quotas: LimitOptions

    func run() async throws {
        let logger = SyncServerCommand.makeLogger()
        let report = try await SyncServerApp.sweep(try database.url(), limits: quotas.limits, logger: logger)
        StandardOutput.writeLine("swept: \(report)")
    }
}
