import Foundation
internal import GRDB
internal import GRDBSQLite

/// Times as the store keeps them: UTC text `YYYY-MM-DD HH:MM:SS.SSS` in the
/// proleptic Gregorian calendar, the form SQLite's own date functions read and
/// write, so `sqlite3` users can compare and compute with them.
///
/// Written and read here with integer arithmetic rather than a `DateFormatter`:
/// formatting a date through ICU cost a fifth of a navigation commit.
enum StoredTime {
    /// The stored text of `date`, to the millisecond below (a date already at a
    /// whole millisecond, as read back, keeps it).
    static func text(_ date: Date) -> String {
        guard let total = milliseconds(date) else { return fallback(date) }
        let (days, dayMilliseconds) = floorDivision(total, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let seconds = dayMilliseconds / 1000
        return String(unsafeUninitializedCapacity: length) { bytes in
            func put(_ value: Int64, at offset: Int, digits: Int) {
                var value = value
                for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                    bytes[index] = UInt8(48 + value % 10)
                    value /= 10
                }
            }
            put(year, at: 0, digits: 4)
            bytes[4] = UInt8(ascii: "-")
            put(month, at: 5, digits: 2)
            bytes[7] = UInt8(ascii: "-")
            put(day, at: 8, digits: 2)
            bytes[10] = UInt8(ascii: " ")
            put(seconds / 3600, at: 11, digits: 2)
            bytes[13] = UInt8(ascii: ":")
            put(seconds / 60 % 60, at: 14, digits: 2)
            bytes[16] = UInt8(ascii: ":")
            put(seconds % 60, at: 17, digits: 2)
            bytes[19] = UInt8(ascii: ".")
            put(dayMilliseconds % 1000, at: 20, digits: 3)
            return length
        }
    }

    /// The milliseconds since 1970 that ``text(_:)`` writes for `date`, or `nil` outside
    /// years 1 to 9999 (written as GRDB writes them): the stored value, without the text.
    static func milliseconds(_ date: Date) -> Int64? {
        let scaled = date.timeIntervalSince1970 * 1000
        let nearest = scaled.rounded()
        // A date read back from text is a whole millisecond, within floating-point error
        // (a few units in the last place: a sixtieth of a millisecond in year 9999).
        let tolerance = max(0.001, scaled.ulp * 8)
        let milliseconds = abs(scaled - nearest) <= tolerance ? nearest : scaled.rounded(.down)
        guard milliseconds.isFinite, abs(milliseconds) < 4e14 else { return nil }
        let total = Int64(milliseconds)
        return (firstMillisecond..<endMillisecond).contains(total) ? total : nil
    }

    /// The first millisecond of year 1 (0001-01-01) and the first after year 9999, since 1970.
    private static let firstMillisecond: Int64 = -719_162 * 86_400_000
    private static let endMillisecond: Int64 = 2_932_897 * 86_400_000

    /// The date of stored text, or `nil` for an impossible one (`2026-02-30 …`);
    /// text of another length, in another form SQLite knows, goes through GRDB's reading.
    static func date(_ text: String) -> Date? {
        var text = text
        guard text.utf8.count == length else { return Date.fromDatabaseValue(text.databaseValue) }
        return text.withUTF8 { date(UnsafeRawBufferPointer($0)) }
    }

    /// The length of the stored form.
    static let length = 23

    /// The date of `YYYY-MM-DD HH:MM:SS.SSS` in `bytes`, or `nil` for any other form or an impossible date.
    static func date(_ bytes: UnsafeRawBufferPointer) -> Date? {
        guard bytes.count == length, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              bytes[19] == UInt8(ascii: ".")
        else { return nil }
        func number(_ offset: Int, _ digits: Int) -> Int64? {
            var value: Int64 = 0
            for index in offset..<(offset + digits) {
                let digit = Int64(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              let millisecond = number(20, 3),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = self.days(fromCivil: year, month, day)
        guard civil(fromDays: days) == (year, month, day) else { return nil }  // 2026-02-30
        let milliseconds = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// GRDB's text, for dates outside years 1 to 9999 (never written by the store's own clock).
    private static func fallback(_ date: Date) -> String {
        String.fromDatabaseValue(date.databaseValue) ?? ""
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// Year, month and day of a count of days since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 of a date (Howard Hinnant's `days_from_civil`).
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// A `Date` bound or read as ``StoredTime`` text.
struct StoredDate: DatabaseValueConvertible, StatementColumnConvertible {
    var date: Date

    init(_ date: Date) {
        self.date = date
    }

    var databaseValue: DatabaseValue {
        StoredTime.text(date).databaseValue
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StoredDate? {
        if let text = String.fromDatabaseValue(dbValue) {
            return StoredTime.date(text).map(StoredDate.init)
        }
        return Date.fromDatabaseValue(dbValue).map(StoredDate.init)
    }

    init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT,
              let text = sqlite3_column_text(sqliteStatement, index)
        else {
            guard let date = Date.fromDatabaseValue(DatabaseValue(sqliteStatement: sqliteStatement, index: index))
            else { return nil }
            self.date = date
            return
        }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        let date = count == StoredTime.length
            ? StoredTime.date(UnsafeRawBufferPointer(start: text, count: count))
            : StoredTime.date(String(cString: text))
        guard let date else { return nil }
        self.date = date
    }
}

extension Row {
    /// The time in `column`, as the store wrote it.
    func storedDate(_ column: String) throws -> Date {
        try decode(StoredDate.self, forColumn: column).date
    }

    /// The time in the column at `index`.
    func storedDate(atIndex index: Int) throws -> Date {
        try decode(StoredDate.self, atIndex: index).date
    }

    /// The time in `column`, or `nil` for NULL.
    func storedDateIfPresent(_ column: String) throws -> Date? {
        try decode(StoredDate?.self, forColumn: column)?.date
    }
}
