import SessionConsumers
import SessionModel
import SessionStorage

/// Pushes the saved tab groups into a ``SavedTabGroupsConsumer``.
///
/// Created with the one repository it needs and its consumer, it observes the saved groups
/// and pushes, on the main queue only: the whole list first, then each change with the diff
/// from the previous list. Consolidation, lifetime and failure are as for
/// ``WebStateListMediator``.
@MainActor
public final class SavedTabGroupsMediator {
    private let link: MediatorLink<[SavedTabGroup], SavedTabGroupsSnapshot, SavedTabGroupsDiff, any SavedTabGroupsConsumer>

    /// Starts observing the saved groups for `consumer`; the consumer's first call comes on a later main-queue turn.
    ///
    /// - Parameters:
    ///   - savedGroups: The saved-group repository to observe.
    ///   - consumer: The saved groups' list; held weakly.
    public init(savedGroups: any SavedTabGroupRepository, consumer: any SavedTabGroupsConsumer) {
        link = MediatorLink(
            consumer: consumer,
            observe: { savedGroups.observe(onChange: $0) },
            present: { SavedTabGroupsSnapshot(items: $0) },
            change: { SavedTabGroupsDiff.between($0.items, $1.items) },
            pushes: .init(
                configure: { $0.configure(with: $1) },
                update: { $0.update(to: $1, diff: $2) },
                unavailable: { $0.savedTabGroupsBecameUnavailable($1) }))
    }

    /// Whether the mediator still observes and pushes.
    public var isConnected: Bool { link.isConnected }

    /// Stops the observation: once this returns, the consumer is not called again.
    public func disconnect() {
        link.disconnect()
    }
}
