/// Shows one browser's tab strip: what a `WebStateListMediator` pushes.
///
/// Main actor. The first call is ``configure(with:)`` with the full strip;
/// each later ``update(to:diff:)`` carries the new strip and the diff that
/// turns the previous one into it. Updates are consolidated: at most one per
/// committed transaction and per main-queue turn, never one that changes
/// nothing, and the last state always arrives.
@MainActor
public protocol WebStateListConsumer: AnyObject {
    /// Shows the strip in full; always the first call.
    func configure(with snapshot: TabStripSnapshot)

    /// Shows the strip's new state.
    ///
    /// - Parameters:
    ///   - snapshot: The new strip.
    ///   - diff: What turns the previous strip into `snapshot`, applied in order (``ItemDiff/apply(to:)``).
    func update(to snapshot: TabStripSnapshot, diff: TabStripDiff)

    /// The strip is gone (its browser was closed) or cannot be read; no call follows.
    func tabStripBecameUnavailable(_ reason: Unavailability)
}
