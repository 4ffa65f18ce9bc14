import Crypto
import Foundation

/// An account made exactly as docs/sync-protocol.md ("Keys") says: every key
/// is HKDF-SHA256 of the 32-byte seed, salt `sessionstore-sync/v1`.
struct TestAccount: Sendable {
    let seed: [UInt8]
    let signingKey: Curve25519.Signing.PrivateKey
    let encryptionKey: SymmetricKey
    let recordIDKey: SymmetricKey

    init(seed: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }) {
        self.seed = seed
        signingKey = try! Curve25519.Signing.PrivateKey(rawRepresentation: Self.derive(seed, info: "account-signing").withUnsafeBytes { Data($0) })
        encryptionKey = Self.derive(seed, info: "record-encryption")
        recordIDKey = Self.derive(seed, info: "record-id")
    }

    static func derive(_ seed: [UInt8], info: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: seed), salt: Data("sessionstore-sync/v1".utf8),
            info: Data(info.utf8), outputByteCount: 32)
    }

    /// The raw Ed25519 public key.
    var publicKey: Data { signingKey.publicKey.rawRepresentation }

    /// First 16 bytes of SHA-256 of the public key, as 32 lowercase hex digits.
    var accountID: String { hex(SHA256.hash(data: publicKey).prefix(16)) }

    /// The record id of a device's local id of `kind`.
    func recordID(kind: String, deviceID: String, localID: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("\(kind)\n\(deviceID)\n\(localID)".utf8), using: recordIDKey)
        return hex(Data(mac).prefix(16))
    }

    /// `0x01 || nonce || ciphertext || tag` of `payload` for that place.
    func seal(_ payload: Data, deviceID: String, recordID: String, kind: String, version: Int64) throws -> Data {
        let aad = Data("sessionstore-sync/v1\n\(accountID)\n\(deviceID)\n\(recordID)\n\(kind)\n\(version)".utf8)
        let box = try ChaChaPoly.seal(payload, using: encryptionKey, authenticating: aad)
        return Data([0x01]) + box.combined
    }

    /// The body of `DELETE /v1/devices/{id}`: the account key's statement that `deviceID` is revoked.
    func revocation(of deviceID: String, at revokedAt: Int64 = Int64(Date().timeIntervalSince1970),
                    signedBy signer: Curve25519.Signing.PrivateKey? = nil) throws -> [String: Any] {
        let message = Data("sessionstore-sync/v2 revoke\n\(accountID)\n\(deviceID)\n\(revokedAt)".utf8)
        return ["revoked_at": revokedAt, "signature": try (signer ?? signingKey).signature(for: message).base64EncodedString()]
    }

    /// Opens a sealed record (to check what the server returned).
    func open(_ sealed: Data, deviceID: String, recordID: String, kind: String, version: Int64) throws -> Data {
        let aad = Data("sessionstore-sync/v1\n\(accountID)\n\(deviceID)\n\(recordID)\n\(kind)\n\(version)".utf8)
        let box = try ChaChaPoly.SealedBox(combined: sealed.dropFirst())
        return try ChaChaPoly.open(box, using: encryptionKey, authenticating: aad)
    }
}

/// A device: a random lowercase UUID and its own Ed25519 key.
struct TestDevice: Sendable {
    let account: TestAccount
    let id: String
    let key: Curve25519.Signing.PrivateKey

    init(account: TestAccount, id: String = UUID().uuidString.lowercased(), key: Curve25519.Signing.PrivateKey = .init()) {
        self.account = account
        self.id = id
        self.key = key
    }

    var publicKeyBase64: String { key.publicKey.rawRepresentation.base64EncodedString() }

    /// The body of `POST /v1/devices`, signed by the account key.
    func registration(signedBy signer: Curve25519.Signing.PrivateKey? = nil, accountID: String? = nil) throws -> [String: Any] {
        let accountID = accountID ?? account.accountID
        let message = Data("sessionstore-sync/v1 register\n\(accountID)\n\(id)\n\(publicKeyBase64)".utf8)
        let signature = try (signer ?? account.signingKey).signature(for: message)
        return [
            "account_id": accountID, "account_key": account.publicKey.base64EncodedString(),
            "device_id": id, "device_key": publicKeyBase64, "signature": signature.base64EncodedString(),
        ]
    }

    /// The body of `POST /v1/token`, signed by the device key.
    func tokenRequest(issuedAt: Int64 = Int64(Date().timeIntervalSince1970)) throws -> [String: Any] {
        let message = Data("sessionstore-sync/v1 token\n\(account.accountID)\n\(id)\n\(issuedAt)".utf8)
        return [
            "account_id": account.accountID, "device_id": id, "issued_at": issuedAt,
            "signature": try key.signature(for: message).base64EncodedString(),
        ]
    }

    /// One upload record of a sealed tab payload.
    func tabRecord(localID: String = UUID().uuidString.lowercased(), version: Int64, title: String = "t",
                   expiresAt: Int64? = nil) throws -> [String: Any] {
        let recordID = account.recordID(kind: "tab", deviceID: id, localID: localID)
        let payload = try JSONSerialization.data(withJSONObject: ["v": 1, "id": localID, "title": title])
        let sealed = try account.seal(payload, deviceID: id, recordID: recordID, kind: "tab", version: version)
        var record: [String: Any] = [
            "id": recordID, "version": version, "tombstone": false, "sealed": sealed.base64EncodedString(),
        ]
        if let expiresAt { record["expires_at"] = expiresAt }
        return record
    }
}

func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
