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
                'git doc' finds "GitHub Docs", 'exam' finds https://example.com. Each match prints as \
                TAB, PLACE, title and URL, tab-separated: TAB is the tab's short identifier (for \
                `sessionstore show`); PLACE is BROWSER:INDEX for an open tab (also for `show`; BROWSER \
                for `ls --browser`) and closed:ENTRY for a closed one (for `sessionstore restore`). \
                Exits 1 when nothing matches.
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
            let (matches, ids) = try options.reading {
                (try SQLiteTabSearchRepository(database: $0).searchTabs(
                    query.joined(separator: " "), includingClosed: closed, limit: limit), try ShortIDs(database: $0))
            }
            if json {
                try JSONOutput.print(matches.map(Match.init))
            } else {
                for match in matches {
                    let place = match.browser.map { "\(ids.browser($0.uuidString)):\(match.index ?? 0)" }
                        ?? (match.isArchived ? "archived" : nil)
                        ?? match.savedGroup.map { "saved:\($0.uuidString.prefix(8))" }
                        ?? "closed:\(match.closedEntry.map { ids.closedEntry($0.uuidString) } ?? "?")"
                    let title = match.title.isEmpty ? "(untitled)" : match.title
                    print("\(ids.tab(match.tab.uuidString))\t\(place)\t\(shown(title))\t\(shown(match.url))")
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
            var archived: Bool?
            var savedGroup: String?
            var title: String
            var url: String
            var rank: Double

            init(_ match: TabSearchMatch) {
                tab = match.tab.uuidString
                browser = match.browser?.uuidString
                index = match.index
                closedEntry = match.closedEntry?.uuidString
                archived = match.isArchived ? true : nil
                savedGroup = match.savedGroup?.uuidString
                title = match.title
                url = match.url
                rank = match.rank
            }
        }
    }
}
