import Foundation
import Logging

/// Where the token secret comes from: a file, the environment, or a fresh
/// random value per process.
enum JWTSecret {
    /// The environment variable holding the secret.
    static let environmentVariable = "SESSIONSTORE_SYNC_JWT_SECRET"

    /// The secret from `file` (trailing whitespace trimmed), else from the
    /// environment, else random (logged: tokens won't survive a restart).
    static func load(file: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                     logger: Logger) throws -> [UInt8] {
        if let file {
            let text = try String(contentsOfFile: file, encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { throw SecretError(message: "JWT secret file \(file) is empty") }
            return try checked(Array(text.utf8), source: file)
        }
        if let value = environment[environmentVariable], !value.isEmpty {
            return try checked(Array(value.utf8), source: "$\(environmentVariable)")
        }
        logger.warning("no JWT secret configured: using a random one; tokens won't survive a restart")
        return TokenIssuer.randomSecret()
    }

    /// HS256 wants a key at least as long as its hash: 32 bytes.
    static let minimumBytes = 32

    private static func checked(_ secret: [UInt8], source: String) throws -> [UInt8] {
        guard secret.count >= minimumBytes else {
            throw SecretError(
                message: "the JWT secret from \(source) is \(secret.count) bytes; it needs at least \(minimumBytes) "
                    + "(e.g. `openssl rand -hex 32`)")
        }
        return secret
    }

    struct SecretError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
