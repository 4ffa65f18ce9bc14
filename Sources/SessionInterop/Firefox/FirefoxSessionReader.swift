import Foundation
import SessionStorage

/// Reads Firefox's session store into this store's import document.
///
/// Firefox (`browser/components/sessionstore/SessionFile.sys.mjs`) keeps the
/// session of a profile in mozLz4 files: `sessionstore.jsonlz4` after a clean
/// quit, `sessionstore-backups/recovery.jsonlz4` (and `recovery.baklz4`) while
/// it runs, and `sessionstore-backups/previous.jsonlz4`, the clean file of the
/// session before. The reader takes any of them, a plain session `.json`, or
/// the profile directory itself.
public enum FirefoxSessionReader {
    /// The files tried, in order, when the path is a profile directory.
    public static let profileSessionFiles = [
        "sessionstore.jsonlz4",
        "sessionstore-backups/recovery.jsonlz4",
        "sessionstore-backups/previous.jsonlz4",
    ]

    /// Reads the session at `path`.
    ///
    /// A file that starts with the mozLz4 magic bytes, or whose name ends in
    /// `.jsonlz4`, `.baklz4` or `.mozlz4`, is decompressed first (see
    /// ``MozLz4``); any other file is read as JSON. A directory is read as a
    /// Firefox profile: its first file of ``profileSessionFiles`` is read.
    ///
    /// - Returns: The session as a document that passes `SessionArchive.check()`,
    ///   and one note line per kind of thing left out.
    /// - Throws: ``BrowserFileError`` for a path that does not exist, a profile
    ///   with no session file, a damaged or lying mozLz4 file, malformed JSON,
    ///   or JSON that is not a Firefox session.
    public static func read(at path: String) throws -> BrowserImport {
        let file = try sessionFile(at: path)
        let contents = try read(file)
        var json = contents
        if MozLz4.hasMagic(contents) || looksCompressed(file) {
            do {
                json = try MozLz4.decompress(contents)
            } catch {
                throw BrowserFileError(path: file, reason: error.reason)
            }
        }
        let session = try decode(json, path: file)
        let modified = (try? FileManager.default.attributesOfItem(atPath: file)[.modificationDate]) as? Date
        return FirefoxArchiveBuilder.build(session, fileTime: modified ?? Date(timeIntervalSince1970: 0))
    }

    /// `path` itself, or the session file of the profile directory at `path`.
    private static func sessionFile(at path: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BrowserFileError(path: path, reason: "no such file or directory")
        }
        guard isDirectory.boolValue else { return path }
        let directory = path.hasSuffix("/") ? String(path.dropLast()) : path
        for name in profileSessionFiles {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        throw BrowserFileError(
            path: path, reason: "not a Firefox profile with a session: none of \(profileSessionFiles.joined(separator: ", "))")
    }

    /// Whether the file's name says mozLz4, as Firefox names them.
    private static func looksCompressed(_ path: String) -> Bool {
        [".jsonlz4", ".baklz4", ".mozlz4"].contains { path.lowercased().hasSuffix($0) }
            || path.range(of: ".jsonlz4-", options: .caseInsensitive) != nil
    }

    /// The file's bytes, refusing anything but a regular file no larger than any session could be.
    private static func read(_ path: String) throws -> Data {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let attributes = (try? FileManager.default.attributesOfItem(atPath: resolved)) ?? [:]
        if let type = attributes[.type] as? FileAttributeType, type != .typeRegular {
            throw BrowserFileError(path: path, reason: "not a regular file")
        }
        if let size = attributes[.size] as? NSNumber, size.int64Value > Int64(MozLz4.maximumDecompressedSize) {
            throw BrowserFileError(path: path, reason: "\(size.int64Value) bytes is larger than any session file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BrowserFileError(path: path, reason: "cannot be read")
        }
        return data
    }

    /// The session in `json`, or a one-line reason why it is not one.
    private static func decode(_ json: Data, path: String) throws -> FirefoxSessionFile {
        guard !json.isEmpty else { throw BrowserFileError(path: path, reason: "empty file, not a Firefox session") }
        let session: FirefoxSessionFile
        do {
            session = try JSONDecoder().decode(FirefoxSessionFile.self, from: json)
        } catch let error as DecodingError {
            throw BrowserFileError(path: path, reason: reason(for: error))
        } catch {
            throw BrowserFileError(path: path, reason: "not valid JSON")
        }
        if let name = session.version?.name, name != "sessionrestore" {
            throw BrowserFileError(path: path, reason: "not a Firefox session: its version is not \"sessionrestore\"")
        }
        return session
    }

    /// One line for a decoding error, naming the JSON path but never its values.
    private static func reason(for error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            path.reduce("$") { text, key in key.intValue.map { "\(text)[\($0)]" } ?? "\(text).\(key.stringValue)" }
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON"
        case .dataCorrupted(let context):
            return "not a Firefox session: \(place(context.codingPath)) is malformed"
        case .keyNotFound(let key, let context) where context.codingPath.isEmpty && key.stringValue == "windows":
            return "not a Firefox session: no \"windows\" list"
        case .keyNotFound(let key, let context):
            return "not a Firefox session: \(place(context.codingPath)) has no \"\(key.stringValue)\""
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "not a Firefox session: the JSON is not an object"
        case .typeMismatch(let type, let context):
            return "not a Firefox session: \(place(context.codingPath)) is not \(describe(type))"
        case .valueNotFound(let type, let context):
            return "not a Firefox session: \(place(context.codingPath)) is null, not \(describe(type))"
        @unknown default:
            return "not a Firefox session"
        }
    }

    /// A JSON kind for a Swift type the session file decodes.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: String(describing: type).hasPrefix("Array<") ? "a list" : "an object"
        }
    }
}
