import ArgumentParser
import Foundation
import SessionStorage

extension SessionStore {
    /// `sessionstore export`: the whole store as JSON; changes nothing.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the whole store as JSON (format: docs/export-format.md).",
            discussion: "Two exports of the same state are byte-identical.")

        @OptionGroup var options: StoreOptions

        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of stdout.", valueName: "file"))
        var output: String?

        func run() throws {
            let archive = try options.openReadOnly().exportArchive()
            var data = try SessionArchive.encoder().encode(archive)
            data.append(UInt8(ascii: "\n"))
            guard let output else {
                FileHandle.standardOutput.write(data)
                return
            }
            try SessionStoreFile.writePrivately(data, toPath: output)
        }
    }

    /// `sessionstore import FILE`: checks a document whole, then applies it in one transaction.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a JSON export: merged by default (new identifiers only), or --replace the store's content.",
            discussion: """
                The whole document is checked before anything is written; a bad document \
                changes nothing and exits 65 with where it went wrong. The store is created if missing.
                """)

        @OptionGroup var options: StoreOptions

        @Argument(help: ArgumentHelp("The document to import ('-' for stdin).", valueName: "file"))
        var file: String

        @Flag(help: "Swap the store's content for the document's instead of merging.")
        var replace = false

        func run() throws {
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard FileManager.default.fileExists(atPath: file) else { throw StorageError.fileNotFound(path: file) }
                guard let contents = FileManager.default.contents(atPath: file) else {
                    throw StorageError.notARegularFile(path: file)
                }
                data = contents
            }
            let archive: SessionArchive
            do {
                archive = try SessionArchive.decode(from: data)
            } catch let error as StorageError {
                throw ImportFailure(file: file, error: error)
            }
            do {
                // Checked on a read-only connection first: a refused document leaves the file untouched.
                if FileManager.default.fileExists(atPath: options.path),
                   let current = try? options.openReadOnly()
                {
                    try current.checkImport(archive, replacing: replace)
                } else {
                    try archive.check()
                }
                let database = try options.openForWriting(create: true)
                try database.importArchive(archive, replacing: replace)
                try database.close()
            } catch let error as StorageError {
                if case .invalidArchive = error { throw ImportFailure(file: file, error: error) }
                throw error
            }
            let tabs = archive.browsers.reduce(0) { $0 + $1.tabs.count }
            print("Imported \(archive.browsers.count) browser(s), \(tabs) tab(s) and \(archive.closedEntries.count) closed entr\(archive.closedEntries.count == 1 ? "y" : "ies")\(replace ? ", replacing the store's content" : "").")
        }
    }
}

/// A bad import document: printed with the document's name, exit 65.
struct ImportFailure: Error, CustomStringConvertible {
    var file: String
    var error: StorageError
    var description: String { "\(file): \(error.description)" }
}
