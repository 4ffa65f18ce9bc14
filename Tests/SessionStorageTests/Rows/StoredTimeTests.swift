import Foundation
import GRDB
import Testing
@testable import SessionStorage

/// The store's own time text agrees with SQLite's date functions and reads back exactly.
@Suite struct StoredTimeTests {
    @Test func text_agreesWithSQLite_andReadsBack_fromYear1To9999() throws {
        let queue = try DatabaseQueue()
        var generator = SystemRandomNumberGenerator()
        let lowest: Int64 = -62_135_596_800_000  // 0001-01-01 00:00:00.000
        let highest: Int64 = 253_402_300_799_999  // 9999-12-31 23:59:59.999
        var samples = (0..<2000).map { _ in Int64.random(in: lowest...highest, using: &generator) }
        samples += [lowest, highest, 0, -1, 951_782_400_000, 1_709_164_800_123]  // 2000-02-29, 2024-02-29
        try queue.read { db in
            for milliseconds in samples {
                let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
                let text = StoredTime.text(date)
                let sqlite = try String.fetchOne(
                    db, sql: "SELECT strftime('%Y-%m-%d %H:%M:%f', ? / 1000.0, 'unixepoch')", arguments: [milliseconds])
                #expect(text == sqlite, "\(milliseconds)")
                #expect(StoredTime.date(text) == date, "\(text)")
                #expect(StoredTime.text(try #require(StoredTime.date(text))) == text)
            }
        }
    }

    @Test func date_ofAnotherForm_orAnImpossibleDay() {
        #expect(StoredTime.date("2026-02-30 00:00:00.000") == nil)
        #expect(StoredTime.date("2026-13-01 00:00:00.000") == nil)
        #expect(StoredTime.date("not a date") == nil)
        // Other forms SQLite knows still read, through GRDB.
        #expect(StoredTime.date("2026-01-02 03:04:05") == StoredTime.date("2026-01-02 03:04:05.000"))
        // A date between two milliseconds is stored at the one below.
        let date = Date(timeIntervalSince1970: 1.0019)
        #expect(StoredTime.text(date) == "1970-01-01 00:00:01.001")
        #expect(date.storedPrecision == Date(timeIntervalSince1970: 1.001))
    }
}
