import Crypto
import Foundation

/// An account's seed: 32 random bytes from which every key of the account derives.
///
/// The first device makes it; another device joins the account by being given
/// it, as ``text`` (base64url without padding, 43 characters). It never reaches
/// the server and is never written to the session file.
public struct SyncSeed: Sendable, Hashable {
    /// The seed's bytes.
    public let bytes: Data

    /// A new random seed.
    public static func generate() -> SyncSeed {
        SyncSeed(checked: Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }))
    }

    private init(checked bytes: Data) {
        self.bytes = bytes
    }

    /// The seed of 32 bytes.
    ///
    /// - Throws: ``SyncError/invalidSeed(_:)`` for another length.
    public init(bytes: Data) throws {
        guard bytes.count == 32 else {
            throw SyncError.invalidSeed("a seed is 32 bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// The seed shown as text: base64url (standard base64 accepted too, with or without padding).
    ///
    /// - Throws: ``SyncError/invalidSeed(_:)`` when the text is not 32 bytes in base64.
    public init(text: String) throws {
        var base64 = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let bytes = Data(base64Encoded: base64) else {
            throw SyncError.invalidSeed("the seed is not base64 text")
        }
        try self.init(bytes: bytes)
    }

    /// The seed as base64url text without padding, to pair another device.
    public var text: String {
        bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
