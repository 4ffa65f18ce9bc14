import Foundation

/// Chromium's times: `base::Time` as microseconds since 1601-01-01 00:00 UTC.
enum ChromiumTime {
    /// Milliseconds from 1601-01-01 to 1970-01-01.
    static let windowsEpochOffsetMilliseconds: Int64 = 11_644_473_600_000

    /// The date, to the millisecond, or `nil` for 0 (Chromium's null time) or a
    /// time outside the years 1601 to 9999 that the store keeps.
    static func date(microsecondsSince1601 micros: Int64) -> Date? {
        guard micros > 0, micros < 265_000_000_000_000_000 else { return nil }
        let milliseconds = micros / 1000 - windowsEpochOffsetMilliseconds
        return Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000)
    }
}
