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
        // The document is UTF-8 JSON (RFC 8259): refuse UTF-16, UTF-32 and stray bytes first.
        if let error = encodingError(in: data) { throw error }
        let decoder = decoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw located(error, in: data)
        }
        // The JSON is sound here: no object of it may hold a key twice.
        if let duplicate = DuplicateKey.first(in: data) { throw duplicate.error(at: place(duplicate.offset, in: data)) }
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
        if let error = error as? DecodingError, case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            // Foundation's decoder says where for none of these: find it here.
            return encodingError(in: data) ?? syntaxError(in: data) ?? numberError(in: data)
                ?? .invalidArchive(location: "the document", reason: context.debugDescription)
        }
        return located(error, under: "$")
    }

    /// Turns a decoding error of a part of the document (at JSON path `root`) into
    /// one sentence with a location under `root`.
    static func located(_ error: any Error, under root: String) -> StorageError {
        guard let error = error as? DecodingError else {
            return .invalidArchive(location: root == "$" ? "the document" : root, reason: "\(error)")
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .invalidArchive(location: root, reason: "not valid JSON (\(context.debugDescription))")
        case .dataCorrupted(let context):
            return .invalidArchive(location: path(context.codingPath, under: root), reason: context.debugDescription)
        case .keyNotFound(let key, let context):
            return .invalidArchive(location: path(context.codingPath + [key], under: root), reason: "a required field is missing")
        case .typeMismatch(let type, let context):
            return .invalidArchive(location: path(context.codingPath, under: root), reason: "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return .invalidArchive(location: path(context.codingPath, under: root), reason: "expected \(describe(type)), found null")
        @unknown default:
            return .invalidArchive(location: root, reason: "\(error)")
        }
    }

    /// `$.browsers[0].tabs[2]` for a coding path (in the document's snake_case keys), from `root`.
    static func path(_ codingPath: [any CodingKey], under root: String = "$") -> String {
        codingPath.reduce(root) { path, key in
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

    /// The line and column of byte `offset`.
    private static func place(_ offset: Int, in data: Data) -> String {
        let prefix = data.prefix(offset)
        let line = prefix.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let lineStart = prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        return "line \(line), column \(offset - lineStart + 1)"
    }

    /// Where the bytes stop being UTF-8 (a document in UTF-16 or UTF-32, a stray byte).
    private static func encodingError(in data: Data) -> StorageError? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = data.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 && encoded.first == 0 {
                    // JSON text holds no NUL: this is UTF-16 or UTF-32, which the document is not.
                    return .invalidArchive(location: place(offset, in: data), reason: "not UTF-8 text (a NUL byte)")
                }
                offset += encoded.count
            case .emptyInput:
                return nil
            case .error(let length):
                return .invalidArchive(
                    location: place(offset, in: data),
                    reason: "not UTF-8 text (byte \(offset + 1)\(length > 1 ? " and the next \(length - 1)" : ""))")
            }
        }
    }

    /// Where a number no integer field can hold is (a split's `ratio` is not an integer
    /// field), when the JSON itself is sound
    /// (`1.5`, `18446744073709551617`) or when Foundation refuses a number (`1e400`).
    private static func numberError(in data: Data) -> StorageError? {
        if let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
            return firstNonInteger(in: object, path: "$")
        }
        return nil
    }

    private static func firstNonInteger(in object: Any, path: String) -> StorageError? {
        switch object {
        case let dictionary as [String: Any]:
            for key in dictionary.keys.sorted() {
                // A split's ratio is the document's one number that need not be an integer.
                if key == "ratio", dictionary[key] is NSNumber,
                   path.range(of: #"\.splits\[[0-9]+\]$"#, options: .regularExpression) != nil
                {
                    continue
                }
                if let error = firstNonInteger(in: dictionary[key]!, path: "\(path).\(key)") { return error }
            }
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let error = firstNonInteger(in: element, path: "\(path)[\(index)]") { return error }
            }
        case let number as NSNumber:
            let double = number.doubleValue
            let isInteger = double.rounded() == double && abs(double) < 9.2e18 && String(describing: number).allSatisfy { $0.isNumber || $0 == "-" }
            if !isInteger {
                return .invalidArchive(location: path, reason: "expected an integer, found \(number)")
            }
        default:
            break
        }
        return nil
    }

    /// Where the first UTF-16 surrogate escape (`\\ud800` to `\\udfff`) is, as a lone one, if there is one.
    private static func loneSurrogate(in data: Data) -> StorageError? {
        let text = String(decoding: data, as: UTF8.self)
        // A high half not followed by a low one, or a low half not preceded by a high one.
        let lone = #"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"#
            + #"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"#
        guard let range = text.range(of: lone, options: .regularExpression) else { return nil }
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: range.lowerBound)
        return .invalidArchive(location: place(offset, in: data), reason: "a UTF-16 surrogate escape without its other half")
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
            if message.contains("surrogate"), let error = loneSurrogate(in: data) { return error }
            if message.contains("not representable"),
               let literal = message.components(separatedBy: "Number ").last?.components(separatedBy: " is not").first,
               let range = data.range(of: Data(literal.utf8))
            {
                return .invalidArchive(
                    location: place(range.lowerBound, in: data), reason: "the number \(literal) is out of range")
            }
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
            guard let offset else {
                // Foundation says neither where nor why for some escapes (a lone `\\udc00`): look for one.
                return loneSurrogate(in: data) ?? .invalidArchive(location: "the document", reason: "not valid JSON")
            }
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
