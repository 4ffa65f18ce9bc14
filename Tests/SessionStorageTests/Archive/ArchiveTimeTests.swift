import Foundation
import GRDB
import Testing
@testable import SessionStorage

@Suite struct ArchiveTimeTests {
    /// A time read from a document, stored, read back and written again keeps its text.
    @Test func time_roundTripsThroughDocumentAndDatabase_toTheMillisecond() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let milliseconds = Int64.random(in: 0..<4_000_000_000_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = ArchiveTime.string(from: date)
            let parsed = try #require(ArchiveTime.date(from: text))
            let stored = try #require(Date.fromDatabaseValue(parsed.databaseValue))
            try #require(ArchiveTime.string(from: stored) == text, "\(milliseconds)")
        }
    }
}
