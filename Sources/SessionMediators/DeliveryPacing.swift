/// When a ``MainQueueConsolidator`` delivers the value that arrived last: at
/// once for the user's own pace, paced with a growing interval in a storm.
///
/// A value that arrives ``Bounds/userPace`` or more after the one before it is
/// the user's own action (closing a tab every 100 ms is steady, not a storm): it
/// is delivered on the next turn, and the interval goes back to the shortest.
/// A value that arrives closer than that to the one before it is part of a
/// storm (an import, another process's batch): it waits for the end of the
/// current interval since the last delivery, and each delivery of the storm
/// doubles the interval, from ``Bounds/minimumInterval`` up to
/// ``Bounds/maximumInterval``. A storm ends after ``Bounds/quietPeriod``
/// without a delivery.
///
/// A value type with the clock passed in, so its decisions can be replayed.
/// The mediators pace with ``Bounds/display``; `SessionSync`'s upload loop uses
/// the same rule with bounds of its own (an upload costs a round trip).
package struct DeliveryPacing: Sendable {
    package typealias Instant = ContinuousClock.Instant

    /// The times the pacing rule works with.
    package struct Bounds: Sendable, Hashable {
        /// Values this far apart, or farther, come at the user's pace, not a storm's.
        package var userPace: Duration
        /// The shortest time between two deliveries during a storm.
        package var minimumInterval: Duration
        /// The longest time between two deliveries during a long storm.
        package var maximumInterval: Duration
        /// How long without a delivery ends a storm.
        package var quietPeriod: Duration

        /// Bounds with the given times.
        package init(userPace: Duration, minimumInterval: Duration, maximumInterval: Duration, quietPeriod: Duration) {
            self.userPace = userPace
            self.minimumInterval = minimumInterval
            self.maximumInterval = maximumInterval
            self.quietPeriod = quietPeriod
        }

        /// The mediators' bounds: the user's pace is two display frames (66 ms), a
        /// storm's interval goes from one frame at 30 Hz (33 ms) to 400 ms, and
        /// 500 ms without a delivery ends it.
        package static let display = Bounds(
            userPace: .milliseconds(66), minimumInterval: .milliseconds(33), maximumInterval: .milliseconds(400),
            quietPeriod: .milliseconds(500))
    }

    /// The times this pacing works with.
    package let bounds: Bounds
    private var lastDelivery: Instant?
    private var lastArrival: Instant?
    /// Whether the latest value came ``Bounds/userPace`` or more after the one before it.
    private var arrivedAlone = true
    /// The current interval between two deliveries of a storm.
    package private(set) var interval: Duration
    private var paced = false

    /// A pacing with `bounds`, before any value arrived.
    package init(bounds: Bounds = .display) {
        self.bounds = bounds
        interval = bounds.minimumInterval
    }

    /// A value arrived at `now`. Returns whether it came at the user's pace: then a
    /// delivery that waits out a storm's interval is due now (ask ``delay(at:)`` again).
    @discardableResult
    package mutating func arrived(at now: Instant) -> Bool {
        arrivedAlone = lastArrival.map { $0.duration(to: now) >= bounds.userPace } ?? true
        lastArrival = now
        return arrivedAlone
    }

    /// How long, from `now`, the delivery of the latest value waits.
    package mutating func delay(at now: Instant) -> Duration {
        guard let last = lastDelivery else { return .zero }
        let quiet = last.duration(to: now)
        if arrivedAlone || quiet >= max(interval * 2, bounds.quietPeriod) {
            // The user's own pace, or the storm is over: deliver now, at the shortest interval.
            interval = bounds.minimumInterval
            paced = false
            return .zero
        }
        paced = true
        return max(.zero, interval - quiet)
    }

    /// A delivery starts at `now`: during a storm, the next one waits twice as long.
    package mutating func delivering(at now: Instant) {
        lastDelivery = now
        if paced { interval = min(interval * 2, bounds.maximumInterval) }
    }
}
