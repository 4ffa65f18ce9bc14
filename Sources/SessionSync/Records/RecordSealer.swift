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
        return (recordID, try sealing(payload, recordID: recordID, kind: content.kind, deviceID: deviceID, version: version))
    }

    /// `0x01 || nonce || ciphertext || tag` of `plaintext`, bound to its place (``associatedData``).
    private func sealing(
        _ plaintext: Data, recordID: String, kind: SyncRecordKind, deviceID: String, version: Int64
    ) throws -> Data {
        let box = try ChaChaPoly.seal(
            plaintext, using: account.recordKey,
            authenticating: Self.associatedData(
                accountID: account.accountID, deviceID: deviceID, recordID: recordID, kind: kind, version: version))
        var sealed = Data([Self.formatVersion])
        sealed.append(box.combined)
        return sealed
    }

    /// The payload of a sealed tombstone (protocol version 2).
    static let tombstonePayload = Data(#"{"deleted":true,"v":2}"#.utf8)

    /// Seals the deletion of this device's record `localID` of `kind` as
    /// `version`: a tombstone that readers can tell from one the server made up.
    package func sealTombstone(
        kind: SyncRecordKind, localID: String, deviceID: String, version: Int64
    ) throws -> (recordID: String, sealed: Data) {
        let recordID = account.recordID(kind: kind, deviceID: deviceID, localID: localID)
        return (recordID, try sealTombstone(recordID: recordID, kind: kind, deviceID: deviceID, version: version))
    }

    /// Seals the deletion of this device's record `recordID` of `kind` as `version`.
    package func sealTombstone(recordID: String, kind: SyncRecordKind, deviceID: String, version: Int64) throws -> Data {
        try sealing(Self.tombstonePayload, recordID: recordID, kind: kind, deviceID: deviceID, version: version)
    }

    /// What a sealed record holds once opened.
    package enum Opened {
        /// A record's content and its payload as received.
        case content(SyncRecordContent, payload: String)
        /// A sealed tombstone: the device deleted the record of this kind.
        case deleted(SyncRecordKind)
    }

    /// Opens a record of `deviceID`: its content and payload, or `nil` when it
    /// authenticates under no kind or names another record (tampered or foreign).
    package func open(
        _ sealed: Data, recordID: String, deviceID: String, version: Int64
    ) -> (content: SyncRecordContent, payload: String)? {
        guard case .content(let content, let payload)? = opened(
            sealed, recordID: recordID, deviceID: deviceID, version: version)
        else { return nil }
        return (content, payload)
    }

    /// Opens a record or a sealed tombstone of `deviceID`; `nil` when it
    /// authenticates under no kind or names another record (tampered or foreign).
    package func opened(_ sealed: Data, recordID: String, deviceID: String, version: Int64) -> Opened? {
        guard sealed.count > Self.overhead, sealed.first == Self.formatVersion,
              let box = try? ChaChaPoly.SealedBox(combined: sealed.dropFirst())
        else { return nil }
        for kind in Self.openingOrder {
            let aad = Self.associatedData(
                accountID: account.accountID, deviceID: deviceID, recordID: recordID, kind: kind, version: version)
            guard let plain = try? ChaChaPoly.open(box, using: account.recordKey, authenticating: aad) else { continue }
            // A tombstone's payload is a few bytes; a record's is hundreds (decoding every record twice
            // doubled the cost of a cold start).
            if plain.count <= Self.largestTombstonePayload,
               let marker = try? JSONDecoder().decode(TombstonePayload.self, from: plain), marker.deleted
            {
                return .deleted(kind)
            }
            guard let content = try? SyncRecordContent.decoded(plain, kind: kind),
                  account.recordID(kind: kind, deviceID: deviceID, localID: content.localID(deviceID: deviceID)) == recordID
            else { return nil }
            return .content(content, payload: String(decoding: plain, as: UTF8.self))
        }
        return nil
    }

    /// The longest plaintext read as a tombstone (`{"deleted":true,"v":2}` and room for a few more fields).
    static let largestTombstonePayload = 256

    /// The payload of a sealed tombstone: `{"v": 2, "deleted": true}`.
    private struct TombstonePayload: Decodable {
        var deleted: Bool
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
