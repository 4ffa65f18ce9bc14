import Foundation

extension SessionArchive {
    /// Reads a document, checking its format and version before anything else.
    ///
    /// - Throws: ``StorageError/invalidArchive(location:reason:)`` naming the
    ///   JSON path (`$.browsers[0].tabs[2].history`) or, for malformed JSON, the
    ///   line and column where reading failed.
    public static func decode(from data: Data) throws -> SessionArchive {
        struct Header: Decodable {
            var format: String?
            var version: Int?
        }
        let decoder = decoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw located(error, in: data)
        }
        guard header.format == formatName else {
            throw StorageError.invalidArchive(
                location: "$.format", reason: "expected \"\(formatName)\", found \(header.format.map { "\"\($0)\"" } ?? "nothing")")
        }
        guard header.version == currentVersion else {
            throw StorageError.invalidArchive(
                location: "$.version",
                reason: "unknown format version \(header.version.map(String.init) ?? "(none)"); this tool reads version \(currentVersion)")
        }
        do {
            return try decoder.decode(SessionArchive.self, from: data)
        } catch {
            throw located(error, in: data)
        }
    }

    /// Turns a decoding error into one sentence with a location.
    private static func located(_ error: any Error, in data: Data) -> StorageError {
        guard let error = error as? DecodingError else {
            return .invalidArchive(location: "the document", reason: "\(error)")
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return syntaxError(in: data) ?? .invalidArchive(location: "the document", reason: context.debugDescription)
        case .dataCorrupted(let context):
            return .invalidArchive(location: path(context.codingPath), reason: context.debugDescription)
        case .keyNotFound(let key, let context):
            return .invalidArchive(location: path(context.codingPath + [key]), reason: "a required field is missing")
        case .typeMismatch(let type, let context):
            return .invalidArchive(location: path(context.codingPath), reason: "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return .invalidArchive(location: path(context.codingPath), reason: "expected \(describe(type)), found null")
        @unknown default:
            return .invalidArchive(location: "the document", reason: "\(error)")
        }
    }

    /// `$.browsers[0].tabs[2]` for a coding path (in the document's snake_case keys).
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in
            if let index = key.intValue { return "\(path)[\(index)]" }
            return "\(path).\(snakeCase(key.stringValue))"
        }
    }

    private static func snakeCase(_ key: String) -> String {
        var result = ""
        for character in key {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Bool.Type: "true or false"
        case is Double.Type: "a number"
        default: "a value of another shape"
        }
    }

    /// Where and why the bytes are not JSON. Foundation's decoder does not say
    /// where on Linux; its JSONSerialization gives a byte offset, turned here
    /// into a line and column.
    private static func syntaxError(in data: Data) -> StorageError? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let message = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            if message.contains("end of file") || data.isEmpty {
                return .invalidArchive(location: "the end of the document", reason: "the JSON is cut short")
            }
            var offset: Int?
            for marker in ["around character ", " at "] {
                if let range = message.range(of: marker, options: .backwards) {
                    offset = Int(message[range.upperBound...].prefix { $0.isNumber })
                    if offset != nil { break }
                }
            }
            guard let offset else { return .invalidArchive(location: "the document", reason: "not valid JSON") }
            let prefix = data.prefix(offset)
            let line = prefix.filter { $0 == UInt8(ascii: "\n") }.count + 1
            let lineStart = prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            let reason = message.components(separatedBy: " around").first ?? message
            return .invalidArchive(
                location: "line \(line), column \(offset - lineStart + 1)",
                reason: "not valid JSON (\(reason.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "."))))")
        }
    }
}
