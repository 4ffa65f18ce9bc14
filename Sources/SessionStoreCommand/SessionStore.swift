import ArgumentParser
import Foundation
import SessionModel
import SessionStorage
import SessionSync

/// The `sessionstore` command: inspects, checks and migrates a session store file.
public struct SessionStore: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sessionstore",
        abstract: "Inspect, check and migrate a browser session store (a SQLite file).",
        discussion: """
            The store is the file given by --db, else $SESSIONSTORE_DB, else \
            sessionstore.sqlite in the current directory.

            Exit codes:
              0   success
              1   check found problems
              64  usage error (a bad flag or value, a path too long)
              65  not a session store, corrupt, or malformed input
              66  the database file does not exist
              70  a migration or SQLite operation failed unexpectedly
              73  the file or its directory cannot be written, or a file to create exists
              74  writing the output failed, or the disk is full
              75  the database is locked by another process beyond the busy timeout, or (clear)
                  another process's read kept the WAL from being truncated
              78  the database is newer than this tool
            """,
        version: SessionStoreRelease.version,
        subcommands: [
            Migrate.self, Status.self, Check.self, Ls.self, Show.self, Closed.self, Restore.self, Prune.self, Clear.self,
            Search.self, Export.self, Import.self, Demo.self, Watch.self, Snapshots.self, Snapshot.self, RestoreSnapshot.self, Recover.self,
            Pair.self, Sync.self, Devices.self, Remote.self, Send.self, CloseRemote.self, Revoke.self, DeleteAccount.self,
            Host.self, InstallHost.self, UninstallHost.self, Open.self, SavedGroups.self,
        ]
    )

    public init() {}

    /// Parses the arguments, runs the subcommand, and exits with the status
    /// ``ExitStatus`` gives its outcome: one line on stderr, no trace.
    public static func main(_ arguments: [String]?) {
        refuseUnknownSubcommand(arguments ?? Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            // What `print` buffered must reach stdout: a full disk or a closed pipe is a failure.
            if fflush(nil) != 0 {
                ExitStatus.fail(
                    message: "standard output: writing failed (\(String(cString: strerror(errno)))).",
                    status: ExitStatus.ioError)
            }
        } catch let failure as InputFailure {
            ExitStatus.fail(message: failure.message, status: failure.status)
        } catch let error as StorageError {
            ExitStatus.fail(error)
        } catch let error as SyncError {
            ExitStatus.fail(message: error.errorDescription ?? "\(error)", status: ExitStatus.code(for: error))
        } catch let failure as ImportFailure {
            ExitStatus.fail(message: failure.description, status: ExitStatus.dataError)
        } catch let error as WebStateListError {
            // A change refused by the tab-list rules: from this command, only a store edited by hand does that.
            ExitStatus.fail(
                message: "the store's tab list refused the change: \(error) If the file was edited by hand, "
                    + "`sessionstore check` says where.",
                status: ExitStatus.dataError)
        } catch {
            exit(withError: error)
        }
    }

    /// A first argument that is neither an option nor a subcommand is an unknown
    /// subcommand: say so (the parser would blame the first option after it,
    /// "Unknown option '--db'").
    static func refuseUnknownSubcommand(_ arguments: [String]) {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help" else { return }
        let names = configuration.subcommands.map { $0._commandName }
        guard !names.contains(first) else { return }
        ExitStatus.fail(
            message: "unknown subcommand '\(first)'; `sessionstore --help` lists them (\(names.joined(separator: ", "))).",
            status: ExitStatus.usage)
    }

    /// Runs with the process's own arguments.
    ///
    /// An argument that is not UTF-8 (a path made of other bytes) is refused: Swift
    /// would replace its bytes with U+FFFD and the command would act on another file.
    public static func main() {
        for index in 1..<max(1, Int(CommandLine.argc)) {
            guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
            ExitStatus.fail(
                message: "argument \(index) is not UTF-8 text; this tool takes paths and values in UTF-8 only.",
                status: ExitStatus.usage)
        }
        main(nil)
    }
}
