import Foundation
import SessionStorage
import SessionSync
import Testing

@Suite struct RecordSealerTests {
    @Test func placeholder() {}
}
