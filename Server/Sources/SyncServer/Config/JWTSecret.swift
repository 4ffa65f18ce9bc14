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
            return Array(text.utf8)
        }
        if let value = environment[environmentVariable], !value.isEmpty {
            return Array(value.utf8)
        }
        logger.warning("no JWT secret configured: using a random one; tokens won't survive a restart")
        return TokenIssuer.randomSecret()
    }

    struct SecretError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
