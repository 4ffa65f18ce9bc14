import Foundation

extension Date {
    /// This date as the database gives it back: times are stored as UTC text
    /// with milliseconds (``StoredTime``), so a value read back equals this one.
    /// Computed from the stored milliseconds, without the text (in years 1 to 9999).
    var storedPrecision: Date {
        guard let milliseconds = StoredTime.milliseconds(self) else {
            return StoredTime.date(StoredTime.text(self)) ?? self
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
