import Foundation
import SessionConsumers
import SessionMediators
import SessionStorage

/// Pushes the account's other devices, with their windows, tabs and each tab's
/// current page, into an ``OtherDevicesConsumer``, on the main queue only.
///
/// It reads the store's cache of other devices' records, so it works offline
/// and after a restart; a sync that brings records (in this process or
/// another) pushes the new state. Consolidation, lifetime and failure are as
/// for the store's other mediators (`WebStateListMediator`).
@MainActor
public final class OtherDevicesMediator {
    private let link: MediatorLink<[RemoteDevice], OtherDevicesSnapshot, Void, any OtherDevicesConsumer>

    /// How long a device may be silent before it is hidden: the server's
    /// `hide_device_days` (28).
    nonisolated public static let defaultHidingAge: TimeInterval = 28 * 24 * 3600

    /// Starts observing the other devices for `consumer`; its first call comes on a later main-queue turn.
    ///
    /// - Parameters:
    ///   - sync: The store's sync storage.
    ///   - consumer: The view; held weakly.
    ///   - hidingAge: Devices last seen longer ago go to ``OtherDevicesSnapshot/hiddenDevices``.
    public init(sync: SyncStorage, consumer: any OtherDevicesConsumer, hidingAge: TimeInterval = defaultHidingAge) {
        link = MediatorLink(
            consumer: consumer,
            observe: { sync.observeRemoteDevices(onChange: $0) },
            present: { OtherDevicesSnapshot(all: $0, hidingBefore: Date().addingTimeInterval(-hidingAge)) },
            change: { _, _ in },
            pushes: .init(
                configure: { $0.configure(with: $1) },
                update: { consumer, snapshot, _ in consumer.update(to: snapshot) },
                unavailable: { $0.otherDevicesBecameUnavailable($1) }))
    }

    /// Whether the mediator still observes and pushes.
    public var isConnected: Bool { link.isConnected }

    /// Stops the observation: once this returns, the consumer is not called again.
    public func disconnect() {
        link.disconnect()
    }
}
