import Crypto
import Foundation

/// An account: an Ed25519 key, and its id (first 16 bytes of SHA-256 of the
/// raw public key, as 32 lowercase hex digits), as docs/sync-protocol.md says.
struct LoadAccount: Sendable {
    let key: Curve25519.Signing.PrivateKey
    let id: String

    init() {
        key = Curve25519.Signing.PrivateKey()
        id = hex(SHA256.hash(data: key.publicKey.rawRepresentation).prefix(16))
    }
}

/// A device of an account: a random lowercase UUID and its own Ed25519 key.
struct LoadDevice: Sendable {
    let account: LoadAccount
    let id: String
    let key: Curve25519.Signing.PrivateKey

    init(account: LoadAccount) {
        self.account = account
        id = randomUUID()
        key = Curve25519.Signing.PrivateKey()
    }

    private var deviceKeyBase64: String { key.publicKey.rawRepresentation.base64EncodedString() }

    /// The body of `POST /v1/devices`, signed by the account key.
    func registrationBody() throws -> Data {
        let message = Data("sessionstore-sync/v1 register\n\(account.id)\n\(id)\n\(deviceKeyBase64)".utf8)
        return try JSONEncoder().encode(Registration(
            accountID: account.id, accountKey: account.key.publicKey.rawRepresentation.base64EncodedString(),
            deviceID: id, deviceKey: deviceKeyBase64,
            signature: try account.key.signature(for: message).base64EncodedString()))
    }

    /// The body of `POST /v1/token`, signed by the device key.
    func tokenBody(issuedAt: Int64 = unixNow()) throws -> Data {
        let message = Data("sessionstore-sync/v1 token\n\(account.id)\n\(id)\n\(issuedAt)".utf8)
        return try JSONEncoder().encode(TokenRequest(
            accountID: account.id, deviceID: id, issuedAt: issuedAt,
            signature: try key.signature(for: message).base64EncodedString()))
    }

    private struct Registration: Encodable {
        var accountID, accountKey, deviceID, deviceKey, signature: String
        enum CodingKeys: String, CodingKey {
            case accountID = "account_id", accountKey = "account_key", deviceID = "device_id"
            case deviceKey = "device_key", signature
        }
    }

    private struct TokenRequest: Encodable {
        var accountID, deviceID: String
        var issuedAt: Int64
        var signature: String
        enum CodingKeys: String, CodingKey {
            case accountID = "account_id", deviceID = "device_id", issuedAt = "issued_at", signature
        }
    }
}

/// HS256 tokens made by the tool itself with the server's secret: an expired
/// one must be refused for its expiry alone (a fresh one made the same way is
/// the control that shows the forgery is otherwise right).
enum ForgedToken {
    static func make(secret: String, accountID: String, deviceID: String, expiresAt: Int64) -> String {
        let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let claims = base64URL(Data(#"{"sub":"\#(deviceID)","acc":"\#(accountID)","exp":\#(expiresAt)}"#.utf8))
        let input = header + "." + claims
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return input + "." + base64URL(Data(mac))
    }

    /// A token with `alg: none` and no signature.
    static func unsigned(accountID: String, deviceID: String) -> String {
        let header = base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let claims = base64URL(Data(#"{"sub":"\#(deviceID)","acc":"\#(accountID)","exp":\#(unixNow() + 600)}"#.utf8))
        return header + "." + claims + "."
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
