import Foundation
import SessionModel

/// Reads a ``SessionArchive/Layout/lines`` document: a header line, then one
/// line per archived tab, browser (its fields), tab, closed entry and saved group, each decoded on its own
/// with the document's decoder. Errors name the line.
struct LinesScanner {
    let input: ByteInput
    private let decoder = SessionArchive.decoder()
    private var lineNumber = 0

    init(input: ByteInput) {
        self.input = input
    }

    /// The fields of a browser line (its tabs are the tab lines after it).
    private struct BrowserFields: Decodable {
        var id: BrowserID
        var createdAt: Date
        var lastActiveAt: Date
        var activeTab: WebStateID?
        var closedEntry: ClosedEntryID?
        var groups: [SessionArchive.Group]
        /// Absent in documents written before splits, and when the browser has none.
        var splits: [SessionArchive.Split]?
    }

    /// One line after the header: exactly one of its fields is present.
    private struct Line: Decodable {
        var browser: BrowserFields?
        var tab: SessionArchive.Tab?
        var closedEntry: SessionArchive.ClosedEntry?
        var archivedTab: SessionArchive.ArchivedTab?
        var savedGroup: SessionArchive.SavedGroup?

        /// How many of its fields are present.
        var count: Int {
            [browser != nil, tab != nil, closedEntry != nil, archivedTab != nil, savedGroup != nil].filter { $0 }.count
        }
    }

    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

    /// Reads the whole document into `importer`.
    mutating func read(into importer: ArchiveImporter) throws {
        guard let first = try nextLine() else {
            throw StorageError.invalidArchive(location: "line 1", reason: "the document is empty")
        }
        let header = try decode(Header.self, first)
        guard header.format == SessionArchive.linesFormatName else {
            throw StorageError.invalidArchive(
                location: "line 1: $.format",
                reason: "expected \"\(SessionArchive.linesFormatName)\", found \(header.format.map { "\"\($0)\"" } ?? "nothing")")
        }
        guard header.version == SessionArchive.currentVersion else {
            throw StorageError.invalidArchive(
                location: "line 1: $.version",
                reason: "unknown format version \(header.version.map(String.init) ?? "(none)"); this tool reads version \(SessionArchive.currentVersion)")
        }
        var browser: SessionArchive.Browser?
        while let bytes = try nextLine() {
            let line = try decode(Line.self, bytes)
            guard line.count == 1 else {
                throw StorageError.invalidArchive(
                    location: "line \(lineNumber)",
                    reason: "expected one of \"archived_tab\", \"browser\", \"tab\", \"closed_entry\" or \"saved_group\"")
            }
            if let fields = line.browser {
                if let browser { try importer.endBrowser(browser) }
                let next = SessionArchive.Browser(
                    id: fields.id, createdAt: fields.createdAt, lastActiveAt: fields.lastActiveAt,
                    activeTab: fields.activeTab, closedEntry: fields.closedEntry, groups: fields.groups,
                    splits: fields.splits ?? [], tabs: [])
                try importer.beginBrowser(next)
                browser = next
            } else if let tab = line.tab {
                try importer.tab(tab, at: "line \(lineNumber): $.tab")
            } else {
                // Any other line ends the browser being read.
                if let open = browser { try importer.endBrowser(open) }
                browser = nil
                if let entry = line.closedEntry {
                    try importer.closedEntry(entry)
                } else if let archived = line.archivedTab {
                    try importer.archivedTab(archived, at: "line \(lineNumber): $.archived_tab")
                } else if let group = line.savedGroup {
                    try importer.savedGroup(group, at: "line \(lineNumber): $.saved_group")
                }
            }
        }
        if let browser { try importer.endBrowser(browser) }
        try importer.finish()
    }

    private func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
        let value: T
        do {
            value = try decoder.decode(type, from: Data(bytes))
        } catch {
            throw SessionArchive.located(error, under: "line \(lineNumber): $")
        }
        if let duplicate = DuplicateKey.first(in: bytes) {
            throw duplicate.error(at: "line \(lineNumber), byte \(duplicate.offset + 1)")
        }
        return value
    }

    /// The next line that is not blank, without its line feed; `nil` at the end.
    private mutating func nextLine() throws -> [UInt8]? {
        while true {
            guard try input.available() else { return nil }
            lineNumber += 1
            input.mark = input.position
            defer { input.mark = nil }
            while true {
                if let end = input.buffer[input.position...].firstIndex(of: UInt8(ascii: "\n")) {
                    input.position = end + 1
                    break
                }
                input.position = input.buffer.count
                guard try input.readMore() else { break }
            }
            let line = input.buffer[input.mark!..<input.position]
            if let bad = ByteInput.firstNonText(in: line) {
                throw StorageError.invalidArchive(
                    location: "line \(lineNumber), byte \(bad + 1)", reason: "not UTF-8 text")
            }
            if !line.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return Array(line) }
        }
    }
}
