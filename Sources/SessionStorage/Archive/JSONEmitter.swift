import Foundation

/// Writes JSON text exactly as `JSONEncoder` does with `.sortedKeys` and
/// `.withoutEscapingSlashes` (pretty printed with two-space indents, or
/// compact), without building a tree first: the caller gives keys in sorted
/// order and values as it reads them, and takes the bytes as they are made.
struct JSONEmitter {
    /// The text so far (the caller takes it with ``take()``).
    private(set) var bytes: [UInt8] = []
    /// Two-space indents and `" : "`, as `.prettyPrinted`; else no white space.
    let pretty: Bool
    /// For each open container, whether nothing was written in it yet.
    private var empty: [Bool] = []

    init(pretty: Bool, capacity: Int = 1 << 16) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    /// The text made so far; the emitter goes on from where it was.
    mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Starts an object member; its value follows.
    mutating func key(_ key: String) {
        separate()
        string(key)
        if pretty {
            bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
    }

    /// Starts an array element; its value follows.
    mutating func element() { separate() }

    mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    // MARK: - Values

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
                    hex[Int(byte & 0xF)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func integer(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    /// A finite number as `JSONEncoder` writes a `Double`: its shortest text that
    /// reads back the same value, without a trailing `.0` (`0.5`, `1`, `1e-07`).
    mutating func number(_ value: Double) {
        precondition(value.isFinite, "JSONEmitter: JSON has no \(value)")
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    /// Standard base64 with padding, as `.base64`.
    mutating func base64(_ data: Data) { string(data.base64EncodedString()) }

    // MARK: - Layout

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        empty.append(true)
    }

    private mutating func close(_ bracket: UInt8) {
        let wasEmpty = empty.removeLast()
        if pretty {
            // `JSONEncoder` writes an empty container as an empty line between its brackets.
            newline()
            if wasEmpty { newline() }
            indent(empty.count)
        }
        bytes.append(bracket)
    }

    private mutating func separate() {
        if empty.last == false { bytes.append(UInt8(ascii: ",")) }
        if !empty.isEmpty { empty[empty.count - 1] = false }
        if pretty {
            newline()
            indent(empty.count)
        }
    }

    private mutating func indent(_ depth: Int) {
        for _ in 0..<(depth * 2) { bytes.append(0x20) }
    }
}
