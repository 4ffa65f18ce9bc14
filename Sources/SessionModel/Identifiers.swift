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
        guard let uuid = UUID(uuidString: uuidString) else { return nil }
        self.init(rawValue: uuid)
    }

    /// The lowercase canonical text of the UUID.
    public var uuidString: String { rawValue.uuidString.lowercased() }

    /// The lowercase canonical text of the UUID.
    public var description: String { uuidString }

    /// Decodes the identifier from a single UUID string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` if the string is not a UUID.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let uuid = UUID(uuidString: text) else {
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

/// Identifies one recently closed entry (a tab, a group or a window).
public struct ClosedEntryID: UUIDIdentifier {
    /// The wrapped UUID.
    public let rawValue: UUID
    /// Creates an identifier that wraps `rawValue`.
    public init(rawValue: UUID) { self.rawValue = rawValue }
}
