import Foundation
import SessionStorage

/// Makes a store a device of a sync account.
public enum SyncPairing {
    /// Pairs the store behind `storage` with the account of `seed` (a new account
    /// when `nil`): a new device identity is made, kept in `keyStore` with the
    /// seed, and sync is turned on in the store, which marks every record for
    /// the first upload. Nothing is sent until the first sync.
    ///
    /// - Returns: The credentials kept; show ``SyncCredentials/seed``'s text to pair another device.
    /// - Throws: ``SyncError/invalidKeys(path:reason:)`` when `keyStore` already
    ///   holds credentials of another account (remove them first).
    @discardableResult
    public static func pair(
        storage: SyncStorage, keyStore: any SyncKeyStore, seed: SyncSeed? = nil, deviceName: String,
        formFactor: String = "desktop"
    ) throws -> SyncCredentials {
        if var existing = try keyStore.load() {
            guard seed == nil || seed == existing.seed else {
                throw SyncError.invalidKeys(
                    path: (keyStore as? SyncKeyFile)?.path ?? "the key store",
                    reason: "they belong to account \(existing.account.accountID); remove them to pair with another account")
            }
            existing.deviceName = deviceName
            existing.formFactor = formFactor
            try keyStore.save(existing)
            try storage.enable(
                accountID: existing.account.accountID, deviceID: existing.device.deviceID, deviceName: deviceName,
                formFactor: formFactor)
            return existing
        }
        let credentials = SyncCredentials(
            seed: seed ?? .generate(), device: .generate(), deviceName: deviceName, formFactor: formFactor)
        try keyStore.save(credentials)
        try storage.enable(
            accountID: credentials.account.accountID, deviceID: credentials.device.deviceID, deviceName: deviceName,
            formFactor: formFactor)
        return credentials
    }
}
