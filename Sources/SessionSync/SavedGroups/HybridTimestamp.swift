/// A reading of a ``HybridLogicalClock``: the writing device's wall time in milliseconds
/// (corrected by the server's clock offset), a counter for events within one millisecond,
/// and the device itself, which breaks ties.
///
/// Readings order by milliseconds, then counter, then device: two devices never write the
/// same reading, so the last writer of a field is always one device.
package struct HybridTimestamp: Hashable, Sendable, Codable, Comparable {
    /// Milliseconds since 1970, as the writing device's clock read them after the server's offset.
    package var milliseconds: Int64
    /// Events at the same millisecond, counted.
    package var counter: Int32
    /// The writing device's id.
    package var device: String

    /// A reading.
    package init(milliseconds: Int64, counter: Int32, device: String) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.device = device
    }

    package static func < (left: Self, right: Self) -> Bool {
        (left.milliseconds, left.counter, left.device) < (right.milliseconds, right.counter, right.device)
    }

    enum CodingKeys: String, CodingKey {
        case milliseconds = "ms", counter = "c", device = "d"
    }
}
