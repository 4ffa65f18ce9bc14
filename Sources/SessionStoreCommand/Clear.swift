import ArgumentParser
import Foundation
import SessionModel
import SessionStorage

extension SessionStore {
    /// `sessionstore clear`: clears browsing data from the store, its WAL and its snapshots.
    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Clear browsing data: all of it, what was visited since a date, or one browser's.",
            discussion: """
                Deletes the history entries of open and recently closed tabs (a tab keeps its \
                surviving entries), with other devices' tabs and queued commands that show a \
                cleared page. Then folds the WAL into the file and truncates it, and deletes every \
                snapshot that holds a cleared page (whatever retention keeps) and takes a fresh one. \
                If another process's read keeps the WAL from being truncated past --busy-timeout, \
                clear says so and exits 75: the WAL holds the cleared data until that reader ends.
                """)

        @OptionGroup var options: StoreOptions

        @Flag(help: "Clear every history entry of every tab.")
        var all = false

        @Option(help: ArgumentHelp(
            "Clear what was visited at DATE or later: 2026-11-27 (midnight UTC), 2026-11-27T09:30:00Z or 2026-11-27 09:30:00 (UTC, as `show` prints times).",
            valueName: "date"))
        var since: String?

        @Option(help: ArgumentHelp(
            "Clear one open browser's tabs and the tabs it closed: its identifier or a unique prefix (see `sessionstore ls`).",
            valueName: "id"))
        var browser: String?

        func validate() throws {
            guard [all, since != nil, browser != nil].filter({ $0 }).count == 1 else {
                throw ValidationError("Give exactly one of --all, --since DATE and --browser ID.")
            }
            if let since, ClearingDate.parse(since) == nil {
                throw ValidationError(
                    "--since: '\(shown(since))' is not a date; give 2026-11-27, 2026-11-27T09:30:00Z or 2026-11-27 09:30:00.")
            }
        }

        func run() throws {
            let filter: BrowsingDataFilter
            let scope: String
            if let since, let date = ClearingDate.parse(since) {
                filter = .timeRange(date...Date.distantFuture)
                scope = "visited since \(SessionReport.time(date))"
            } else if let browser {
                // Resolved on a read-only connection: an unknown browser leaves the file untouched.
                let id = try options.reading { try IdentifierResolver(database: $0).browser(browser) }
                filter = .browser(id)
                scope = "of browser \(id.uuidString), open and closed tabs"
            } else {
                filter = .all
                scope = "(all browsing data)"
            }
            let database = try options.openForWriting(create: false)
            let clearing = try SQLiteNavigationHistoryRepository(database: database).clearingEverywhere(filter)
            try database.close()
            print("Cleared \(clearing.removed) history entr\(clearing.removed == 1 ? "y" : "ies") \(scope).")
            print(Self.snapshotLine(clearing, holding: "cleared pages"))
            guard clearing.walTruncated else {
                throw InputFailure(
                    message: "another process is reading the store: its WAL still holds the cleared data until that "
                        + "reader ends; run the same `sessionstore clear` again once it has, to fold the WAL in.",
                    status: ExitStatus.temporaryFailure)
            }
            print("The WAL was folded into the file and truncated; the freed pages were zeroed (secure_delete).")
        }

        /// What a deletion did to the snapshots, in one line.
        static func snapshotLine(_ clearing: StoreClearing, holding what: String) -> String {
            let removed = clearing.removedSnapshots
            guard !removed.isEmpty else { return "No snapshot held \(what); none was deleted." }
            let count = removed.count == 1 ? "1 snapshot" : "\(removed.count) snapshots"
            let fresh = clearing.freshSnapshot.map { "took snapshot \($0) of the store as it is now" }
                ?? "no fresh snapshot could be taken"
            return "Deleted \(count) that held \(what) (\(removed.joined(separator: ", "))); \(fresh)."
        }
    }
}

/// The dates `clear --since` takes.
enum ClearingDate {
    /// `text` as a date: an ISO 8601 date (midnight UTC) or date and time, or a
    /// date and time as `show` prints them (UTC); `nil` for anything else.
    static func parse(_ text: String) -> Date? {
        let iso = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withFullDate], [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
        ] {
            iso.formatOptions = options
            if let date = iso.date(from: text) { return date }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.isLenient = false
        let bare = text.hasSuffix("Z") ? String(text.dropLast()) : text
        for format in ["yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd'T'HH:mm"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: bare) { return date }
        }
        return nil
    }
}
