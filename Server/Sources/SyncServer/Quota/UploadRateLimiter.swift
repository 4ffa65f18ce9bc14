import Foundation

/// Uploads per second per device: a token bucket per device, in this process.
///
/// A bucket holds up to `rate` tokens and refills at `rate` per second; an
/// upload takes one. With several server processes a device's allowance is per
/// process, which bounds it still (a load balancer pins most devices anyway).
actor UploadRateLimiter {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let rate: Double
    private var buckets: [String: Bucket] = [:]
    private var lastPrune = ContinuousClock.now

    /// A limiter allowing `perSecond` uploads a second to each device.
    init(perSecond: Int) {
        self.rate = Double(max(1, perSecond))
    }

    /// Takes one upload from the device's allowance: `nil` when allowed, else
    /// how many seconds to wait before the next one is.
    func take(device: String) -> Int? {
        let now = ContinuousClock.now
        pruneIfDue(now)
        var bucket = buckets[device] ?? Bucket(tokens: rate, updated: now)
        let elapsed = Double((now - bucket.updated).components.attoseconds) / 1e18
            + Double((now - bucket.updated).components.seconds)
        bucket.tokens = min(rate, bucket.tokens + elapsed * rate)
        bucket.updated = now
        defer { buckets[device] = bucket }
        guard bucket.tokens >= 1 else {
            return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
        }
        bucket.tokens -= 1
        return nil
    }

    /// Forgets full buckets now and then, so idle devices cost nothing.
    private func pruneIfDue(_ now: ContinuousClock.Instant) {
        guard now - lastPrune > .seconds(60) else { return }
        lastPrune = now
        buckets = buckets.filter { now - $0.value.updated < .seconds(10) }
    }
}
