import JWTKit

/// The claims of a bearer token: the device (`sub`), its account (`acc`) and
/// the expiry (`exp`).
struct TokenClaims: JWTPayload {
    var sub: SubjectClaim
    var acc: String
    var exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
