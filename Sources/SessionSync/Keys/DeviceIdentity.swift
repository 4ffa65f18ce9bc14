import Crypto
import Foundation

/// One device of an account: its id and its own Ed25519 key, which signs its token requests.
public struct DeviceIdentity: Sendable {
    /// The device's id: a lowercase UUID.
    public let deviceID: String
    /// The device's signing key.
    let signingKey: Curve25519.Signing.PrivateKey

    /// A new device.
    public static func generate() -> DeviceIdentity {
        DeviceIdentity(deviceID: UUID().uuidString.lowercased(), signingKey: Curve25519.Signing.PrivateKey())
    }

    /// A device from its stored id and key (32 raw bytes).
    ///
    /// - Throws: ``SyncError/invalidKeys(path:reason:)`` when they are not a device's.
    init(deviceID: String, keyBytes: Data, path: String) throws {
        guard UUID(uuidString: deviceID) != nil, deviceID == deviceID.lowercased(),
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: keyBytes)
        else { throw SyncError.invalidKeys(path: path, reason: "its device id or key is malformed") }
        self.init(deviceID: deviceID, signingKey: key)
    }

    private init(deviceID: String, signingKey: Curve25519.Signing.PrivateKey) {
        self.deviceID = deviceID
        self.signingKey = signingKey
    }

    /// The device's public key as base64, as registered.
    public var publicKeyText: String { signingKey.publicKey.rawRepresentation.base64EncodedString() }

    /// The signed request for a token.
    func tokenSignature(accountID: String, issuedAt: Int64) throws -> Data {
        try signingKey.signature(for: Data(SyncMessages.token(
            accountID: accountID, deviceID: deviceID, issuedAt: issuedAt).utf8))
    }
}
