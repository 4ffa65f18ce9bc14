import SessionModel

/// Every saved tab group of a store, the most recently saved first.
public struct SavedTabGroupsSnapshot: Hashable, Sendable {
    /// The saved groups.
    public var items: [SavedTabGroup]

    /// Creates a snapshot.
    public init(items: [SavedTabGroup] = []) {
        self.items = items
    }

    /// Applies `diff` to this snapshot's groups.
    ///
    /// - Throws: ``ItemDiffError`` if the diff does not fit these groups.
    public func applying(_ diff: SavedTabGroupsDiff) throws(ItemDiffError) -> SavedTabGroupsSnapshot {
        SavedTabGroupsSnapshot(items: try diff.apply(to: items))
    }
}

/// How the saved groups change between two snapshots; see ``ItemDiff``.
public typealias SavedTabGroupsDiff = ItemDiff<SavedTabGroup>

/// Shows the saved tab groups: what a `SavedTabGroupsMediator` pushes.
///
/// Main actor. The first call is ``configure(with:)``; each later ``update(to:diff:)``
/// carries the new list and the diff from the previous one, consolidated like the tab strip's.
@MainActor
public protocol SavedTabGroupsConsumer: AnyObject {
    /// Shows the saved groups in full; always the first call.
    func configure(with snapshot: SavedTabGroupsSnapshot)

    /// Shows the saved groups' new state.
    ///
    /// - Parameters:
    ///   - snapshot: The new list.
    ///   - diff: What turns the previous list into `snapshot`, applied in order (``ItemDiff/apply(to:)``).
    func update(to snapshot: SavedTabGroupsSnapshot, diff: SavedTabGroupsDiff)

    /// The saved groups cannot be read any more; no call follows.
    func savedTabGroupsBecameUnavailable(_ reason: Unavailability)
}
