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
                Uploads what changed since the last sync, sealed, then fetches what the other devices \
                uploaded into the store's remote tables (see `sessionstore remote`). With --watch, keeps \
                syncing: a second after each change, and at once when another device uploads.
                """)

        @OptionGroup var options: StoreOptions
        @OptionGroup var keyOptions: SyncKeyOptions

        @Option(help: ArgumentHelp(
            "The server's URL (default: $SESSIONSTORE_SYNC_SERVER, else the one last synced with).", valueName: "url"))
        var server: String?

        @Flag(help: "Keep syncing until interrupted.")
        var watch = false

        func run() throws {
            let database = try options.openForWriting(create: false)
            defer { try? database.close() }
            let storage = SyncStorage(database: database)
            let remembered = try storage.state().serverURL
            let given = server ?? ProcessInfo.processInfo.environment["SESSIONSTORE_SYNC_SERVER"] ?? remembered
            guard let given, let url = URL(string: given), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError("--server needs an http or https URL (no server was synced with before).")
            }
            let client = try SyncClient(storage: storage, keyStore: keyOptions.keyFile(storePath: options.path), serverURL: url)
            if watch {
                print("syncing with \(url.absoluteString); interrupt to stop")
                fflush(nil)
                try waitingFor { await client.run() }
                return
            }
            let report = try waitingFor { try await client.sync() }
            print("uploaded \(report.uploaded) records (\(report.uploadedBytes) bytes sealed)")
            print("received \(report.applied) records, \(report.removed) removed, cursor \(report.cursor)")
            if !report.rejected.isEmpty {
                FileHandle.standardError.write(Data(
                    "sessionstore: \(report.rejected.count) records did not open (tampered, or sealed with other keys) and were skipped: \(report.rejected.prefix(5).joined(separator: ", "))\n".utf8))
            }
        }
    }
}
