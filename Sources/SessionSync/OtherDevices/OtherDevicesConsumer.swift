import Foundation
import SessionConsumers
import SessionStorage

/// The account's other devices as a "Tabs from other devices" view shows them.
public struct OtherDevicesSnapshot: Sendable, Hashable {
    /// The devices, most recently seen first, each with its windows and tabs.
    public var devices: [RemoteDevice]
    /// Devices silent for longer than the mediator's hiding age (28 days by
    /// default): a view lists them apart, or not at all. Their tabs are not in
    /// ``tabCount``.
    public var hiddenDevices: [RemoteDevice]

    /// Creates a snapshot.
    public init(devices: [RemoteDevice], hiddenDevices: [RemoteDevice] = []) {
        self.devices = devices
        self.hiddenDevices = hiddenDevices
    }

    /// The devices last seen before `cutoff` go to ``hiddenDevices``.
    init(all: [RemoteDevice], hidingBefore cutoff: Date) {
        let silent = { (device: RemoteDevice) in (device.lastSeenAt ?? .distantPast) < cutoff }
        self.init(devices: all.filter { !silent($0) }, hiddenDevices: all.filter(silent))
    }

    /// Every open tab of every other device.
    public var tabCount: Int { devices.reduce(0) { $0 + $1.tabCount } }
}

/// Shows the other devices: what an ``OtherDevicesMediator`` pushes.
///
/// Main actor. The first call is ``configure(with:)``; each later
/// ``update(to:)`` carries the whole new snapshot (value types only).
@MainActor
public protocol OtherDevicesConsumer: AnyObject {
    /// Shows the devices in full; always the first call.
    func configure(with snapshot: OtherDevicesSnapshot)

    /// Shows the devices' new state.
    func update(to snapshot: OtherDevicesSnapshot)

    /// The devices cannot be read any more; no call follows.
    func otherDevicesBecameUnavailable(_ reason: Unavailability)
}
