import Foundation

/// A device of the account as the server knows it: no name (names travel
/// sealed, in device records), only its id and times.
public struct SyncServerDevice: Sendable, Hashable, Identifiable {
    /// The device's id.
    public var id: String
    /// When it registered.
    public var registeredAt: Date
    /// When it last uploaded or sent a command.
    public var lastSeenAt: Date
    /// Silent for longer than the server's `hide_device_days` (28 by default):
    /// list it apart, or not at all.
    public var isHidden: Bool

    /// A device with every value given.
    public init(id: String, registeredAt: Date, lastSeenAt: Date, isHidden: Bool) {
        self.id = id
        self.registeredAt = registeredAt
        self.lastSeenAt = lastSeenAt
        self.isHidden = isHidden
    }
}
