/// A payload that Chromium writes by copying a C struct (`memcpy` in
/// `CreateSessionCommandForPayload`, `components/sessions/core/session_service_commands.cc`):
/// little-endian fields at fixed offsets, with the struct's padding.
///
/// Every read is bounds-checked and returns `nil` past the end.
struct FixedPayload {
    /// The payload's bytes.
    let bytes: ArraySlice<UInt8>

    /// Wraps `bytes`.
    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// The payload's size in bytes.
    var count: Int { bytes.count }

    /// The little-endian unsigned integer of `width` bytes at `offset`, if it fits.
    func unsigned(at offset: Int, width: Int) -> UInt64? {
        guard offset >= 0, width <= 8, offset <= bytes.count - width else { return nil }
        let start = bytes.startIndex + offset
        var value: UInt64 = 0
        for index in stride(from: width - 1, through: 0, by: -1) {
            value = value << 8 | UInt64(bytes[start + index])
        }
        return value
    }

    /// The `uint16` at `offset`.
    func uint16(at offset: Int) -> UInt16? { unsigned(at: offset, width: 2).map { UInt16(truncatingIfNeeded: $0) } }
    /// The `int32` at `offset`.
    func int32(at offset: Int) -> Int32? { unsigned(at: offset, width: 4).map { Int32(truncatingIfNeeded: $0) } }
    /// The `uint32` at `offset`.
    func uint32(at offset: Int) -> UInt32? { unsigned(at: offset, width: 4).map { UInt32(truncatingIfNeeded: $0) } }
    /// The `int64` at `offset`.
    func int64(at offset: Int) -> Int64? { unsigned(at: offset, width: 8).map { Int64(bitPattern: $0) } }
    /// The `uint64` at `offset`.
    func uint64(at offset: Int) -> UInt64? { unsigned(at: offset, width: 8) }
    /// The C++ `bool` (one byte) at `offset`.
    func bool(at offset: Int) -> Bool? { unsigned(at: offset, width: 1).map { $0 != 0 } }

    /// Checks that the payload is exactly `size` bytes, as Chromium's
    /// `SessionCommand::GetPayload` does before copying it into a struct.
    func expectSize(_ size: Int) throws(MalformedPayload) {
        guard bytes.count == size else {
            throw MalformedPayload("\(bytes.count) bytes where the payload is \(size)")
        }
    }
}

/// Why a command's payload could not be read; the command is skipped and counted.
struct MalformedPayload: Error, Sendable {
    /// What is wrong, in a few words.
    var reason: String

    /// Creates an error saying `reason`.
    init(_ reason: String) {
        self.reason = reason
    }
}
