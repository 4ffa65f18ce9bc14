import Crypto
import Foundation
import SessionStorage

/// The keys an account's seed derives (docs/sync-protocol.md, "Keys"): HKDF-SHA256
/// with salt `sessionstore-sync/v1`, one 32-byte key per purpose.
public struct AccountKeys: Sendable {
    /// The account's id: 32 hex digits of SHA-256 of its signing public key.
    public let accountID: String
    /// Signs device registrations.
    let signingKey: Curve25519.Signing.PrivateKey
    /// Seals every record of the account.
    let recordKey: SymmetricKey
    /// Turns local ids into record ids.
    let recordIDKey: SymmetricKey

    /// The salt of every derivation.
    static let salt = Data("sessionstore-sync/v1".utf8)

    /// Derives the account's keys from its seed.
    public init(seed: SyncSeed) {
        let input = SymmetricKey(data: seed.bytes)
        func derive(_ info: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: input, salt: Self.salt, info: Data(info.utf8), outputByteCount: 32)
        }
        let signingSeed = derive("account-signing").withUnsafeBytes { Data($0) }
        // 32 bytes is always a valid Ed25519 private key.
        signingKey = try! Curve25519.Signing.PrivateKey(rawRepresentation: signingSeed)
        recordKey = derive("record-encryption")
        recordIDKey = derive("record-id")
        accountID = Self.accountID(of: signingKey.publicKey.rawRepresentation)
    }

    /// The account id belonging to an Ed25519 public key.
    public static func accountID(of publicKey: Data) -> String {
        SHA256.hash(data: publicKey).prefix(16).hexText
    }

    /// The account's public key, as the server learns it.
    public var publicKey: Data { signingKey.publicKey.rawRepresentation }

    /// The record id of a device's local record: 32 hex digits of
    /// HMAC-SHA256(kind, device id, local id). The device is part of it: two devices
    /// holding the same tab (a session imported on both) publish two records.
    package func recordID(kind: SyncRecordKind, deviceID: String, localID: String) -> String {
        recordID(kindName: kind.rawValue, deviceID: deviceID, localID: localID)
    }

    /// The record id of a record of kind `kindName`: an account-wide record's `deviceID` is `account`.
    package func recordID(kindName: String, deviceID: String, localID: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Data("\(kindName)\n\(deviceID)\n\(localID)".utf8), using: recordIDKey)
        return Data(code).prefix(16).hexText
    }

    /// The account's signature of a device's revocation (protocol version 2).
    func revocationSignature(deviceID: String, revokedAt: Int64) throws -> Data {
        try signingKey.signature(for: Data(SyncMessages.revocation(
            accountID: accountID, deviceID: deviceID, revokedAt: revokedAt).utf8))
    }

    /// Whether `signature` is the account's signature of `deviceID`'s revocation at `revokedAt`.
    func verifiesRevocation(of deviceID: String, revokedAt: Int64, signature: Data) -> Bool {
        signingKey.publicKey.isValidSignature(
            signature, for: Data(SyncMessages.revocation(accountID: accountID, deviceID: deviceID, revokedAt: revokedAt).utf8))
    }

    /// The account's signature of a device's registration.
    func registrationSignature(deviceID: String, deviceKey: String) throws -> Data {
        try signingKey.signature(for: Data(SyncMessages.registration(
            accountID: accountID, deviceID: deviceID, deviceKey: deviceKey).utf8))
    }
}

/// The texts that are signed (docs/sync-protocol.md, "HTTP API").
enum SyncMessages {
    static func registration(accountID: String, deviceID: String, deviceKey: String) -> String {
        "sessionstore-sync/v1 register\n\(accountID)\n\(deviceID)\n\(deviceKey)"
    }

    static func revocation(accountID: String, deviceID: String, revokedAt: Int64) -> String {
        "sessionstore-sync/v2 revoke\n\(accountID)\n\(deviceID)\n\(revokedAt)"
    }

    static func token(accountID: String, deviceID: String, issuedAt: Int64) -> String {
        "sessionstore-sync/v1 token\n\(accountID)\n\(deviceID)\n\(issuedAt)"
    }
}

extension Sequence<UInt8> {
    /// The bytes as lowercase hex digits.
    var hexText: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
