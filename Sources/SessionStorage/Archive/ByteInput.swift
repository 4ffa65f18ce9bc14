import Foundation

/// A document's bytes, read in pieces: the scanners look at a window of them
/// and let go of what they have passed, so a document of any size is read in
/// memory proportional to its largest part. A class: the window is never copied.
final class ByteInput {
    private let next: () throws -> Data?
    /// The window; `buffer[position]` is the next byte.
    private(set) var buffer: [UInt8] = []
    var position = 0
    /// Where a part being captured starts in the window: kept when the window moves on.
    var mark: Int?
    /// The document offset of `buffer[0]`.
    private(set) var offset: Int64 = 0
    private var finished = false
    /// Called with the bytes read so far, after each piece.
    var progress: ((Int64) -> Void)?

    init(next: @escaping () throws -> Data?) {
        self.next = next
    }

    /// The number of bytes read from the input so far.
    var bytesRead: Int64 { offset + Int64(buffer.count) }

    /// The 1-based document offset of the next byte, for messages.
    var place: String { "byte \(offset + Int64(position) + 1)" }

    /// Whether a byte is available at `position`, reading another piece if needed.
    func available() throws -> Bool {
        if position < buffer.count { return true }
        return try readMore()
    }

    /// The next byte, without taking it; `nil` at the end.
    func peek() throws -> UInt8? {
        try available() ? buffer[position] : nil
    }

    /// Reads another piece into the window, dropping what lies before `mark` (or `position`).
    func readMore() throws -> Bool {
        while !finished {
            let keep = min(mark ?? position, position)
            if keep > 0 && keep >= buffer.count / 2 {
                buffer.removeFirst(keep)
                offset += Int64(keep)
                position -= keep
                if mark != nil { mark! -= keep }
                // A large first piece or part leaves a large window: give it back.
                if buffer.capacity > 8 << 20 && buffer.count < buffer.capacity / 4 { buffer = Array(buffer) }
            }
            guard let data = try next() else {
                finished = true
                break
            }
            guard !data.isEmpty else { continue }
            buffer.append(contentsOf: data)
            progress?(bytesRead)
            return true
        }
        return false
    }

    /// Skips JSON white space (space, tab, line feed, carriage return).
    func skipWhitespace() throws {
        while try available() {
            switch buffer[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }
}

extension ByteInput {
    /// The offset in `bytes` of the first byte that is not UTF-8 text, or of a
    /// NUL (JSON text holds none: it is UTF-16 or UTF-32), if any: the check the
    /// whole-document decoder makes first, made here on each part.
    static func firstNonText(in bytes: ArraySlice<UInt8>) -> Int? {
        // Most of a session is ASCII: the parser runs only from the first other byte.
        guard let start = bytes.firstIndex(where: { $0 == 0 || $0 >= 0x80 }) else { return nil }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes[start...].makeIterator()
        var offset = start - bytes.startIndex
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 && encoded.first == 0 { return offset }
                offset += encoded.count
            case .emptyInput:
                return nil
            case .error:
                return offset
            }
        }
    }
}
