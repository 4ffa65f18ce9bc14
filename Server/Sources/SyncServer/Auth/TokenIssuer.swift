import Crypto
import Foundation
import JWTKit

/// Signs and checks the server's HS256 bearer tokens.
public struct TokenIssuer: Sendable {
    private let keys: JWTKeyCollection
    /// How long a token is valid.
    public let lifetimeSeconds: Int

    /// An issuer signing with `secret`.
    public init(secret: [UInt8], lifetimeSeconds: Int) async {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.lifetimeSeconds = lifetimeSeconds
    }

    /// A token for the device and its expiry (seconds since 1970).
    func issue(accountID: String, deviceID: String, now: Date = Date()) async throws -> (token: String, expiresAt: Int64) {
        let expiresAt = Int64(now.timeIntervalSince1970) + Int64(lifetimeSeconds)
        let claims = TokenClaims(
            sub: SubjectClaim(value: deviceID), acc: accountID,
            exp: ExpirationClaim(value: Date(timeIntervalSince1970: TimeInterval(expiresAt))))
        return (try await keys.sign(claims), expiresAt)
    }

    /// The account and device a valid, unexpired token names, or `nil`.
    func verify(_ token: String) async -> (accountID: String, deviceID: String)? {
        guard let claims = try? await keys.verify(token, as: TokenClaims.self) else { return nil }
        return (claims.acc, claims.sub.value)
    }

    /// 32 random bytes, for a per-process secret.
    public static func randomSecret() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }
}
