/// When a ``MainQueueConsolidator`` delivers the value that arrived last: at
/// once for the user's own pace, paced with a growing interval in a storm.
///
/// A value that arrives ``userPace`` or more after the one before it is the
/// user's own action (closing a tab every 100 ms is steady, not a storm): it
/// is delivered on the next turn, and the interval goes back to the shortest.
/// A value that arrives closer than that to the one before it is part of a
/// storm (an import, another process's batch): it waits for the end of the
/// current interval since the last delivery, and each delivery of the storm
/// doubles the interval, from ``minimumInterval`` up to ``maximumInterval``.
/// A storm ends after ``quietPeriod`` without a delivery.
///
/// A value type with the clock passed in, so its decisions can be replayed.
struct DeliveryPacing: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// The shortest time between two deliveries during a storm: one display frame at 30 Hz.
    static var minimumInterval: Duration { .milliseconds(33) }
    /// The longest time between two deliveries during a long storm.
    static var maximumInterval: Duration { .milliseconds(400) }
    /// How long without a delivery ends a storm.
    static var quietPeriod: Duration { .milliseconds(500) }
    /// Values this far apart, or farther, come at the user's pace, not a storm's: two display frames.
    static var userPace: Duration { .milliseconds(66) }

    private var lastDelivery: Instant?
    private var lastArrival: Instant?
    /// Whether the latest value came ``userPace`` or more after the one before it.
    private var arrivedAlone = true
    private(set) var interval = minimumInterval
    private var paced = false

    /// A value arrived at `now`. Returns whether it came at the user's pace: then a
    /// delivery that waits out a storm's interval is due now (ask ``delay(at:)`` again).
    @discardableResult
    mutating func arrived(at now: Instant) -> Bool {
        arrivedAlone = lastArrival.map { $0.duration(to: now) >= Self.userPace } ?? true
        lastArrival = now
        return arrivedAlone
    }

    /// How long, from `now`, the delivery of the latest value waits.
    mutating func delay(at now: Instant) -> Duration {
        guard let last = lastDelivery else { return .zero }
        let quiet = last.duration(to: now)
        if arrivedAlone || quiet >= max(interval * 2, Self.quietPeriod) {
            // The user's own pace, or the storm is over: deliver now, at the shortest interval.
            interval = Self.minimumInterval
            paced = false
            return .zero
        }
        paced = true
        return max(.zero, interval - quiet)
    }

    /// A delivery starts at `now`: during a storm, the next one waits twice as long.
    mutating func delivering(at now: Instant) {
        lastDelivery = now
        if paced { interval = min(interval * 2, Self.maximumInterval) }
    }
}
