import Crypto
import Foundation
import SessionStorage

/// Seals and opens records as docs/sync-protocol.md, "A sealed record", says:
/// `0x01 || nonce || ciphertext || tag`, ChaCha20-Poly1305 with associated data
/// that binds account, device, record id, kind and version.
package struct RecordSealer: Sendable {
    /// The largest sealed record, in bytes.
    package static let maximumSealedBytes = 16 * 1024
    /// The sealed format's version byte.
    static let formatVersion: UInt8 = 1
    /// Bytes a sealed record adds to its payload.
    static let overhead = 1 + 12 + 16
    /// The order a reader tries kinds in (the server does not know a record's kind).
    static let openingOrder: [SyncRecordKind] = [.tab, .device, .group, .closed]

    let account: AccountKeys

    /// A sealer for the account's records.
    package init(account: AccountKeys) {
        self.account = account
    }

    /// The associated data of a record.
    static func associatedData(
        accountID: String, deviceID: String, recordID: String, kind: SyncRecordKind, version: Int64
    ) -> Data {
        Data("sessionstore-sync/v1\n\(accountID)\n\(deviceID)\n\(recordID)\n\(kind.rawValue)\n\(version)".utf8)
    }

    /// Seals `content` of this device as `version`, trimmed to fit ``maximumSealedBytes``.
    ///
    /// A tab's farthest navigations go first (the current page stays); a
    /// current page that alone is too large keeps its URL cut to the origin.
    package func seal(
        _ content: SyncRecordContent, localID: String, deviceID: String, version: Int64
    ) throws -> (recordID: String, sealed: Data) {
        let recordID = account.recordID(kind: content.kind, deviceID: deviceID, localID: localID)
        let payload = try RecordTrimmer.fitting(content, within: Self.maximumSealedBytes - Self.overhead)
        let box = try ChaChaPoly.seal(
            payload, using: account.recordKey,
            authenticating: Self.associatedData(
                accountID: account.accountID, deviceID: deviceID, recordID: recordID, kind: content.kind,
                version: version))
        var sealed = Data([Self.formatVersion])
        sealed.append(box.combined)
        return (recordID, sealed)
    }

    /// Opens a record of `deviceID`: its content and payload, or `nil` when it
    /// authenticates under no kind or names another record (tampered or foreign).
    package func open(
        _ sealed: Data, recordID: String, deviceID: String, version: Int64
    ) -> (content: SyncRecordContent, payload: String)? {
        guard sealed.count > Self.overhead, sealed.first == Self.formatVersion,
              let box = try? ChaChaPoly.SealedBox(combined: sealed.dropFirst())
        else { return nil }
        for kind in Self.openingOrder {
            let aad = Self.associatedData(
                accountID: account.accountID, deviceID: deviceID, recordID: recordID, kind: kind, version: version)
            guard let plain = try? ChaChaPoly.open(box, using: account.recordKey, authenticating: aad) else { continue }
            guard let content = try? SyncRecordContent.decoded(plain, kind: kind),
                  account.recordID(kind: kind, deviceID: deviceID, localID: content.localID(deviceID: deviceID)) == recordID
            else { return nil }
            return (content, String(decoding: plain, as: UTF8.self))
        }
        return nil
    }
}

extension SyncRecordContent {
    /// The local id its record id derives from.
    func localID(deviceID: String) -> String {
        switch self {
        case .device: deviceID
        case .tab(let tab): tab.id
        case .group(let group): group.id
        case .closed(let closed): closed.id
        }
    }
}
