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

        @Argument(help: ArgumentHelp("The tab's identifier (see `sessionstore ls`).", valueName: "tab"))
        var tab: String

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func validate() throws {
            guard WebStateID(uuidString: tab) != nil else {
                throw ValidationError("'\(shown(tab))' is not a tab identifier (a UUID).")
            }
        }

        struct Output: Encodable {
            var id: String
            var browser: String?
            var index: Int?
            var closedEntry: String?
            var currentIndex: Int?
            var entries: [NavigationItem]
        }

        func run() throws {
            let database = try options.openReadOnly()
            defer { options.finishReading(database) }
            let id = WebStateID(uuidString: tab)!
            // The history and the report read one state of the store.
            let (history, report) = try database.readingConsistently {
                (try SQLiteNavigationHistoryRepository(database: database).history(of: id),
                 try SessionReport(database: database, includeClosed: true))
            }
            var output = Output(id: id.uuidString, currentIndex: history.currentIndex, entries: history.items)
            var place = ""
            if let browser = report.browsers.first(where: { $0.tabs.contains { $0.id == id.uuidString } }),
               let tab = browser.tabs.first(where: { $0.id == id.uuidString })
            {
                output.browser = browser.id
                output.index = tab.index
                let flags = [tab.isPinned ? "pinned" : nil, tab.group.map { "group \"\($0.title)\"" },
                             tab.isActive ? "active" : nil].compactMap { $0 }
                place = "in browser \(browser.id) at index \(tab.index)"
                    + (flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")
            } else if let entry = report.closed?.first(where: { $0.tabs.contains { $0.id == id.uuidString } }) {
                output.closedEntry = entry.id
                place = "recently closed (entry \(entry.id))"
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
