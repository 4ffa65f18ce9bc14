import SessionConsumers
import SessionModel
import SessionStorage

/// Pushes the archived tabs into an ``ArchivedTabsConsumer``.
///
/// Created with the one repository it needs and its consumer, it observes the archive and
/// pushes, on the main queue only: the whole archive first, then each change with the diff
/// from the previous archive. Consolidation, lifetime and failure are as for
/// ``WebStateListMediator``.
@MainActor
public final class ArchivedTabsMediator {
    private let link: MediatorLink<[ArchivedTab], ArchivedTabsSnapshot, ArchivedTabsDiff, any ArchivedTabsConsumer>

    /// Starts observing the archive for `consumer`; the consumer's first call comes on a later main-queue turn.
    ///
    /// - Parameters:
    ///   - archive: The archive repository to observe.
    ///   - consumer: The archive's list; held weakly.
    public init(archive: any TabArchiveRepository, consumer: any ArchivedTabsConsumer) {
        link = MediatorLink(
            consumer: consumer,
            observe: { archive.observe(onChange: $0) },
            present: { ArchivedTabsSnapshot(items: $0) },
            change: { ArchivedTabsDiff.between($0.items, $1.items) },
            pushes: .init(
                configure: { $0.configure(with: $1) },
                update: { $0.update(to: $1, diff: $2) },
                unavailable: { $0.archivedTabsBecameUnavailable($1) }))
    }

    /// Whether the mediator still observes and pushes.
    public var isConnected: Bool { link.isConnected }

    /// Stops the observation: once this returns, the consumer is not called again.
    public func disconnect() {
        link.disconnect()
    }
}
