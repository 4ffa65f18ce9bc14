import Crypto
import Foundation
import SessionStorage

/// Seals and opens commands as docs/sync-protocol.md, "Commands", says: the
/// record format (`0x01 || nonce || ciphertext || tag`, ChaCha20-Poly1305 under
/// the record key), with associated data that binds account, sender, target,
/// command id and expiry, so the server can neither redirect a command, nor
/// replay it under another id, nor extend its life.
struct CommandSealer: Sendable {
    let account: AccountKeys

    static func associatedData(
        accountID: String, sender: String, target: String, commandID: String, expiresAt: Int64
    ) -> Data {
        Data("sessionstore-command/v1\n\(accountID)\n\(sender)\n\(target)\n\(commandID)\n\(expiresAt)".utf8)
    }

    /// Seals `command` from `sender` to `target`.
    func seal(_ command: SyncCommand, id: String, sender: String, target: String, expiresAt: Int64) throws -> Data {
        try seal(payload: SyncCommandCoding.encoder.encode(command), id: id, sender: sender, target: target, expiresAt: expiresAt)
    }

    /// Seals a command's JSON payload from `sender` to `target`.
    func seal(payload: Data, id: String, sender: String, target: String, expiresAt: Int64) throws -> Data {
        let box = try ChaChaPoly.seal(
            payload, using: account.recordKey,
            authenticating: Self.associatedData(
                accountID: account.accountID, sender: sender, target: target, commandID: id, expiresAt: expiresAt))
        var sealed = Data([RecordSealer.formatVersion])
        sealed.append(box.combined)
        return sealed
    }

    /// Opens a command for `target`, or `nil` when it does not authenticate
    /// (tampered, foreign, redirected) or is not a command this library knows.
    func open(_ sealed: Data, id: String, sender: String, target: String, expiresAt: Int64) -> SyncCommand? {
        guard sealed.count > RecordSealer.overhead, sealed.first == RecordSealer.formatVersion,
              let box = try? ChaChaPoly.SealedBox(combined: sealed.dropFirst()),
              let plain = try? ChaChaPoly.open(
                box, using: account.recordKey,
                authenticating: Self.associatedData(
                    accountID: account.accountID, sender: sender, target: target, commandID: id, expiresAt: expiresAt))
        else { return nil }
        return try? SyncCommandCoding.decoder.decode(SyncCommand.self, from: plain)
    }
}
