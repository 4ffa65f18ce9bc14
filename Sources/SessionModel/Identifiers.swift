import Foundation

// Three identifiers of the same shape: a UUID, written as lowercase canonical
// text everywhere (descriptions, Codable, SQL columns).

// MARK: - BrowserID

/// Identifies one browser (a window) and its tab list.
///
/// Wraps a `UUID`. Its text form (``description``, ``uuidString`` and its
/// `Codable` form, a single string) is the lowercase canonical UUID, such as
/// `"3f2a8c1e-0b7d-4c55-9a61-2e4f0d9b7c13"`.
public struct BrowserID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wrapped UUID.
    public let rawValue: UUID

    /// Creates a new, random identifier for a browser (one window).
    public init() {
        self.rawValue = UUID()
    }

    /// Creates an identifier that wraps `rawValue`.
    public init(rawValue: UUID) {
        self.rawValue = rawValue
    }

    /// Creates an identifier from UUID text in either case; `nil` if the text is not a UUID.
    public init?(uuidString: String) {
        guard let uuid = UUID(uuidString: uuidString) else { return nil }
        self.rawValue = uuid
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
                in: container, debugDescription: "Expected a UUID string, found \"\(text)\"."
            )
        }
        self.rawValue = uuid
    }

    /// Encodes the identifier as a single lowercase UUID string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uuidString)
    }
}

// MARK: - WebStateID

/// Identifies one tab (a WebState) across every browser of a store.
///
/// Wraps a `UUID`. Its text form (``description``, ``uuidString`` and its
/// `Codable` form, a single string) is the lowercase canonical UUID, such as
/// `"3f2a8c1e-0b7d-4c55-9a61-2e4f0d9b7c13"`.
public struct WebStateID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wrapped UUID.
    public let rawValue: UUID

    /// Creates a new, random identifier for a tab.
    public init() {
        self.rawValue = UUID()
    }

    /// Creates an identifier that wraps `rawValue`.
    public init(rawValue: UUID) {
        self.rawValue = rawValue
    }

    /// Creates an identifier from UUID text in either case; `nil` if the text is not a UUID.
    public init?(uuidString: String) {
        guard let uuid = UUID(uuidString: uuidString) else { return nil }
        self.rawValue = uuid
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
                in: container, debugDescription: "Expected a UUID string, found \"\(text)\"."
            )
        }
        self.rawValue = uuid
    }

    /// Encodes the identifier as a single lowercase UUID string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uuidString)
    }
}

// MARK: - TabGroupID

/// Identifies one tab group.
///
/// Wraps a `UUID`. Its text form (``description``, ``uuidString`` and its
/// `Codable` form, a single string) is the lowercase canonical UUID, such as
/// `"3f2a8c1e-0b7d-4c55-9a61-2e4f0d9b7c13"`.
public struct TabGroupID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wrapped UUID.
    public let rawValue: UUID

    /// Creates a new, random identifier for a tab group.
    public init() {
        self.rawValue = UUID()
    }

    /// Creates an identifier that wraps `rawValue`.
    public init(rawValue: UUID) {
        self.rawValue = rawValue
    }

    /// Creates an identifier from UUID text in either case; `nil` if the text is not a UUID.
    public init?(uuidString: String) {
        guard let uuid = UUID(uuidString: uuidString) else { return nil }
        self.rawValue = uuid
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
                in: container, debugDescription: "Expected a UUID string, found \"\(text)\"."
            )
        }
        self.rawValue = uuid
    }

    /// Encodes the identifier as a single lowercase UUID string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uuidString)
    }
}
