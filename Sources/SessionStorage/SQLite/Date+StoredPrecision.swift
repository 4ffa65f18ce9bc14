import Foundation
internal import GRDB

extension Date {
    /// This date as the database gives it back: times are stored as UTC text
    /// with milliseconds, so a value read back equals this one.
    var storedPrecision: Date {
        Date.fromDatabaseValue(databaseValue) ?? self
    }
}
