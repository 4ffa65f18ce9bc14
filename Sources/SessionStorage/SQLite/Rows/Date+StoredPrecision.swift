import Foundation

extension Date {
    /// This date as the database gives it back: times are stored as UTC text
    /// with milliseconds (``StoredTime``), so a value read back equals this one.
    var storedPrecision: Date {
        StoredTime.date(StoredTime.text(self)) ?? self
    }
}
