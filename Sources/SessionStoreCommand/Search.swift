import ArgumentParser
import Foundation
import SessionModel
import SessionStorage

extension SessionStore {
    /// `sessionstore search QUERY`: open tabs (and with `--closed`, recently closed
    /// ones) whose current page's title or URL matches; changes nothing.
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find tabs by the words of their current page's title and URL, best match first.",
            discussion: """
                Each word must start a word of the title or URL, case and accents ignored: \
                'git doc' finds "GitHub Docs", 'exam' finds https://example.com. Open tabs print as \
                BROWSER:INDEX, closed ones as closed:ENTRY (see `sessionstore restore`). Exits 1 when \
                nothing matches.
                """)

        @OptionGroup var options: StoreOptions

        @Argument(help: ArgumentHelp("Words to find.", valueName: "query"))
        var query: [String]

        @Flag(help: "Search recently closed tabs, groups and windows too.")
        var closed = false

        @Option(help: ArgumentHelp("The most matches printed (1...10000).", valueName: "n"))
        var limit = 50

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func validate() throws {
            guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 10000.") }
            guard query.contains(where: { $0.contains { $0.isLetter || $0.isNumber } }) else {
                throw ValidationError("the query has no word to search for.")
            }
        }

        func run() throws {
            let matches = try options.reading {
                try SQLiteTabSearchRepository(database: $0).searchTabs(
                    query.joined(separator: " "), includingClosed: closed, limit: limit)
            }
            if json {
                try JSONOutput.print(matches.map(Match.init))
            } else {
                for match in matches {
                    let place = match.browser.map { "\($0.uuidString.prefix(8)):\(match.index ?? 0)" }
                        ?? "closed:\(match.closedEntry?.uuidString.prefix(8) ?? "?")"
                    let title = match.title.isEmpty ? "(untitled)" : match.title
                    print("\(place)\t\(shown(title))\t\(shown(match.url))")
                }
            }
            if matches.isEmpty { throw ExitCode(1) }
        }

        /// One match as `--json` prints it.
        struct Match: Encodable {
            var tab: String
            var browser: String?
            var index: Int?
            var closedEntry: String?
            var title: String
            var url: String
            var rank: Double

            init(_ match: TabSearchMatch) {
                tab = match.tab.uuidString
                browser = match.browser?.uuidString
                index = match.index
                closedEntry = match.closedEntry?.uuidString
                title = match.title
                url = match.url
                rank = match.rank
            }
        }
    }
}
