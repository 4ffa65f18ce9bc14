import ArgumentParser
import Foundation
import SessionStorage

extension SessionStore {
    /// `sessionstore check`: integrity, foreign keys and tab-list invariants; changes nothing.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the store's integrity, foreign keys and tab-list invariants.",
            discussion: "Exits 0 when the store is sound, 1 when problems were found (each printed).")

        @OptionGroup var options: StoreOptions

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            let problems = try SessionStoreFile.check(atPath: options.path, configuration: options.configuration)
            if json {
                try JSONOutput.print(CheckReport(path: options.path, ok: problems.isEmpty, problems: problems))
            } else if problems.isEmpty {
                print("\(options.path): ok")
            } else {
                for problem in problems { print(problem) }
                print("\(options.path): \(problems.count) problem(s) found.")
                print("To salvage what can be read into a new store: sessionstore recover --db \(options.path)")
            }
            if !problems.isEmpty { throw ExitCode(ExitStatus.problemsFound) }
        }
    }

    /// The JSON shape of `check --json`.
    struct CheckReport: Encodable {
        var path: String
        var ok: Bool
        var problems: [SessionStoreFile.Problem]
    }
}
