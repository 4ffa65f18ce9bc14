/// A hybrid logical clock (Kulkarni et al., 2014): readings that follow the wall clock, never go
/// back, and come after every reading this device has seen from another.
///
/// Its wall time is the device's clock plus the server's clock offset (what `SyncServerConnection`
/// measures), so a device whose clock runs two days ahead writes readings of the server's time,
/// and its old edits do not win over newer ones from the others.
package struct HybridLogicalClock: Sendable {
    /// This device's id: the tiebreak of its readings.
    package let device: String
    /// The last reading given or seen.
    package private(set) var last: HybridTimestamp?

    /// A clock for `device`, which has read nothing yet, or whose last reading was `last`.
    package init(device: String, last: HybridTimestamp? = nil) {
        self.device = device
        self.last = last
    }

    /// The reading of a local event at wall time `wall` (milliseconds, server-corrected).
    package mutating func tick(wall: Int64) -> HybridTimestamp {
        let previous = last.map { ($0.milliseconds, $0.counter) } ?? (Int64.min, 0)
        let reading = wall > previous.0
            ? HybridTimestamp(milliseconds: wall, counter: 0, device: device)
            : HybridTimestamp(milliseconds: previous.0, counter: previous.1 + 1, device: device)
        last = reading
        return reading
    }

    /// Takes in a reading from another device, received at wall time `wall`: the next local reading
    /// comes after it.
    package mutating func observe(_ remote: HybridTimestamp, wall: Int64) {
        let previous = last.map { ($0.milliseconds, $0.counter) } ?? (Int64.min, 0)
        let milliseconds = max(previous.0, wall, remote.milliseconds)
        let counter: Int32
        if milliseconds == previous.0 && milliseconds == remote.milliseconds {
            counter = max(previous.1, remote.counter)
        } else if milliseconds == previous.0 {
            counter = previous.1
        } else if milliseconds == remote.milliseconds {
            counter = remote.counter
        } else {
            counter = 0  // the wall clock is ahead of both
        }
        last = HybridTimestamp(milliseconds: milliseconds, counter: counter, device: device)
    }
}
