import ArgumentParser
import Foundation
import SessionModel
import SessionStorage

extension SessionStore {
    /// `sessionstore demo`: fills the store with a realistic session through the library.
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fill the store with a realistic session, then print the `ls` tree.",
            discussion: """
                Creates browsers with pinned tabs, tab groups, tabs opened from others, \
                navigation histories and a recently closed tab, all through the library, \
                and browses in an off-the-record browser that leaves no trace in the file. \
                In an empty store, the same --seed gives the same tabs and histories; \
                in a store that already holds a session, the demo adds one with new identifiers. \
                After the tree it names the closed tab (and the command that restores it), the \
                off-the-record window, and what to try next.
                """)

        @OptionGroup var options: StoreOptions

        @Option(help: "How many browsers (windows) to create.")
        var browsers = 2

        @Option(help: "How many tabs per browser.")
        var tabs = 6

        @Option(help: "How many history entries per tab.")
        var history = 4

        @Option(help: "The random seed.")
        var seed: UInt64 = 1

        func validate() throws {
            guard (1...1_000).contains(browsers) else { throw ValidationError("--browsers must be from 1 to 1000.") }
            guard (1...100_000).contains(tabs) else { throw ValidationError("--tabs must be from 1 to 100000.") }
            guard (1...NavigationLimits.defaultMaximumEntries).contains(history) else {
                throw ValidationError("--history must be from 1 to \(NavigationLimits.defaultMaximumEntries).")
            }
        }

        func run() throws {
            let database = try options.openForWriting(create: true)
            // The seed alone names the tabs of a session made in an empty store. A store
            // that already holds one gets a session of new identifiers, so running the
            // demo again adds to it instead of colliding with the tabs it made before.
            let isEmpty = try SQLiteBrowserRepository(database: database).browsers().isEmpty
                && SQLiteRecentlyClosedRepository(database: database).entries().isEmpty
            var generator = DemoSession(seed: isEmpty ? seed : seed ^ UInt64.random(in: 1 ... .max), historyLength: history)
            let progress = Progress(total: browsers * tabs)
            for _ in 0..<browsers {
                try generator.fillBrowser(in: database, tabCount: tabs, progress: progress)
            }
            let closed = try generator.closeOneTab(in: database)
            let privatePage = try generator.browseOffTheRecord()
            progress.finish()
            print(try SessionReport(database: database, includeClosed: false).text(ids: ShortIDs(database: database)))
            try database.close()
            print(Self.epilogue(closed: closed, privatePage: privatePage, path: options.path))
        }

        /// What the demo made besides the tree, and what to try next.
        static func epilogue(closed: RecentlyClosedEntry?, privatePage: String, path: String) -> String {
            let quoted = path.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._/-".contains($0)) }
                ? path : "'" + shown(path).replacingOccurrences(of: "'", with: "'\\''") + "'"
            let db = path == "sessionstore.sqlite" ? "" : " --db \(quoted)"
            var lines: [String] = [""]
            if let closed, let tab = closed.tabs.first {
                let title = tab.page.map { $0.title.isEmpty ? $0.url : "\(String(reflecting: $0.title)) (\($0.url))" } ?? "an empty tab"
                lines.append("closed: \(title), restorable with `sessionstore restore \(ShortID.short(closed.id.uuidString, length: 8))\(db)`")
            }
            lines.append("off the record: a window that visited \(privatePage), kept in memory only: nothing of it is in \(shown(path))")
            lines.append("next: `sessionstore ls --all\(db)` (the closed tab too), `sessionstore watch\(db)` (then change the store "
                + "from another terminal), `sessionstore search WORD\(db)`, `sessionstore check\(db)`")
            return lines.joined(separator: "\n")
        }
    }
}

/// Prints progress on stderr when stderr is a terminal, and nothing otherwise.
final class Progress {
    private let total: Int
    private var done = 0
    private let enabled = isatty(STDERR_FILENO) == 1
    private var lastPrinted = Date.distantPast

    init(total: Int) {
        self.total = total
    }

    func advance(by count: Int = 1) {
        done += count
        guard enabled, Date().timeIntervalSince(lastPrinted) > 0.1 || done == total else { return }
        lastPrinted = Date()
        StandardError.write("\r\(done)/\(total) tabs")
    }

    func finish() {
        if enabled { StandardError.write("\r\u{1B}[K") }
    }
}
