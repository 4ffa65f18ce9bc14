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

    /// Moves the store to another account: the one of `seed`, or a new one when
    /// `nil`. Run it after revoking a device that may still hold the seed: on one
    /// device with no seed (it prints the new one), then with that seed on each
    /// remaining device. The device gets a new identity in the new account, keeps
    /// its name, and sends every record again at the next sync; the other
    /// devices' records of the old account are forgotten. The old account stays
    /// on the server until deleted (``SyncClient/deleteAccount()``, before rotating).
    ///
    /// - Throws: ``SyncError/notPaired(path:)`` when the store was never paired.
    @discardableResult
    public static func rotate(storage: SyncStorage, keyStore: any SyncKeyStore, seed: SyncSeed? = nil) throws
        -> SyncCredentials
    {
        guard let existing = try keyStore.load() else {
            throw SyncError.notPaired(path: (keyStore as? SyncKeyFile)?.path ?? "the key store")
        }
        let credentials = SyncCredentials(
            seed: seed ?? .generate(), device: .generate(), deviceName: existing.deviceName,
            formFactor: existing.formFactor)
        try keyStore.save(credentials)
        try storage.enable(
            accountID: credentials.account.accountID, deviceID: credentials.device.deviceID,
            deviceName: existing.deviceName, formFactor: existing.formFactor)
        return credentials
    }
}
