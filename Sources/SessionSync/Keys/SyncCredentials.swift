import Foundation

/// What a device needs to sync: its account's seed (and the keys it derives),
/// its own identity, and the floor under its version counter.
public struct SyncCredentials: Sendable {
    /// The account's seed.
    public let seed: SyncSeed
    /// The keys derived from the seed.
    public let account: AccountKeys
    /// This device.
    public let device: DeviceIdentity
    /// No version below this was ever left unused: kept outside the session file,
    /// so a store brought back from a snapshot or a backup never reuses a version
    /// it had already sent.
    public var versionFloor: Int64
    /// The device's name and form factor, kept with the keys too, so that a store
    /// made again (by `recover`, say) names the device as before.
    public var deviceName: String
    /// `desktop`, `phone`, `tablet` or `unknown`.
    public var formFactor: String
    /// The server this device last synced with (its id, from `GET /v1/info`): the store's cursor
    /// counts that server's commits, whatever URL reaches it.
    public var serverID: String?
    /// The account's generation on that server when this device joined it; `nil` before the first
    /// sync. Another generation means the account was deleted (and perhaps made again).
    public var accountGeneration: String?

    /// Credentials of `device` in the account of `seed`.
    public init(
        seed: SyncSeed, device: DeviceIdentity, versionFloor: Int64 = 1, deviceName: String = "",
        formFactor: String = "unknown"
    ) {
        self.seed = seed
        self.account = AccountKeys(seed: seed)
        self.device = device
        self.versionFloor = versionFloor
        self.deviceName = deviceName
        self.formFactor = formFactor
    }
}

/// Where a device keeps its ``SyncCredentials``: never in the session file.
///
/// ``SyncKeyFile`` keeps them in a file of mode 0600 (Linux, tools);
/// ``KeychainSyncKeyStore`` in the Keychain (Apple platforms).
public protocol SyncKeyStore: Sendable {
    /// The credentials kept, or `nil` when there are none.
    func load() throws -> SyncCredentials?
    /// Keeps `credentials`, replacing any kept before.
    func save(_ credentials: SyncCredentials) throws
    /// Forgets the credentials.
    func remove() throws
}
