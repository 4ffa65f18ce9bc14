import SessionModel

/// Every archived tab of a store, in the order they were archived.
public struct ArchivedTabsSnapshot: Hashable, Sendable {
    /// The archived tabs.
    public var items: [ArchivedTab]

    /// Creates a snapshot.
    public init(items: [ArchivedTab] = []) {
        self.items = items
    }

    /// Applies `diff` to this snapshot's tabs.
    ///
    /// - Throws: ``ItemDiffError`` if the diff does not fit these tabs.
    public func applying(_ diff: ArchivedTabsDiff) throws(ItemDiffError) -> ArchivedTabsSnapshot {
        ArchivedTabsSnapshot(items: try diff.apply(to: items))
    }
}

/// How the archive changes between two snapshots; see ``ItemDiff``.
public typealias ArchivedTabsDiff = ItemDiff<ArchivedTab>

/// Shows the archived tabs: what an `ArchivedTabsMediator` pushes.
///
/// Main actor. The first call is ``configure(with:)``; each later ``update(to:diff:)``
/// carries the new archive and the diff from the previous one, consolidated like the tab strip's.
@MainActor
public protocol ArchivedTabsConsumer: AnyObject {
    /// Shows the archive in full; always the first call.
    func configure(with snapshot: ArchivedTabsSnapshot)

    /// Shows the archive's new state.
    ///
    /// - Parameters:
    ///   - snapshot: The new archive.
    ///   - diff: What turns the previous archive into `snapshot`, applied in order (``ItemDiff/apply(to:)``).
    func update(to snapshot: ArchivedTabsSnapshot, diff: ArchivedTabsDiff)

    /// The archive cannot be read any more; no call follows.
    func archivedTabsBecameUnavailable(_ reason: Unavailability)
}
