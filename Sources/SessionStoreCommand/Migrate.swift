import ArgumentParser
import Foundation
import SessionStorage

extension SessionStore {
    /// `sessionstore migrate`: applies pending migrations, creating the file if needed.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply pending schema migrations, creating the store if it does not exist.",
            discussion: """
                Before migrating a non-empty store, a backup copy is written next to it \
                and its path printed. Running migrate again when nothing is pending is harmless.
                """)

        @OptionGroup var options: StoreOptions

        @Flag(help: "List the pending migrations; create and change nothing.")
        var dryRun = false

        @Flag(help: "Do not write a backup copy before migrating.")
        var noBackup = false

        func run() throws {
            var configuration = options.configuration
            configuration.backupBeforeMigrating = !noBackup
            let path = options.path
            let report = try SessionStoreFile.migrate(atPath: path, configuration: configuration, dryRun: dryRun)
            if let backup = report.backupPath {
                print("Backup written to \(backup)")
            }
            if report.migrations.isEmpty {
                print("\(path): up to date; nothing to apply.")
                return
            }
            if dryRun {
                print("\(path): \(report.created ? "would be created; " : "")\(report.migrations.count) migration(s) pending:")
            } else {
                print("\(path): \(report.created ? "created; " : "")applied \(report.migrations.count) migration(s):")
            }
            for identifier in report.migrations {
                print("  \(identifier)")
            }
        }
    }
}
