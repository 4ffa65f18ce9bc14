import ArgumentParser
import Foundation
import SessionStorage
import SessionSync

extension SessionStore {
    /// `sessionstore sync`: uploads this device's changes and fetches the other devices'.
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sync the store with the account's other devices through a sync server.",
            discussion: """
                Uploads what changed since the last sync, sealed, and sends queued commands; then fetches \
                what the other devices uploaded into the store's remote tables (see `sessionstore remote`) \
                and applies the tabs they sent or closed here. With --watch, keeps syncing: at once after \
                a change (a burst's changes coalesced into a few uploads a second), and at once when another \
                device uploads or sends a command. Records that do not open, older versions the server \
                replays, and deletions nothing authenticates are not applied: stderr names them and the \
                command exits 76 once the rest is synced.
                """)

        @OptionGroup var options: StoreOptions
        @OptionGroup var connection: SyncConnectionOptions

        @Flag(help: "Keep syncing until interrupted.")
        var watch = false

        func run() throws {
            let database = try options.openForWriting(create: false)
            defer { try? database.close() }
            let client = try connection.client(database: database, path: options.path)
            if watch {
                print("syncing with \(client.serverURL.absoluteString); interrupt to stop")
                fflush(nil)
                try waitingFor { await client.run() }
                // It returns only when the account is gone from the server.
                if let error = try waitingFor({ await client.status.lastError }) { throw error }
                return
            }
            let report = try waitingFor { try await client.sync() }
            print("uploaded \(report.uploaded) records (\(report.uploadedBytes) bytes sealed)")
            print("received \(report.applied) records, \(report.removed) removed, cursor \(report.cursor)")
            if report.commandsSent + report.commandsApplied > 0 {
                print("sent \(report.commandsSent) commands, applied \(report.commandsApplied)")
            }
            if !report.rejected.isEmpty {
                StandardError.write(
                    "sessionstore: \(report.rejected.count) records did not open (tampered, or sealed with other keys) and were skipped: \(report.rejected.prefix(5).joined(separator: ", "))\n")
            }
            if !report.replayed.isEmpty {
                StandardError.write(
                    "sessionstore: \(report.replayed.count) records were older than versions already seen (replayed by the server) and were ignored: \(report.replayed.prefix(5).joined(separator: ", "))\n")
            }
            if !report.forgedDeletions.isEmpty {
                StandardError.write(
                    "sessionstore: \(report.forgedDeletions.count) deletions were not authenticated (not sealed by their device, no signed revocation) and were not applied; the tabs are kept: \(report.forgedDeletions.prefix(5).joined(separator: ", "))\n")
            }
            // Everything else was synced; the status says the server cannot be trusted.
            if report.foundTampering { throw ExitCode(ExitStatus.protocolError) }
        }
    }
}
