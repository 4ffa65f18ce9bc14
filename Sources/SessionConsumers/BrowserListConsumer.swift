/// Shows the store's windows: what a `BrowserListMediator` pushes.
///
/// Main actor. The first call is ``configure(with:)``; each later
/// ``update(to:diff:)`` carries the new list and the diff from the previous
/// one, consolidated like the tab strip's.
@MainActor
public protocol BrowserListConsumer: AnyObject {
    /// Shows the list in full; always the first call.
    func configure(with snapshot: BrowserListSnapshot)

    /// Shows the list's new state.
    ///
    /// - Parameters:
    ///   - snapshot: The new list.
    ///   - diff: What turns the previous list into `snapshot`, applied in order (``ItemDiff/apply(to:)``).
    func update(to snapshot: BrowserListSnapshot, diff: BrowserListDiff)

    /// The list cannot be read any more; no call follows.
    func browserListBecameUnavailable(_ reason: Unavailability)
}
