import Foundation

/// Reads a ``SessionArchive/Layout/document`` a part at a time: it splits the
/// document at the elements of `archived_tabs`, `browsers`, of each browser's
/// `tabs`, of `closed_entries` and of `saved_groups`, and decodes each element with the document's own decoder,
/// so each part gets the verdict decoding the whole document would give it.
///
/// Only the document's structure is read here: brackets, keys, commas. A
/// browser's fields may come before or after its tabs. Keys that are not the
/// document's are read and ignored, as the decoder ignores them.
struct DocumentScanner {
    let input: ByteInput
    private let decoder = SessionArchive.decoder()
    private var format: String??
    private var version: Int??

    init(input: ByteInput) {
        self.input = input
    }

    private func failure(_ reason: String) -> StorageError {
        .invalidArchive(location: input.place, reason: "not valid JSON (\(reason))")
    }

    /// Reads the whole document into `importer`.
    mutating func read(into importer: ArchiveImporter) throws {
        try input.skipWhitespace()
        try expect(UInt8(ascii: "{"), "expected the document's object")
        var seen: Set<String> = []
        try members(at: "$") { scanner, key in
            seen.insert(key)
            switch key {
            case "browsers": try scanner.browsers(into: importer)
            case "closed_entries": try scanner.closedEntries(into: importer)
            case "archived_tabs":
                try scanner.elements(at: "$.archived_tabs", as: [SessionArchive.ArchivedTab].self) { scanner, index in
                    let location = "$.archived_tabs[\(index)]"
                    try importer.archivedTab(
                        try scanner.decodeValue(SessionArchive.ArchivedTab.self, at: location), at: location)
                }
            case "saved_groups":
                try scanner.elements(at: "$.saved_groups", as: [SessionArchive.SavedGroup].self) { scanner, index in
                    let location = "$.saved_groups[\(index)]"
                    try importer.savedGroup(try scanner.decodeValue(SessionArchive.SavedGroup.self, at: location), at: location)
                }
            case "format":
                scanner.format = .some(try scanner.decodeValue(String?.self, at: "$.format"))
                try scanner.checkHeader(final: false)
            case "version":
                scanner.version = .some(try scanner.decodeValue(Int?.self, at: "$.version"))
                try scanner.checkHeader(final: false)
            default:
                _ = try scanner.captureOnce(at: "$.\(key)")
            }
        }
        try input.skipWhitespace()
        if try input.available() { throw failure("more text after the document") }
        try checkHeader(final: true)
        for key in ["browsers", "closed_entries"] where !seen.contains(key) {
            throw StorageError.invalidArchive(location: "$.\(key)", reason: "a required field is missing")
        }
        try importer.finish()
    }

    /// The document's format and version, as soon as they are read.
    private func checkHeader(final: Bool) throws {
        if let format, format != SessionArchive.formatName {
            throw StorageError.invalidArchive(
                location: "$.format",
                reason: "expected \"\(SessionArchive.formatName)\", found \(format.map { "\"\($0)\"" } ?? "nothing")")
        }
        if final && format == nil {
            throw StorageError.invalidArchive(
                location: "$.format", reason: "expected \"\(SessionArchive.formatName)\", found nothing")
        }
        if let version, version != SessionArchive.currentVersion {
            throw StorageError.invalidArchive(
                location: "$.version",
                reason: "unknown format version \(version.map(String.init) ?? "(none)"); this tool reads version \(SessionArchive.currentVersion)")
        }
        if final && version == nil {
            throw StorageError.invalidArchive(
                location: "$.version",
                reason: "unknown format version (none); this tool reads version \(SessionArchive.currentVersion)")
        }
    }

    // MARK: - Parts

    private mutating func browsers(into importer: ArchiveImporter) throws {
        try elements(at: "$.browsers", as: [SessionArchive.Browser].self) { scanner, index in
            try scanner.browser(index, into: importer)
        }
    }

    private mutating func browser(_ index: Int, into importer: ArchiveImporter) throws {
        let at = "$.browsers[\(index)]"
        try input.skipWhitespace()
        guard try input.peek() == UInt8(ascii: "{") else {
            _ = try decodeValue(SessionArchive.Browser.self, at: at)
            throw failure("expected a browser")
        }
        input.position += 1
        try importer.beginBrowser(nil)
        // The browser's fields but its tabs, put together again for the decoder.
        var fields: [UInt8] = [UInt8(ascii: "{")]
        var sawTabs = false
        try members(at: at) { scanner, key in
            if key == "tabs" {
                sawTabs = true
                try scanner.elements(at: "\(at).tabs", as: [SessionArchive.Tab].self) { scanner, offset in
                    let location = "\(at).tabs[\(offset)]"
                    try importer.tab(try scanner.decodeValue(SessionArchive.Tab.self, at: location), at: location)
                }
            } else {
                if fields.count > 1 { fields.append(UInt8(ascii: ",")) }
                fields.append(contentsOf: try JSONSerialization.data(withJSONObject: key, options: .fragmentsAllowed))
                fields.append(UInt8(ascii: ":"))
                fields.append(contentsOf: try scanner.captureOnce(at: "\(at).\(key)"))
            }
        }
        if sawTabs { fields.append(contentsOf: Array((fields.count > 1 ? ",\"tabs\":[]" : "\"tabs\":[]").utf8)) }
        fields.append(UInt8(ascii: "}"))
        let header: SessionArchive.Browser
        do {
            header = try decoder.decode(SessionArchive.Browser.self, from: Data(fields))
        } catch {
            throw SessionArchive.located(error, under: at)
        }
        try importer.endBrowser(header)
    }

    private mutating func closedEntries(into importer: ArchiveImporter) throws {
        try elements(at: "$.closed_entries", as: [SessionArchive.ClosedEntry].self) { scanner, index in
            try importer.closedEntry(try scanner.decodeValue(SessionArchive.ClosedEntry.self, at: "$.closed_entries[\(index)]"))
        }
    }

    // MARK: - Structure

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard try input.peek() == byte else {
            throw try input.available() ? failure(what) : StorageError.invalidArchive(
                location: "the end of the document", reason: "the JSON is cut short")
        }
        input.position += 1
    }

    /// Reads an object's members (its `{` already read, at JSON path `path`), handing
    /// each key to `body` with the input at its value. A key that appears twice is refused.
    private mutating func members(at path: String, _ body: (inout DocumentScanner, String) throws -> Void) throws {
        try input.skipWhitespace()
        if try input.peek() == UInt8(ascii: "}") {
            input.position += 1
            return
        }
        var keys: Set<String> = []
        while true {
            try input.skipWhitespace()
            guard try input.peek() == UInt8(ascii: "\"") else {
                try expect(UInt8(ascii: "\""), "expected a key")
                return
            }
            let place = input.place
            let key: String
            do {
                key = try JSONDecoder().decode(String.self, from: Data(try capture()))
            } catch is DecodingError {
                throw StorageError.invalidArchive(location: place, reason: "not valid JSON (a key that is not a string)")
            }
            guard keys.insert(key).inserted else {
                throw DuplicateKey(key: key, offset: 0, path: "\(path).\(key)").error(at: place)
            }
            try input.skipWhitespace()
            try expect(UInt8(ascii: ":"), "expected ':' after a key")
            try body(&self, key)
            try input.skipWhitespace()
            if try input.peek() == UInt8(ascii: ",") {
                input.position += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "expected ',' or '}' in an object")
            return
        }
    }

    /// Reads an array's elements, handing each index to `body` with the input at it.
    /// A value that is not an array is decoded as `type` for the decoder's verdict.
    private mutating func elements<T: Decodable>(
        at location: String, as type: T.Type, _ body: (inout DocumentScanner, Int) throws -> Void
    ) throws {
        try input.skipWhitespace()
        guard try input.peek() == UInt8(ascii: "[") else {
            _ = try decodeValue(type, at: location)
            throw failure("expected an array at \(location)")
        }
        input.position += 1
        try input.skipWhitespace()
        if try input.peek() == UInt8(ascii: "]") {
            input.position += 1
            return
        }
        var index = 0
        while true {
            try body(&self, index)
            index += 1
            try input.skipWhitespace()
            if try input.peek() == UInt8(ascii: ",") {
                input.position += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "expected ',' or ']' in an array")
            return
        }
    }

    /// Decodes the next value as `type`, errors located under `location`.
    private mutating func decodeValue<T: Decodable>(_ type: T.Type, at location: String) throws -> T {
        try input.skipWhitespace()
        let start = input.offset + Int64(input.position)
        let bytes = try capture()
        let value: T
        do {
            value = try decoder.decode(type, from: Data(bytes))
        } catch {
            throw SessionArchive.located(error, under: location)
        }
        try refuseDuplicateKeys(in: bytes, at: location, from: start)
        return value
    }

    /// The bytes of the next value (at JSON path `location`), refused when an object
    /// in it holds a key twice.
    private mutating func captureOnce(at location: String) throws -> [UInt8] {
        try input.skipWhitespace()
        let start = input.offset + Int64(input.position)
        let bytes = try capture()
        try refuseDuplicateKeys(in: bytes, at: location, from: start)
        return bytes
    }

    /// Refuses `bytes`, a value at JSON path `location` that starts at document offset
    /// `start`, when an object in it holds a key twice (``DuplicateKey``).
    private func refuseDuplicateKeys(in bytes: [UInt8], at location: String, from start: Int64) throws {
        if let duplicate = DuplicateKey.first(in: bytes, under: location) {
            throw duplicate.error(at: "byte \(start + Int64(duplicate.offset) + 1)")
        }
    }

    /// The bytes of the next JSON value: a string, a number, a literal, or an
    /// object or array with its brackets matched. The decoder checks the rest.
    private mutating func capture() throws -> [UInt8] {
        try input.skipWhitespace()
        guard let first = try input.peek() else { throw Self.cutShort }
        input.mark = input.position
        defer { input.mark = nil }
        switch first {
        case UInt8(ascii: "\""):
            input.position += 1
            try skipStringBody()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var closing: [UInt8] = []
            repeat {
                guard try input.available() else { throw Self.cutShort }
                let byte = input.buffer[input.position]
                input.position += 1
                switch byte {
                case UInt8(ascii: "\""): try skipStringBody()
                case UInt8(ascii: "{"): closing.append(UInt8(ascii: "}"))
                case UInt8(ascii: "["): closing.append(UInt8(ascii: "]"))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard closing.last == byte else {
                        input.position -= 1
                        throw failure("a bracket that closes nothing open")
                    }
                    closing.removeLast()
                default: break
                }
            } while !closing.isEmpty
        default:
            // A number or a literal: up to the byte that ends it.
            scalar: while try input.available() {
                switch input.buffer[input.position] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: break scalar
                default: input.position += 1
                }
            }
            if input.position == input.mark! { throw failure("expected a value") }
        }
        let bytes = input.buffer[input.mark!..<input.position]
        if let bad = ByteInput.firstNonText(in: bytes) {
            throw StorageError.invalidArchive(
                location: "byte \(input.offset + Int64(input.mark! + bad) + 1)", reason: "not UTF-8 text")
        }
        return Array(bytes)
    }

    private static let cutShort = StorageError.invalidArchive(
        location: "the end of the document", reason: "the JSON is cut short")

    /// Skips a string's body and its closing quote (its opening one already taken).
    private mutating func skipStringBody() throws {
        while true {
            guard try input.available() else { throw Self.cutShort }
            let byte = input.buffer[input.position]
            input.position += 1
            if byte == UInt8(ascii: "\\") {
                guard try input.available() else { continue }
                input.position += 1
            } else if byte == UInt8(ascii: "\"") {
                return
            }
        }
    }
}
