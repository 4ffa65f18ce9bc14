import Foundation

/// Percentiles and the printed forms of the figures of the sync bench and the
/// load tool.
public enum Figures {
    public static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank]
    }

    public static func ms(_ seconds: Double) -> String {
        seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }

    public static func bytes(_ count: Double) -> String {
        count < 10_240 ? String(format: "%.0f B", count) : count < 10_485_760
            ? String(format: "%.1f KiB", count / 1024) : String(format: "%.1f MiB", count / 1_048_576)
    }

    public static func count(_ value: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.groupingSeparator = ","
        return formatter.string(from: NSNumber(value: value)) ?? "\(value)"
    }

    public static func goal(_ met: Bool, _ text: String) -> String {
        (met ? "  MET     " : "  NOT MET ") + text
    }
}
