import Foundation
import Testing
@testable import SessionModel

/// Identifier text is written as Foundation's `UUID` writes it (lowercased), and
/// read more strictly than its `sscanf`-based reading: the canonical form only.
@Suite struct IdentifierTextTests {
    @Test func text_isFoundationsLowercased_andReadsBackInEitherCase() {
        for _ in 0..<2_000 {
            let uuid = UUID()
            let text = UUIDText.string(uuid)
            #expect(text == uuid.uuidString.lowercased())
            #expect(UUIDText.uuid(text) == uuid)
            #expect(UUIDText.uuid(uuid.uuidString) == uuid)
            #expect(WebStateID(uuidString: text)?.rawValue == uuid)
        }
    }

    @Test func onlyCanonicalText_isRead_andReadAsFoundationReadsIt() {
        let valid = "3f2a8c1e-0b7d-4c55-9a61-2e4f0d9b7c13"
        var samples = ["", "x", valid + "0", String(valid.dropLast()), valid.replacingOccurrences(of: "-", with: "_"),
                       "3f2a8c1e0b7d-4c55-9a61-2e4f0d9b7c13-", "3f2a8c1g-0b7d-4c55-9a61-2e4f0d9b7c13", " " + valid.dropLast(),
                       "3f2a8c1é-0b7d-4c55-9a61-2e4f0d9b7c1"]
        var rng = SplitMix64(seed: 4)
        for _ in 0..<2_000 {
            var bytes = Array(valid.utf8)
            bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 32...126, using: &rng)
            samples.append(String(decoding: bytes, as: UTF8.self))
        }
        let canonical = #/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/#
        for text in samples {
            let read = UUIDText.uuid(text)
            #expect((read != nil) == (text.wholeMatch(of: canonical) != nil), "\(text)")
            // What is read, Foundation reads the same; what Foundation refuses is refused
            // (Foundation also takes signs and spaces inside, which are no UUID's text).
            if let read { #expect(read == UUID(uuidString: text), "\(text)") }
            if UUID(uuidString: text) == nil { #expect(read == nil, "\(text)") }
        }
    }
}
