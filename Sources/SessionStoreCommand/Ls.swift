import ArgumentParser
import Foundation
import SessionModel
import SessionStorage

extension SessionStore {
    /// `sessionstore ls`: the browsers and their tabs as a tree; changes nothing.
    struct Ls: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List browsers and their tabs: index, pinned, group, active (*), title and URL.")

        @OptionGroup var options: StoreOptions

        @Flag(help: "Also list recently closed tabs, groups and windows.")
        var all = false

        @Flag(help: "Print JSON instead of text.")
        var json = false

        @Option(help: ArgumentHelp("List only this browser, reading no other (see `ls` for the identifiers).", valueName: "id"))
        var browser: String?

        func validate() throws {
            if let browser, BrowserID(uuidString: browser) == nil {
                throw ValidationError("--browser needs a browser identifier (a UUID).")
            }
        }

        func run() throws {
            let only = browser.flatMap(BrowserID.init(uuidString:))
            let report = try options.reading { try SessionReport(database: $0, includeClosed: all, only: only) }
            if json {
                try JSONOutput.print(report)
            } else {
                print(report.text)
            }
        }
    }
}
