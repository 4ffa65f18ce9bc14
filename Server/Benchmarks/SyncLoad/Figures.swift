import Foundation

/// Percentiles and the printed forms of the tool's figures (as in the sync bench).
enum Figures {
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank]
    }

    static func ms(_ seconds: Double) -> String {
        seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }

    static func bytes(_ count: Double) -> String {
        count < 10_240 ? String(format: "%.0f B", count) : count < 10_485_760
            ? String(format: "%.1f KiB", count / 1024) : String(format: "%.1f MiB", count / 1_048_576)
    }

    static func count(_ value: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        return formatter.string(from: NSNumber(value: value)) ?? "\(value)"
    }

    static func rate(_ value: Double) -> String {
        value >= 100 ? count(Int(value.rounded())) : String(format: "%.1f", value)
    }

    static func goal(_ met: Bool, _ text: String) -> String {
        (met ? "  MET     " : "  NOT MET ") + text
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
