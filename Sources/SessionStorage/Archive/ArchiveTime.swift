import Foundation

/// Times in the document: UTC ISO 8601 with milliseconds, e.g. `2026-11-23T09:30:00.000Z`,
/// in the proleptic Gregorian calendar (as ISO 8601 and the store's own text).
///
/// Written and read with ``StoredTime``'s integer arithmetic: a formatter per
/// row cost more than the rest of an export or an import together.
enum ArchiveTime {
    /// The length of a document time.
    static let length = 24

    static func string(from date: Date) -> String {
        var bytes = Array(StoredTime.text(date).utf8)
        // Years 1 to 9999 only; the store never holds others, but say something for them.
        guard bytes.count == StoredTime.length else { return fallback.string(from: date) }
        bytes[10] = UInt8(ascii: "T")
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The time `text` names, or `nil` unless it is exactly in the document's form,
    /// with a four-digit year (0001 to 9999) and a real day and time: the store
    /// keeps only such times, so the store can give back every time it accepts.
    static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { utf8 in
            guard utf8.count == length, utf8[10] == UInt8(ascii: "T"), utf8[23] == UInt8(ascii: "Z"),
                  !(utf8[0] == UInt8(ascii: "0") && utf8[1] == UInt8(ascii: "0") && utf8[2] == UInt8(ascii: "0")
                      && utf8[3] == UInt8(ascii: "0"))
            else { return nil }
            var stored = Array(utf8[0..<StoredTime.length])
            stored[10] = UInt8(ascii: " ")
            return stored.withUnsafeBytes { StoredTime.date($0) }
        }
    }

    // Only for years the store never holds. Configured once and never mutated afterwards.
    private static let fallback: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        return formatter
    }()
}
