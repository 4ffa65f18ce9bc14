/// Reads a payload that Chromium wrote as a `base::Pickle` (`base/pickle.h`,
/// `base/pickle.cc`), as `base::PickleIterator` does.
///
/// Layout: a header of one little-endian `uint32`, the size of the data that
/// follows it; then the fields, each starting on a 4-byte boundary:
/// - `int`, `uint32`, `bool`: 4 bytes (a `bool` is an `int`, 0 or 1);
/// - `int64`, `uint64`: 8 bytes;
/// - a string: an `int` byte count, then the UTF-8 bytes, padded to 4;
/// - a UTF-16 string (`string16`): an `int` count of code units, then the
///   little-endian code units, padded to 4.
///
/// Every read is bounds-checked: a length that runs past the end, or a
/// negative one, throws ``MalformedPayload`` and never reads outside the payload.
struct Pickle {
    private let bytes: ArraySlice<UInt8>
    private var position: Int
    private let end: Int

    /// Starts reading `payload`.
    ///
    /// - Throws: ``MalformedPayload`` when the header is missing, or names a
    ///   size larger than the payload.
    init(_ payload: ArraySlice<UInt8>) throws(MalformedPayload) {
        let header = FixedPayload(payload)
        guard let size = header.uint32(at: 0) else {
            throw MalformedPayload("\(payload.count) bytes is too short for a pickle header")
        }
        // base::Pickle takes the header to be whatever precedes the data; it must be 4-aligned.
        let headerSize = payload.count - Int(size)
        guard Int(size) <= payload.count - 4, headerSize % 4 == 0 else {
            throw MalformedPayload("the pickle header names \(size) bytes of data in a \(payload.count)-byte payload")
        }
        bytes = payload
        position = payload.startIndex + headerSize
        end = payload.endIndex
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { position >= end }

    /// Returns the next `count` bytes and moves past them and their padding.
    private mutating func take(_ count: Int, for field: String) throws(MalformedPayload) -> ArraySlice<UInt8> {
        guard count >= 0, count <= end - position else {
            let left = end - position
            position = end
            throw MalformedPayload("\(field) needs \(count) bytes, \(left) left")
        }
        let slice = bytes[position..<(position + count)]
        let aligned = (count + 3) & ~3
        position = aligned > end - position ? end : position + aligned
        return slice
    }

    /// Reads an `int`.
    mutating func int32(_ field: String = "an int") throws(MalformedPayload) -> Int32 {
        FixedPayload(try take(4, for: field)).int32(at: 0)!
    }

    /// Reads a `uint32`.
    mutating func uint32(_ field: String = "a uint32") throws(MalformedPayload) -> UInt32 {
        FixedPayload(try take(4, for: field)).uint32(at: 0)!
    }

    /// Reads an `int64`.
    mutating func int64(_ field: String = "an int64") throws(MalformedPayload) -> Int64 {
        FixedPayload(try take(8, for: field)).int64(at: 0)!
    }

    /// Reads a `uint64`.
    mutating func uint64(_ field: String = "a uint64") throws(MalformedPayload) -> UInt64 {
        FixedPayload(try take(8, for: field)).uint64(at: 0)!
    }

    /// Reads a `double` (8 bytes, IEEE 754, little-endian).
    mutating func double(_ field: String = "a double") throws(MalformedPayload) -> Double {
        Double(bitPattern: FixedPayload(try take(8, for: field)).uint64(at: 0)!)
    }

    /// Reads a `bool` (an `int`; anything but 0 is true).
    mutating func bool(_ field: String = "a bool") throws(MalformedPayload) -> Bool {
        try int32(field) != 0
    }

    /// Reads a length-prefixed byte string (`WriteString`), as raw bytes.
    mutating func data(_ field: String = "a string") throws(MalformedPayload) -> ArraySlice<UInt8> {
        let length = try int32("\(field)'s length")
        guard length >= 0 else { throw MalformedPayload("\(field) has the negative length \(length)") }
        return try take(Int(length), for: field)
    }

    /// Reads a length-prefixed UTF-8 string (`WriteString`); invalid UTF-8 is repaired.
    mutating func string(_ field: String = "a string") throws(MalformedPayload) -> String {
        String(decoding: try data(field), as: UTF8.self)
    }

    /// Reads a length-prefixed UTF-16 string (`WriteString16`); unpaired surrogates are repaired.
    mutating func string16(_ field: String = "a UTF-16 string") throws(MalformedPayload) -> String {
        let units = try int32("\(field)'s length")
        guard units >= 0, units <= Int32.max / 2 else {
            throw MalformedPayload("\(field) has the impossible length \(units)")
        }
        let raw = try take(Int(units) * 2, for: field)
        var codeUnits: [UInt16] = []
        codeUnits.reserveCapacity(Int(units))
        var index = raw.startIndex
        while index < raw.endIndex {
            codeUnits.append(UInt16(raw[index]) | UInt16(raw[index + 1]) << 8)
            index += 2
        }
        return String(decoding: codeUnits, as: UTF16.self)
    }

    /// Reads a `base::Token` as `WriteTokenToPickle` writes it
    /// (`components/sessions/core/base_session_service_commands.cc`): two `uint64`, high then low.
    mutating func token(_ field: String = "a group token") throws(MalformedPayload) -> ChromiumToken {
        let high = try uint64("\(field)'s high half")
        let low = try uint64("\(field)'s low half")
        return ChromiumToken(high: high, low: low)
    }
}

/// A `base::Token`: the 128-bit identifier of a tab group or a split view.
struct ChromiumToken: Hashable, Sendable {
    /// The high 64 bits.
    var high: UInt64
    /// The low 64 bits.
    var low: UInt64
}
