import ArgumentParser
import Foundation
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

        func run() throws {
            let report = try options.reading { try SessionReport(database: $0, includeClosed: all) }
            if json {
                try JSONOutput.print(report)
            } else {
                print(report.text)
            }
        }
    }
}
