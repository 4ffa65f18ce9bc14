import Crypto
import Foundation

/// The key rules of the protocol's "Keys" section that the server checks.
public enum AccountIdentity {
    /// The account id of an Ed25519 public key: the first 16 bytes of
    /// SHA-256 of the 32 raw key bytes, as 32 lowercase hex digits.
    public static func accountID(publicKey: some DataProtocol) -> String {
        Hex.encode(SHA256.hash(data: publicKey).prefix(16))
    }

    /// The message an account key signs to register a device.
    public static func registrationMessage(accountID: String, deviceID: String, deviceKeyBase64: String) -> Data {
        Data("sessionstore-sync/v1 register\n\(accountID)\n\(deviceID)\n\(deviceKeyBase64)".utf8)
    }

    /// The message a device key signs to ask for a token.
    public static func tokenMessage(accountID: String, deviceID: String, issuedAt: Int64) -> Data {
        Data("sessionstore-sync/v1 token\n\(accountID)\n\(deviceID)\n\(issuedAt)".utf8)
    }

    /// The message the account key signs to revoke a device (protocol version 2).
    public static func revocationMessage(accountID: String, deviceID: String, revokedAt: Int64) -> Data {
        Data("sessionstore-sync/v2 revoke\n\(accountID)\n\(deviceID)\n\(revokedAt)".utf8)
    }

    /// Whether `signature` is `publicKey`'s Ed25519 signature of `message`.
    static func verify(signature: Data, of message: Data, publicKey: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
    }

    /// Whether `string` is a UUID in lowercase canonical form.
    static func isLowercaseUUID(_ string: String) -> Bool {
        guard let uuid = UUID(uuidString: string) else { return false }
        return uuid.uuidString.lowercased() == string
    }
}
