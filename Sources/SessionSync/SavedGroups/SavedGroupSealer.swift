import Crypto
import Foundation

/// One account-wide saved-group record, opened: a group's header or one of its tabs.
package enum SavedGroupRecord: Hashable, Sendable {
    /// A `saved_group` record.
    case header(SavedGroupHeader)
    /// A `saved_group_tab` record.
    case tab(SavedGroupTab)

    /// Its kind's name, as sealed.
    package var kind: String {
        switch self {
        case .header: SavedGroupSealer.headerKind
        case .tab: SavedGroupSealer.tabKind
        }
    }

    /// The group's or the tab's id.
    package var localID: String {
        switch self {
        case .header(let header): header.id
        case .tab(let tab): tab.id
        }
    }

    /// The JSON payload.
    package func encoded() throws -> Data {
        switch self {
        case .header(let header): try SavedGroupSealer.encoder.encode(header)
        case .tab(let tab): try SavedGroupSealer.encoder.encode(tab)
        }
    }

    /// A payload of `kind`.
    package static func decoded(_ data: Data, kind: String) throws -> Self {
        kind == SavedGroupSealer.headerKind
            ? .header(try JSONDecoder().decode(SavedGroupHeader.self, from: data))
            : .tab(try JSONDecoder().decode(SavedGroupTab.self, from: data))
    }
}

/// Seals and opens account-wide records (docs/sync-protocol.md, "Saved groups"): as every
/// record, with the account's record key, but with `account` in place of a device id in both
/// the record id and the associated data, so any device of the account seals and opens them.
package struct SavedGroupSealer: Sendable {
    /// The kind of a group's own record.
    package static let headerKind = "saved_group"
    /// The kind of a tab's record.
    package static let tabKind = "saved_group_tab"
    /// What stands for the device in an account-wide record's id and associated data, and what
    /// `/v1/changes` names as its device.
    package static let accountDevice = "account"
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    let account: AccountKeys

    /// A sealer for the account's saved-group records.
    package init(account: AccountKeys) {
        self.account = account
    }

    /// The record id of a record of `kind` for group or tab `localID`.
    package func recordID(kind: String, localID: String) -> String {
        account.recordID(kindName: kind, deviceID: Self.accountDevice, localID: localID)
    }

    private func associatedData(recordID: String, kind: String, version: Int64) -> Data {
        Data("sessionstore-sync/v1\n\(account.accountID)\n\(Self.accountDevice)\n\(recordID)\n\(kind)\n\(version)".utf8)
    }

    /// `0x01 || nonce || ciphertext || tag` of `payload`, a record of `kind`, as `version`.
    package func seal(_ payload: Data, recordID: String, kind: String, version: Int64) throws -> Data {
        let box = try ChaChaPoly.seal(
            payload, using: account.recordKey,
            authenticating: associatedData(recordID: recordID, kind: kind, version: version))
        var sealed = Data([RecordSealer.formatVersion])
        sealed.append(box.combined)
        return sealed
    }

    /// Opens an account-wide record; `nil` when it authenticates under neither kind, or its
    /// content names another group or tab than its id says (tampered, foreign, or moved).
    package func open(_ sealed: Data, recordID: String, version: Int64) -> SavedGroupRecord? {
        guard sealed.count > RecordSealer.overhead, sealed.first == RecordSealer.formatVersion,
              let box = try? ChaChaPoly.SealedBox(combined: sealed.dropFirst())
        else { return nil }
        for kind in [Self.headerKind, Self.tabKind] {
            guard let plain = try? ChaChaPoly.open(
                box, using: account.recordKey,
                authenticating: associatedData(recordID: recordID, kind: kind, version: version))
            else { continue }
            guard let record = try? SavedGroupRecord.decoded(plain, kind: kind),
                  self.recordID(kind: kind, localID: record.localID) == recordID
            else { return nil }
            return record
        }
        return nil
    }
}
