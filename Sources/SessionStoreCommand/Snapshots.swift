import ArgumentParser
import Foundation
import SessionStorage

extension SessionStore {
    /// `sessionstore snapshots`: the store's snapshots, newest first; changes nothing.
    struct Snapshots: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the store's snapshots, newest first.",
            discussion: """
                A store opened for writing snapshots itself at most once an hour while it is written \
                (VACUUM INTO, mode 0600), in the folder FILE.snapshots beside it, keeping the last 3 \
                plus one a day for 7 days. The newest snapshot that held tabs stays, whatever its age, \
                while every newer one holds less than half of its tabs: it is marked "kept: last good \
                session" until a newer one of similar size replaces it (delete its file to let it go). \
                A snapshot of another store that was at this path before is marked "foreign": never \
                counted or deleted by rotation, and restored only with `restore-snapshot --foreign`. `clear` and \
                `prune` delete every snapshot that holds what they removed, the kept one included, and \
                take a fresh one.
                """)

        @OptionGroup var options: StoreOptions

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            try options.openReadOnly().close()
            let snapshots = try SessionStoreFile.snapshots(atPath: options.path, configuration: options.configuration)
            if json {
                try JSONOutput.print(snapshots)
                return
            }
            if snapshots.isEmpty {
                print("\(options.path): no snapshots.")
                return
            }
            let formatter = ISO8601DateFormatter()
            for snapshot in snapshots {
                var line = "\(snapshot.name)  \(formatter.string(from: snapshot.takenAt))  \(snapshot.sizeBytes) bytes"
                if let tabs = snapshot.tabCount { line += "  \(tabs) tab\(tabs == 1 ? "" : "s")" }
                if snapshot.isKeptAsLastGood { line += "  kept: last good session" }
                if snapshot.isForeign { line += "  foreign: another store's" }
                print(line)
            }
        }
    }

    /// `sessionstore snapshot`: takes a snapshot now.
    struct Snapshot: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a snapshot of the store now.")

        @OptionGroup var options: StoreOptions

        func run() throws {
            let database = try options.openForWriting(create: false)
            let snapshot = try database.takeSnapshot()
            try database.close()
            print("Took snapshot \(snapshot?.name ?? "-").")
        }
    }

    /// `sessionstore restore-snapshot NAME`: snapshots the current store, then restores NAME into it.
    struct RestoreSnapshot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore-snapshot",
            abstract: "Put a snapshot's content back into the store (see `sessionstore snapshots`).",
            discussion: """
                First takes a snapshot of the current content, so the restore can be undone, then \
                copies the chosen snapshot into the open file with SQLite's backup API: apps that \
                have the store open see the restored content. A snapshot of another store that was \
                at this path before is refused (exit 65) unless --foreign is given.
                """)

        @OptionGroup var options: StoreOptions

        @Argument(help: ArgumentHelp(
            "The snapshot's name, or a unique beginning of it, as `sessionstore snapshots` prints it.", valueName: "name"))
        var name: String

        @Flag(help: "Restore a snapshot of another store that was at this path before (shown foreign by `snapshots`).")
        var foreign = false

        func validate() throws {
            try PathArgument.validate(name, as: "the snapshot name")
        }

        func run() throws {
            // Refuse an unknown name before opening for writing: the file stays untouched.
            try options.openReadOnly().close()
            let known = try SessionStoreFile.snapshots(atPath: options.path, configuration: options.configuration)
            let snapshot = try Self.snapshot(named: name, among: known)
            // A snapshot that cannot be restored is refused before the store is opened for writing.
            try SessionStoreFile.checkRestorable(snapshot, configuration: options.configuration)
            if snapshot.isForeign, !foreign { throw StorageError.foreignSnapshot(snapshot.name) }
            let database = try options.openForWriting(create: false)
            try database.restoreSnapshot(named: snapshot.name, allowingForeign: foreign)
            let undo = try database.snapshots().first?.name ?? "-"
            try database.close()
            print("Restored snapshot \(snapshot.name); the content before it is snapshot \(undo).")
        }

        /// The snapshot `typed` names: its whole name, or the beginning of exactly one.
        static func snapshot(named typed: String, among known: [StoreSnapshot]) throws -> StoreSnapshot {
            if let exact = known.first(where: { $0.name == typed }) { return exact }
            let matching = known.filter { $0.name.hasPrefix(typed) }
            guard matching.count <= 1 else {
                throw InputFailure(
                    message: "'\(shown(typed))' is ambiguous: \(matching.count) snapshots begin with it: "
                        + matching.map(\.name).joined(separator: ", ") + "; give more of the name.",
                    status: ExitStatus.usage)
            }
            guard let snapshot = matching.first else { throw StorageError.unknownSnapshot(typed) }
            return snapshot
        }
    }
}
