import Foundation
import SessionStorage

/// Prints a value as pretty, key-sorted JSON on stdout, for `--json`: in the
/// export format's dialect (snake_case keys, UTC ISO 8601 times with
/// milliseconds such as `2026-11-23T09:30:00.000Z`, base64 data).
enum JSONOutput {
    static func print<T: Encodable>(_ value: T) throws {
        let data = try SessionArchive.encoder().encode(value)
        Swift.print(String(decoding: data, as: UTF8.self))
    }
}
