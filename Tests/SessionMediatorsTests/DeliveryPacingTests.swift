@testable import SessionMediators
import Testing

/// The consolidator's pacing, replayed on a clock of its own: the user's steady
/// actions are delivered at once; a storm is coalesced into a handful of updates.
@Suite struct DeliveryPacingTests {
    /// Replays arrivals (milliseconds from the start) through the consolidator's
    /// rules: a value arriving while no delivery is scheduled schedules one after
    /// `delay`, and one arriving at the user's pace while a delivery waits makes it
    /// due again; a delivery takes `deliveryMilliseconds`, and a value that arrived
    /// meanwhile is scheduled when it ends. Returns each value's wait from its
    /// arrival to the delivery that carried it, and the number of deliveries.
    private static func replay(
        arrivals: [Int], deliveryMilliseconds: Int = 1
    ) -> (waits: [Duration], deliveries: Int) {
        let start = ContinuousClock.now
        func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
        var pacing = DeliveryPacing()
        var pending: [Int] = []  // arrivals not yet delivered
        var scheduledAt: ContinuousClock.Instant?
        var waits: [Duration] = []
        var deliveries = 0
        func deliver(at now: ContinuousClock.Instant) {
            pacing.delivering(at: now)
            deliveries += 1
            waits += pending.map { at($0).duration(to: now) }
            pending = []
            // The delivery ends; a value that arrived during it is scheduled then.
            let end = now + .milliseconds(deliveryMilliseconds)
            scheduledAt = nil
            if let next = nextArrival, at(next) < end {
                advance(to: next)
                scheduledAt = end + pacing.delay(at: end)
            }
        }
        var index = 0
        var nextArrival: Int? { index < arrivals.count ? arrivals[index] : nil }
        @discardableResult
        func arrive() -> Bool {
            let next = arrivals[index]
            index += 1
            pending.append(next)
            return pacing.arrived(at: at(next))
        }
        func advance(to milliseconds: Int) {
            while let next = nextArrival, next <= milliseconds { arrive() }
        }
        while nextArrival != nil || scheduledAt != nil {
            if let due = scheduledAt, nextArrival.map({ at($0) >= due }) ?? true {
                deliver(at: due)
            } else if let next = nextArrival {
                let alone = arrive()
                if scheduledAt == nil || alone { scheduledAt = at(next) + pacing.delay(at: at(next)) }
            }
        }
        return (waits, deliveries)
    }

    @Test func steadyActions_everyHundredMilliseconds_areEachDeliveredAtOnce() {
        let (waits, deliveries) = Self.replay(arrivals: Array(stride(from: 0, to: 5_000, by: 100)))
        #expect(deliveries == 50)
        #expect(waits.allSatisfy { $0 == .zero }, "\(waits)")
    }

    @Test func steadyActions_rightAfterAStorm_areDeliveredAtOnce() {
        let storm = Array(0..<1_000)
        let steady = Array(stride(from: 1_100, to: 3_100, by: 100))
        let (waits, _) = Self.replay(arrivals: storm + steady)
        #expect(waits.suffix(steady.count).allSatisfy { $0 == .zero }, "\(waits.suffix(steady.count))")
    }

    @Test func aStorm_ofAThousandChangesInASecond_isCoalescedIntoAHandfulOfUpdates() {
        let (waits, deliveries) = Self.replay(arrivals: Array(0..<1_000))
        // The first at once, then after 33, 66, 132, 264 ms and every 400 ms: 6 or 7 in all.
        #expect(deliveries <= 7, "\(deliveries) deliveries")
        #expect(waits.count == 1_000)  // every change reached the consumer
        #expect(waits.allSatisfy { $0 <= DeliveryPacing.Bounds.display.maximumInterval })
    }

    @Test func aStormFasterThanTheUserPace_isPaced_evenAtTwentyChangesASecond() {
        // 50 ms apart: closer than two frames, so a storm, paced at the growing interval.
        let (_, deliveries) = Self.replay(arrivals: Array(stride(from: 0, to: 2_000, by: 50)))
        #expect(deliveries < 40, "\(deliveries) deliveries for 40 changes")
    }
}
