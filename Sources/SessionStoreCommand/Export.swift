import ArgumentParser
import Foundation
import SessionInterop
import SessionStorage

extension SessionStore {
    /// `sessionstore export`: the whole store as JSON or JSON Lines, or its open tabs as text; changes nothing.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the whole store as JSON or JSON Lines (format: docs/export-format.md), or its open tabs as text.",
            discussion: """
                --format json (the default) is the document import reads; two exports of the same \
                state are byte-identical. --format jsonl writes the same content as JSON Lines: a \
                header line, then one line per browser, tab and closed entry (import reads it too). \
                --format urls writes one 'title<TAB>url' line per open tab, windows separated by a \
                blank line. --format html writes a Netscape bookmark file (one folder per window and \
                per tab group) that every browser imports.

                Rows are written as they are read, in one read transaction: memory stays bounded \
                whatever the store's size. With --output the file appears only when complete; an \
                existing file that another user owns is not replaced unless --force is given.
                """)

        @OptionGroup var options: StoreOptions
        @OptionGroup var progressOptions: ProgressOptions

        @Option(help: ArgumentHelp("json, jsonl, urls or html.", valueName: "format"))
        var format: ExportFormat = .json

        @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file instead of stdout.", valueName: "file"))
        var output: String?

        @Flag(help: "Replace an existing --output file even when another user owns it.")
        var force = false

        func validate() throws {
            if let output { try PathArgument.validate(output, as: "--output") }
        }

        func run() throws {
            if let output {
                try ExportTarget.refuseStore(output, storePath: options.path)
                if !force { try ExportTarget.refuseOthersFile(output) }
            }
            let progress = ProgressLine("export", options: progressOptions)
            defer { progress.finish() }
            try withOutput { write in
                try options.reading { database in
                    let update = { (done: Int, total: Int) in progress.update(Int64(done), of: Int64(total), unit: "tabs") }
                    switch format {
                    case .json, .jsonl:
                        let writer = SessionArchive.Writer(layout: format == .json ? .document : .lines, output: write)
                        try database.exportArchive(progress: update) { try writer.write($0) }
                        try writer.finish()
                    case .urls, .html:
                        let writer = TabListExport.Writer(format: format == .urls ? .urls : .html) { try write(Data($0.utf8)) }
                        try database.exportArchive(progress: update) { try writer.write($0) }
                        try writer.finish()
                    }
                }
            }
        }

        /// Runs `body` with the function that writes to stdout or to --output.
        private func withOutput(_ body: (_ write: @escaping (Data) throws -> Void) throws -> Void) throws {
            guard let output else {
                return try body(StandardOutput.write)
            }
            if ExportTarget.isNonRegularFile(output) {
                // A FIFO, a terminal, /dev/stdout: write through it; never replace the node.
                let descriptor = try ExportTarget.openThrough(output)
                defer { close(descriptor) }
                try body { try StandardOutput.writeAll($0, to: descriptor, naming: output) }
            } else {
                try SessionStoreFile.writePrivately(toPath: output, body)
            }
        }
    }

    /// `sessionstore import FILE`: checks a document whole, then applies it in one transaction.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a JSON or JSON Lines export, or a Firefox or Chromium session: merged by default (new identifiers only), or --replace the store's content.",
            discussion: """
                A bad document changes nothing and exits 65 with where it went wrong. The store is \
                created if missing. A document up to 8 MiB is checked whole before the store is \
                opened for writing; a larger one, and JSON Lines (export --format jsonl), are read \
                and written part by part in one transaction that a problem rolls back: memory stays \
                bounded whatever the document's size.

                --from firefox reads sessionstore.jsonlz4, sessionstore-backups/recovery.jsonlz4 or \
                previous.jsonlz4 (mozLz4), a plain session JSON, or a profile directory. --from \
                chromium reads a Session_* or Tabs_* command log, or a Sessions or profile directory \
                (the newest Session_* and Tabs_* in it: open windows and recently closed tabs). Windows become \
                browsers; what a file holds that the store cannot take is counted in note: lines.
                """)

        @OptionGroup var options: StoreOptions

        @Argument(help: ArgumentHelp(
            "The document to import ('-' for stdin), or with --from a browser's session file or profile directory.",
            valueName: "file"))
        var file: String

        @Option(help: ArgumentHelp("sessionstore (an export: the default), firefox or chromium.", valueName: "format"))
        var from: ImportSource = .sessionstore

        @Flag(help: "Swap the store's content for the document's instead of merging.")
        var replace = false

        @OptionGroup var progressOptions: ProgressOptions

        func validate() throws {
            if file != "-" { try PathArgument.validate(file, as: "the document") }
            if file == "-" && from != .sessionstore {
                throw ValidationError("--from \(from.rawValue) reads a file or directory, not standard input.")
            }
        }

        func run() throws {
            // Reading the store as a document would open it with a descriptor of this
            // process, which has it open through SQLite: closing that descriptor drops the locks.
            if file != "-" { try ExportTarget.refuseStore(file, storePath: options.path, as: "the document") }
            let progress = ProgressLine("import", options: progressOptions)
            defer { progress.finish() }
            let counts: SessionArchive.ImportCounts
            switch from {
            case .firefox, .chromium:
                counts = try importWhole(try readBrowserSession())
            case .sessionstore:
                let source = try openDocument()
                defer { if file != "-" { try? source.handle.close() } }
                // A small document is decoded whole and checked read-only before the store is
                // opened for writing; a large one, and JSON Lines, stream through one transaction.
                var head = Data()
                var ended = false
                repeat {
                    guard let piece = try readPiece(source.handle), !piece.isEmpty else {
                        ended = true
                        break
                    }
                    head.append(piece)
                    progress.update(Int64(head.count), of: source.size, unit: "bytes")
                    if SessionArchive.Layout(sniffing: head.prefix(256)) == .lines { break }
                    if let size = source.size, size > Self.wholeDocumentLimit { break }
                } while head.count <= Self.wholeDocumentLimit
                if ended && SessionArchive.Layout(sniffing: head.prefix(256)) == .document {
                    counts = try importWhole(try decodeDocument(head))
                } else {
                    // What was read first goes to the reader in pieces like the rest.
                    var offset = 0
                    let reader = SessionArchive.Reader {
                        if offset < head.count {
                            defer { offset = min(head.count, offset + (1 << 20)) }
                            return head.subdata(in: offset..<min(head.count, offset + (1 << 20)))
                        }
                        head = Data()
                        return try readPiece(source.handle)
                    }
                    reader.progress = { progress.update($0, of: source.size, unit: "bytes") }
                    counts = try importStreaming(reader)
                }
            }
            progress.finish()
            // Archived tabs and saved groups are named only when the document has them.
            var kept = ""
            if counts.archivedTabs > 0 { kept += ", \(counts.archivedTabs) archived tab(s)" }
            if counts.savedGroups > 0 {
                kept += ", \(counts.savedGroups) saved group(s) of \(counts.savedGroupTabs) tab(s)"
            }
            print("Imported \(counts.browsers) browser(s), \(counts.tabs) tab(s)\(kept) and \(counts.closedEntries) closed entr\(counts.closedEntries == 1 ? "y" : "ies")\(replace ? ", replacing the store's content" : "").")
        }

        /// Documents up to this size are decoded whole (and checked before the store is
        /// opened for writing); larger ones stream. `SESSIONSTORE_TEST_STREAM_IMPORT_ABOVE`
        /// lowers it, so that the tests stream small documents too.
        static let wholeDocumentLimit: Int = {
            if let value = ProcessInfo.processInfo.environment["SESSIONSTORE_TEST_STREAM_IMPORT_ABOVE"], let bytes = Int(value) {
                return bytes
            }
            return 8 << 20
        }()

        /// A document checked whole, then written in one transaction.
        private func importWhole(_ archive: SessionArchive) throws -> SessionArchive.ImportCounts {
            do {
                // Checked on a read-only connection first: a refused document leaves the file untouched.
                if FileManager.default.fileExists(atPath: options.path),
                   let current = try? options.openReadOnly()
                {
                    defer { try? current.close() }
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
            var counts = SessionArchive.ImportCounts()
            counts.browsers = archive.browsers.count
            counts.tabs = archive.browsers.reduce(0) { $0 + $1.tabs.count }
            counts.closedEntries = archive.closedEntries.count
            counts.archivedTabs = archive.archivedTabs.count
            counts.savedGroups = archive.savedGroups.count
            counts.savedGroupTabs = archive.savedGroups.reduce(0) { $0 + $1.tabs.count }
            return counts
        }

        /// A document read and written part by part in one transaction; a refused one is
        /// rolled back, and a store this import created is removed again.
        private func importStreaming(_ reader: SessionArchive.Reader) throws -> SessionArchive.ImportCounts {
            let created = !FileManager.default.fileExists(atPath: options.path)
            do {
                let database = try options.openForWriting(create: true)
                do {
                    let counts = try database.importArchive(from: reader, replacing: replace)
                    try database.close()
                    return counts
                } catch {
                    try? database.close()
                    throw error
                }
            } catch {
                // A refused document, or an input that failed part way: nothing of it stays.
                if created {
                    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(options.path + suffix) }
                }
                if let storage = error as? StorageError, case .invalidArchive = storage {
                    throw ImportFailure(file: file, error: storage)
                }
                throw error
            }
        }

        /// A Firefox or Chromium session, read by its importer; what it skipped goes to stderr as notes.
        private func readBrowserSession() throws -> SessionArchive {
            guard FileManager.default.fileExists(atPath: file) else {
                throw InputFailure(message: "\(shown(file)): no such file or directory to import.", status: ExitStatus.noInput)
            }
            let imported: BrowserImport
            do {
                imported = from == .firefox
                    ? try FirefoxSessionReader.read(at: file) : try ChromiumSessionReader.read(at: file)
            } catch let error as BrowserFileError {
                throw InputFailure(
                    message: "\(error.path): not a readable \(from == .firefox ? "Firefox" : "Chromium") session: \(error.reason)",
                    status: ExitStatus.dataError)
            }
            let archive = imported.archive
            guard !archive.browsers.isEmpty || !archive.closedEntries.isEmpty else {
                // Nothing to import is a bad file, said in one line with the reader's first note.
                let why = imported.skipped.first.map { " (\($0))" } ?? ""
                throw InputFailure(
                    message: "\(shown(file)): no window or tab could be read from this \(from == .firefox ? "Firefox" : "Chromium") session\(why).",
                    status: ExitStatus.dataError)
            }
            // A reader's note names the file it read; a directory's path comes first.
            let name = (file as NSString).lastPathComponent
            for line in imported.skipped {
                let place = line.hasPrefix(name + ":") ? "" : "\(shown(file)): "
                StandardError.write("sessionstore: note: \(place)\(shown(line))\n")
            }
            return archive
        }

        /// This store's own document: the file (or standard input) and its size when known.
        private func openDocument() throws -> (handle: FileHandle, size: Int64?) {
            if file == "-" { return (FileHandle.standardInput, nil) }
            // Errors about the input name the input document, never the store.
            guard FileManager.default.fileExists(atPath: file) else {
                throw InputFailure(message: "\(shown(file)): no such document to import.", status: ExitStatus.noInput)
            }
            // A FIFO or a device (`<(cat doc.json)`) is read as it comes; a directory is not a document.
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let handle = FileHandle(forReadingAtPath: file)
            else {
                throw unreadable()
            }
            var info = stat()
            let size = fstat(handle.fileDescriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int64(info.st_size) : nil
            return (handle, size)
        }

        private func unreadable() -> InputFailure {
            InputFailure(
                message: "\(shown(file)): the document cannot be read (a directory, or not readable).",
                status: ExitStatus.noInput)
        }

        /// The next 1 MiB or less of the document; `nil` at its end.
        private func readPiece(_ handle: FileHandle) throws -> Data? {
            do {
                return try handle.read(upToCount: 1 << 20)
            } catch {
                throw unreadable()
            }
        }

        /// A whole document in memory, decoded.
        private func decodeDocument(_ data: Data) throws -> SessionArchive {
            do {
                return try SessionArchive.decode(from: data)
            } catch let error as StorageError {
                throw ImportFailure(file: file, error: error)
            }
        }
    }
}

/// What `import --from` reads.
enum ImportSource: String, ExpressibleByArgument, CaseIterable {
    /// This store's own JSON document (`export`).
    case sessionstore
    /// Firefox's session store (`.jsonlz4` or JSON, or a profile directory).
    case firefox
    /// Chromium's SNSS session command logs.
    case chromium
}

/// What `export --format` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    /// The store's own document.
    case json
    /// The same content as JSON Lines.
    case jsonl
    /// `title<TAB>url` lines.
    case urls
    /// A Netscape bookmark file.
    case html
}

/// A bad import document: printed with the document's name, exit 65.
struct ImportFailure: Error, CustomStringConvertible {
    var file: String
    var error: StorageError
    var description: String { "\(file): \(error.description)" }
}

/// An input document that cannot be read: one line naming it, and its exit status.
struct InputFailure: Error, CustomStringConvertible {
    var message: String
    var status: Int32
    var description: String { message }
}

/// Where `export --output` may write.
enum ExportTarget {
    /// Refuses the store itself and the files SQLite keeps beside it (`-wal`, `-shm`,
    /// `-journal`: a file there would be taken for the store's own) as the output
    /// (or, with `role`, as another file the command would open itself).
    static func refuseStore(_ output: String, storePath: String, as role: String = "--output") throws {
        let target = FileIdentity(path: output)
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = storePath + suffix
            let same = target != nil && target == FileIdentity(path: path)
            if same || URL(fileURLWithPath: output).standardizedFileURL == URL(fileURLWithPath: path).standardizedFileURL {
                throw ValidationError("\(role) is the store\(suffix.isEmpty ? "" : "'s \(suffix) file") itself; give another file.")
            }
        }
    }

    /// Refuses to replace an existing `output` that the caller does not own: in a
    /// world-writable directory without the sticky bit, anyone may rename over
    /// another user's file (`--force` allows it). The entry itself is what would be
    /// replaced, a symbolic link included, so it is looked at without following links.
    /// A FIFO or a device is written through, never replaced, and is not refused.
    static func refuseOthersFile(_ output: String) throws {
        var info = stat()
        guard lstat(output, &info) == 0, info.st_uid != geteuid() else { return }
        if (info.st_mode & S_IFMT) != S_IFLNK && isNonRegularFile(output) { return }
        let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(info.st_uid)"
        throw InputFailure(
            message: "\(output): belongs to \(owner), not to you; not replaced (give another file, or --force to replace it).",
            status: ExitStatus.cannotCreate)
    }

    /// Whether `path` names something other than a regular file (after symbolic links).
    static func isNonRegularFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) != S_IFREG
    }

    /// Opens the node at `path` (a FIFO, a device) for writing through it, without replacing it.
    static func openThrough(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InputFailure(
                message: "\(path): cannot be opened for writing (\(String(cString: strerror(errno)))).",
                status: ExitStatus.cannotCreate)
        }
        return descriptor
    }

}

/// Standard output that reports a failed write instead of trapping or losing it.
enum StandardOutput {
    /// Writes `data` to stdout; a failure (a full disk, a closed pipe) throws.
    static func write(_ data: Data) throws {
        try writeAll(data, to: STDOUT_FILENO, naming: "standard output")
    }

    /// Writes all of `data` to `descriptor`, or throws one line naming `name` and the system's reason.
    static func writeAll(_ data: Data, to descriptor: Int32, naming name: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw InputFailure(
                        message: "\(name): writing failed (\(String(cString: strerror(errno)))).", status: ExitStatus.ioError)
                }
                offset += written
            }
        }
    }
}
