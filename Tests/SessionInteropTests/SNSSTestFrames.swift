/// SNSS command frames for tests, walked and built here independently of the
/// reader: `uint16 size, uint8 id, payload` after the 8-byte header.
enum SNSSTestFrames {
    /// One command frame of a file.
    struct Frame {
        var offset: Int
        var size: Int
        var id: UInt8
        var payloadStart: Int { offset + 3 }
    }

    /// The complete frames of `bytes`.
    static func frames(_ bytes: [UInt8]) -> [Frame] {
        var frames: [Frame] = []
        var offset = 8
        while offset + 2 <= bytes.count {
            let size = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
            guard size > 0, offset + 2 + size <= bytes.count else { break }
            frames.append(Frame(offset: offset, size: size, id: bytes[offset + 2]))
            offset += 2 + size
        }
        return frames
    }

    /// A hand-built frame of command `id` around `payload`.
    static func frame(id: UInt8, payload: [UInt8]) -> [UInt8] {
        let size = payload.count + 1
        return [UInt8(size & 0xFF), UInt8(size >> 8), id] + payload
    }

    /// A hand-built `base::Pickle`: a `uint32` size header, then each field padded to 4 bytes.
    static func pickle(_ fields: [[UInt8]]) -> [UInt8] {
        let body = fields.flatMap { $0 + [UInt8](repeating: 0, count: (4 - $0.count % 4) % 4) }
        return littleEndian(UInt32(body.count)) + body
    }

    /// The little-endian bytes of `value`.
    static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// A pickle `double`.
    static func double(_ value: Double) -> [UInt8] { littleEndian(value.bitPattern) }

    /// A pickle string: an `int` byte count, then the UTF-8 bytes.
    static func string(_ text: String) -> [UInt8] { littleEndian(Int32(text.utf8.count)) + Array(text.utf8) }
}
