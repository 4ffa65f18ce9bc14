/// Shows one tab's back/forward state: what a `NavigationHistoryMediator` pushes.
///
/// Main actor. The first call is ``configure(with:)``; each later
/// ``update(to:)`` carries a state that differs from the previous one.
/// Updates are consolidated like the tab strip's: at most one per committed
/// transaction and per main-queue turn, and the last state always arrives.
/// A history is short (75 entries at most), so updates carry the whole state.
@MainActor
public protocol NavigationHistoryConsumer: AnyObject {
    /// Shows the state in full; always the first call.
    func configure(with state: NavigationHistoryState)

    /// Shows the tab's new state.
    func update(to state: NavigationHistoryState)

    /// The history cannot be read any more (the tab is gone, or the store failed); no call follows.
    func historyBecameUnavailable(_ reason: Unavailability)
}
