import SessionMediators

/// When ``SyncClient/run()`` uploads what the outbox gained: the first change
/// after a quiet period leaves at once, and the changes of a burst are
/// coalesced, with the rule the mediators pace their deliveries by
/// (`DeliveryPacing`), at bounds for an upload, which costs a round trip and
/// counts against the server's allowance (`uploads_per_second`, 10 by default,
/// counted per request):
///
/// - A change 250 ms or more after the one before it is the user's own pace:
///   it leaves at once. Such changes come at most 4 a second.
/// - Closer changes are a burst: an upload waits for the end of the interval
///   since the last upload, 100 ms at first (one upload's share of 10 a
///   second), doubling with each upload of the burst up to 250 ms, so a long
///   burst uploads 4 times a second and none of its changes waits longer.
/// - 500 ms without an upload ends a burst.
///
/// Whatever the pattern of changes, the uploads stay within the server's
/// allowance (a bucket of 10, refilled at 10 a second): the worst, a change at
/// the user's pace right after each upload of a burst, makes 8 a second.
///
/// A positive ``SyncClient/Configuration/debounce`` replaces this with the fixed
/// wait of earlier versions: every upload waits that long after the change
/// that woke it.
///
/// A value type with the clock passed in, so its decisions can be replayed.
struct UploadPacing: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// The bounds of the pacing rule for uploads.
    static let bounds = DeliveryPacing.Bounds(
        userPace: .milliseconds(250), minimumInterval: .milliseconds(100), maximumInterval: .milliseconds(250),
        quietPeriod: .milliseconds(500))

    private var pacing = DeliveryPacing(bounds: Self.bounds)
    /// The fixed wait before each upload; zero paces instead.
    let debounce: Duration

    /// A pacing for a client whose configuration has `debounce`.
    init(debounce: Duration) {
        self.debounce = debounce
    }

    /// The outbox gained or changed a record at `now`.
    mutating func changed(at now: Instant) {
        pacing.arrived(at: now)
    }

    /// How long, from `now`, the upload of what the outbox holds waits.
    mutating func wait(at now: Instant) -> Duration {
        debounce > .zero ? debounce : pacing.delay(at: now)
    }

    /// An upload that sent something started at `start`.
    mutating func uploaded(at start: Instant) {
        pacing.delivering(at: start)
    }
}
