import ArgumentParser
import Foundation
import SessionStorage

extension SessionStore {
    /// `sessionstore recover`: salvages a damaged store into a new file; never writes the original.
    struct Recover: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Salvage what can be read from a damaged store into a new, valid store.",
            discussion: """
                Reads the file (a copy of it, never the file itself) page by page by SQLite's file \
                format, keeps every row that can be read, mends what points at nothing, repairs \
                each window's tab list by the tab-list rules and writes the result to a new store \
                that passes `check`. The file is copied, scanned and written a piece at a time: \
                memory stays bounded whatever its size. Exits 0 when a store was written, 65 when \
                nothing could be read.
                """)

        @OptionGroup var options: StoreOptions

        @Option(help: ArgumentHelp("The new store (default: FILE.recovered.sqlite; must not exist).", valueName: "path"))
        var output: String?

        func validate() throws {
            if let output { try PathArgument.validate(output, as: "--output") }
        }

        @Flag(help: "Print the report as JSON.")
        var json = false

        func run() throws {
            let output = self.output ?? options.path + ".recovered.sqlite"
            // The store's own companions (-wal, -shm, -journal) would be taken, or wiped, by SQLite.
            try ExportTarget.refuseStore(output, storePath: options.path)
            let report = try SessionStoreFile.recover(from: options.path, to: output, configuration: options.configuration)
            if json {
                try JSONOutput.print(report)
                return
            }
            print("\(output): recovered \(report.tabsRecovered) tab(s) in \(report.browsers.count) window(s) from \(options.path).")
            for browser in report.browsers {
                print("  browser \(browser.browser): \(browser.tabs) tab(s), \(browser.historyEntries) history entries"
                    + (browser.recreated ? " (its window row was lost; made anew)" : ""))
            }
            print("  read \(report.pagesRead) leaf page(s); \(report.cellsSkipped) unreadable cell(s), "
                + "\(report.recordsUnclassified) unmatched record(s); write-ahead log \(report.walMerged ? "folded in (or none)" : "unreadable, left out")")
            let found = report.rowsFound.values.reduce(0, +)
            let kept = report.rowsKept.values.reduce(0, +)
            print("  rows: \(found) found, \(kept) kept")
            for repair in report.repairs { print("  repaired: \(repair)") }
            if let snapshot = report.sourceSnapshot {
                print("  fewer tabs kept than \(options.path) held: what SQLite still reads of it is snapshot \(snapshot)")
            }
        }
    }
}
