import ArgumentParser
import Foundation
import SessionStorage

extension SessionStore {
    /// `sessionstore status`: what the file is and holds; changes nothing.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the store's file, schema version, migrations and row counts.")

        @OptionGroup var options: StoreOptions

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            let status = try SessionStoreFile.status(atPath: options.path, configuration: options.configuration)
            if json {
                try JSONOutput.print(status)
                return
            }
            print("file:            \(status.path)")
            print("size:            \(status.sizeBytes) bytes")
            print("application id:  \(status.applicationID)")
            print("journal mode:    \(status.journalMode)")
            print("schema version:  \(status.schemaVersion ?? "none")")
            print("applied:         \(status.applied.isEmpty ? "none" : status.applied.joined(separator: ", "))")
            print("pending:         \(status.pending.isEmpty ? "none" : status.pending.joined(separator: ", "))")
            // The oldest schema a binary must know to write this store: older ones may still use it.
            print("compatible from: \(status.oldestCompatibleVersion ?? "none")")
            if !status.newer.isEmpty {
                let access = status.writable ? "reads and writes it" : "may only read it"
                print("newer:           \(status.newer.joined(separator: ", ")) (unknown to this binary, which \(access))")
            }
            if let counts = status.counts {
                print("browsers:        \(counts.browsers)")
                print("tabs:            \(counts.tabs)")
                print("groups:          \(counts.groups)")
                print("history entries: \(counts.navigationEntries)")
                print("closed entries:  \(counts.closedEntries)")
            }
        }
    }
}
