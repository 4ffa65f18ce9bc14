import ArgumentParser
import Foundation
import SessionModel
import SessionStorage

extension SessionStore {
    /// `sessionstore show TAB`: one tab with its full history; changes nothing.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one tab (open or recently closed) with its full history, the current entry marked (*).")

        @OptionGroup var options: StoreOptions

        @Argument(help: ArgumentHelp(
            "The tab: its identifier or a unique prefix of it, as `ls` and `search` print it, or BROWSER:INDEX (a browser prefix and the tab's index from 0).",
            valueName: "tab"))
        var tab: String

        @Flag(help: "Print JSON instead of text.")
        var json = false

        /// `show --json`: where the tab is, and its history as the export writes it.
        struct Output: Encodable {
            var id: String
            var browser: String?
            var index: Int?
            var closedEntry: String?
            var history: SessionArchive.History
        }

        func run() throws {
            let database = try options.openReadOnly()
            defer { options.finishReading(database) }
            // The tab, its history and the report read one state of the store.
            let (id, history, report, ids) = try database.readingConsistently {
                let id = try IdentifierResolver(database: database).tab(tab)
                return (id, try SQLiteNavigationHistoryRepository(database: database).history(of: id),
                        try SessionReport(database: database, includeClosed: true), try ShortIDs(database: database))
            }
            var output = Output(
                id: id.uuidString,
                history: SessionArchive.History(currentIndex: history.currentIndex, entries: history.items.map(SessionArchive.Entry.init)))
            var place = ""
            if let browser = report.browsers.first(where: { $0.tabs.contains { $0.id == id.uuidString } }),
               let tab = browser.tabs.first(where: { $0.id == id.uuidString })
            {
                output.browser = browser.id
                output.index = tab.index
                let flags = [tab.pinned ? "pinned" : nil, browser.group(tab.group).map { "group \"\($0.title)\"" },
                             tab.id == browser.activeTab ? "active" : nil].compactMap { $0 }
                place = "in browser \(ids.browser(browser.id)) at index \(tab.index)"
                    + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")
            } else if let entry = report.closedEntries?.first(where: { $0.tabs.contains { $0.id == id.uuidString } }) {
                output.closedEntry = entry.id
                place = "recently closed (entry \(ids.closedEntry(entry.id)))"
            }
            if json {
                try JSONOutput.print(output)
                return
            }
            print("tab \(id) \(place)")
            if history.isEmpty { print("  (no history)") }
            for (index, item) in history.items.enumerated() {
                let marker = index == history.currentIndex ? "*" : " "
                let title = item.title.isEmpty ? "" : "\(item.title) — "
                print("\(marker)\(String(index).leftPadded(to: 3))  \(SessionReport.time(item.timestamp))  "
                    + "\(item.transition.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0))  \(title)\(item.url)")
            }
        }
    }
}
