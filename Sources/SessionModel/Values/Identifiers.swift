import Foundation

/// An identifier that wraps a `UUID` and is written as lowercase canonical text
/// everywhere: its ``uuidString``, its description, its `Codable` form (a single
/// string) and the SQL columns that hold it, e.g. `"3f2a8c1e-0b7d-4c55-9a61-2e4f0d9b7c13"`.
public protocol UUIDIdentifier: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wrapped UUID.
    var rawValue: UUID { get }
    /// Creates an identifier that wraps `rawValue`.
    init(rawValue: UUID)
}

extension UUIDIdentifier {
    /// Creates a new, random identifier.
    public init() {
        self.init(rawValue: UUID())
    }

    /// Creates an identifier from UUID text in either case; `nil` if the text is not a UUID.
    public init?(uuidString: String) {
        guard let uuid = UUIDText.uuid(uuidString) else { return nil }
        self.init(rawValue: uuid)
    }

    /// The lowercase canonical text of the UUID.
    public var uuidString: String { UUIDText.string(rawValue) }

    /// The lowercase canonical text of the UUID.
    public var description: String { uuidString }

    /// Decodes the identifier from a single UUID string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` if the string is not a UUID.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let uuid = UUIDText.uuid(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Expected a UUID string, found \"\(text)\".")
        }
        self.init(rawValue: uuid)
    }

    /// Encodes the identifier as a single lowercase UUID string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uuidString)
    }
}

/// Identifies one browser (a window) and its tab list.
public struct BrowserID: UUIDIdentifier {
    /// The wrapped UUID.
    public let rawValue: UUID
    /// Creates an identifier that wraps `rawValue`.
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies one tab (a WebState) across every browser of a store.
public struct WebStateID: UUIDIdentifier {
    /// The wrapped UUID.
    public let rawValue: UUID
    /// Creates an identifier that wraps `rawValue`.
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies one tab group across every browser of a store.
public struct TabGroupID: UUIDIdentifier {
    /// The wrapped UUID.
    public let rawValue: UUID
    /// Creates an identifier that wraps `rawValue`.
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies one split view (two tabs shown side by side) across every browser of a store.
public struct TabSplitID: UUIDIdentifier {
    /// The wrapped UUID.
    public let rawValue: UUID
    /// Creates an identifier that wraps `rawValue`.
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// Identifies one recently closed entry (a tab, a group or a window).
public struct ClosedEntryID: UUIDIdentifier {
    /// The wrapped UUID.
    public let rawValue: UUID
    /// Creates an identifier that wraps `rawValue`.
    public init(rawValue: UUID) { self.rawValue = rawValue }
}

/// UUID text without Foundation's formatter and scanner (`sprintf` and `sscanf`
/// on Linux, a tenth of listing or exporting 100,000 tabs): the canonical
/// 8-4-4-4-12 form, read in either case, written in lowercase.
enum UUIDText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The lowercase canonical text of `uuid`.
    static func string(_ uuid: UUID) -> String {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = digits[Int(byte >> 4)]
                    text[at + 1] = digits[Int(byte & 0xF)]
                    at += 2
                }
                return 36
            }
        }
    }

    /// The UUID of canonical text in either case, or `nil` for anything else (as `UUID(uuidString:)`).
    static func uuid(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var bytes = (UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
                         UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0))
            let valid = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard utf8[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                    }
                    guard let high = value(utf8[at]), let low = value(utf8[at + 1]) else { return false }
                    out[index] = high << 4 | low
                    at += 2
                }
                return true
            }
            return valid ? UUID(uuid: bytes) : nil
        }
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
