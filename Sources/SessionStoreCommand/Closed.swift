import ArgumentParser
import Foundation
import SessionModel
import SessionStorage

extension SessionStore {
    /// `sessionstore closed`: recently closed entries, most recent first; changes nothing.
    struct Closed: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List recently closed tabs, groups and windows, most recent first.")

        @OptionGroup var options: StoreOptions

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            let (entries, ids) = try options.reading {
                (try SQLiteRecentlyClosedRepository(database: $0).entries(), try ShortIDs(database: $0))
            }
            let closed = entries.map(SessionReport.closed(_:))
            if json {
                try JSONOutput.print(closed)
                return
            }
            print(SessionReport.closedLines(closed, ids: ids).joined(separator: "\n"))
        }
    }

    /// `sessionstore restore ID`: brings a recently closed entry back.
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Restore a recently closed tab, group or window (see `sessionstore closed`).")

        @OptionGroup var options: StoreOptions

        @Argument(help: ArgumentHelp(
            "The closed entry: its identifier or a unique prefix of it, as `sessionstore closed` prints it (or `closed:ENTRY`, as `search` does).",
            valueName: "entry"))
        var id: String

        func run() throws {
            // Resolve and refuse an unknown entry on a read-only connection: the file stays untouched.
            let entry = try options.reading { try IdentifierResolver(database: $0).closedEntry(id) }
            let database = try options.openForWriting(create: false)
            let browser = try SQLiteRecentlyClosedRepository(database: database).restore(entry)
            try database.close()
            print("Restored \(entry.uuidString) into browser \(browser).")
        }
    }

    /// `sessionstore prune`: drops expired closed entries and compacts the file.
    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Drop expired recently closed entries and compact the file (VACUUM).",
            discussion: """
                The entries are dropped beside another process's read transaction too; the file \
                is then compacted only if no other process is reading it, and prune says when it \
                skipped that. Every snapshot that holds a pruned tab is deleted, whatever retention \
                keeps, and a fresh one is taken.
                """)

        @OptionGroup var options: StoreOptions

        func run() throws {
            let database = try options.openForWriting(create: false)
            let pruning = try SQLiteRecentlyClosedRepository(database: database).pruningEverywhere()
            let removed = pruning.removed
            let compaction = try database.compactUnlessRead()
            try database.close()
            let entries = "Removed \(removed) expired closed entr\(removed == 1 ? "y" : "ies")"
            switch compaction {
            case .skippedWhileInUse:
                print("\(entries); compaction skipped: another process is reading the store "
                    + "(or writing it); run prune again once it is done to reclaim the space.")
            case .compactedInWAL(let before, let after):
                print("\(entries); compacted, but another process began reading: the file shrinks "
                    + "at a later checkpoint (\(before) -> \(after) bytes with the WAL for now).")
            case .compacted(let before, let after):
                print("\(entries); reclaimed \(max(0, before - after)) bytes (\(before) -> \(after)).")
            case nil:
                print("\(entries); reclaimed 0 bytes (0 -> 0).")
            }
            if removed > 0 { print(Clear.snapshotLine(pruning, holding: "a pruned tab")) }
        }
    }
}
