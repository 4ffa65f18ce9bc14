import Foundation
import SessionModel

/// Seeded mutations of a JSON document, as the fuzz suites make them: bit flips,
/// cuts, inserted tokens (bad values, stray punctuation), values swapped for a
/// token, truncation, and repeated slices.
package enum DocumentMutation {
    static let tokens: [String] = [
        "null", "\"\"", "\"x\"", "-1", "0", "1e309", "1.5", "99999999999999999999", "{}", "[]", "true", "\"\\u0000\"",
        "\"\\ud800\"", "\"\\udfff\\ud800\"", "\"'); DROP TABLE tabs; --\"", "\"00000000-0000-0000-0000-000000000000\"",
        "\"2026-13-45T99:99:99.000Z\"", ",", ":", "\"", "\\", "{\"a\":", "]", "}",
    ]

    /// `data` with one to three random mutations.
    package static func mutate(_ data: Data, using rng: inout SplitMix64) -> Data {
        var bytes = [UInt8](data)
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...40, using: &rng)))
            case 2: bytes.insert(contentsOf: Array(Self.tokens.randomElement(using: &rng)!.utf8), at: at)
            case 3:
                // Replace a value after a colon with a token.
                if let colon = bytes[at...].firstIndex(of: UInt8(ascii: ":")),
                   let end = bytes[(colon + 1)...].firstIndex(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") })
                {
                    bytes.replaceSubrange((colon + 1)..<end, with: Array(Self.tokens.randomElement(using: &rng)!.utf8))
                }
            case 4: bytes.removeSubrange(at...)
            default:
                let length = min(bytes.count - at, Int.random(in: 1...200, using: &rng))
                bytes.insert(contentsOf: bytes[at..<(at + length)], at: Int.random(in: 0..<bytes.count, using: &rng))
            }
        }
        return Data(bytes)
    }
}
