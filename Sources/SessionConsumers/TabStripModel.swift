import Observation
import SessionModel

/// A ready-made ``WebStateListConsumer`` that SwiftUI, or any client of the
/// Observation framework, can watch.
///
/// Hand it to a `WebStateListMediator` as its consumer; its properties change on
/// the main actor as the mediator pushes, and observers are told:
///
///     let model = TabStripModel()
///     let mediator = WebStateListMediator(browser: id, tabs: tabs, consumer: model)
///     // SwiftUI: ForEach(model.snapshot?.items ?? []) { tab in TabView(tab) }
///
/// The mediator holds its consumer weakly: keep the model (and the mediator) alive
/// for as long as the strip is shown.
@Observable
@MainActor
public final class TabStripModel: WebStateListConsumer {
    /// The strip as last pushed; `nil` until the mediator's first push.
    public private(set) var snapshot: TabStripSnapshot?
    /// The diff of the last update; `nil` after the first, full push.
    public private(set) var lastDiff: TabStripDiff?
    /// Why the strip is gone, once it is (its browser closed, or the store failed).
    public private(set) var unavailability: Unavailability?

    /// An empty model, waiting for its mediator's first push.
    public init() {}

    /// Shows the full strip.
    public func configure(with snapshot: TabStripSnapshot) {
        self.snapshot = snapshot
        lastDiff = nil
    }

    /// Shows the strip's new state.
    public func update(to snapshot: TabStripSnapshot, diff: TabStripDiff) {
        self.snapshot = snapshot
        lastDiff = diff
    }

    /// Records why the strip is gone.
    public func tabStripBecameUnavailable(_ reason: Unavailability) {
        unavailability = reason
    }
}
