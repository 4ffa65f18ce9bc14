import Foundation
import SyncServerHarness

/// The load tool's figures beside the shared ones (``Figures`` in the harness).
extension Figures {
    static func rate(_ value: Double) -> String {
        value >= 100 ? count(Int(value.rounded())) : String(format: "%.1f", value)
    }

    /// A goal this run did not measure (a reduced size, a part not selected).
    static func untried(_ text: String) -> String {
        "  n/a     " + text
    }

    static func yes(_ value: Bool) -> String { value ? "yes" : "no" }
}

/// Seconds between two instants of the continuous clock.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Seconds since `start`.
func elapsed(since start: ContinuousClock.Instant) -> Double {
    seconds(ContinuousClock.now - start)
}

/// Prints a line at once, unbuffered (standard output may be a pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
