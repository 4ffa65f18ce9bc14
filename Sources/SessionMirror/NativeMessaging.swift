import Foundation

/// The browsers' native messaging framing: each message is a 32-bit length in
/// native byte order, then that many bytes of UTF-8 JSON.
package enum NativeMessaging {
    /// The largest message the host takes from the browser (Chromium's own limit is 64 MiB).
    package static let maximumIncoming = 64 << 20
    /// The largest message a browser takes from a host: 1 MB.
    package static let maximumOutgoing = 1_000_000

    /// One frame read from the browser.
    package enum Frame: Equatable {
        /// A whole message.
        case message(Data)
        /// A message longer than ``maximumIncoming``: its bytes were read and dropped.
        case oversized(length: Int)
    }

    /// Reads frames from a file descriptor (the host's standard input).
    package struct Reader {
        private let descriptor: Int32
        /// Bytes read and not yet handed out.
        private var buffer = Data()
        private var ended = false

        package init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        /// The next frame; `nil` at the end of input. A last frame cut short by the
        /// end of input is `nil` too, with what it held in ``truncatedBytes``.
        package mutating func next() throws -> Frame? {
            guard try fill(4) else { return end() }
            let length = Int(buffer.prefix(4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
            guard length <= NativeMessaging.maximumIncoming else {
                buffer.removeFirst(4)
                var left = length
                while left > 0 {
                    guard try fill(1) else { return end() }
                    let taken = min(left, buffer.count)
                    buffer.removeFirst(taken)
                    left -= taken
                }
                return .oversized(length: length)
            }
            guard try fill(4 + length) else { return end() }
            let body = buffer.subdata(in: buffer.startIndex + 4..<buffer.startIndex + 4 + length)
            buffer.removeFirst(4 + length)
            return .message(body)
        }

        /// Whether a frame, or the end, can be read without waiting: bytes are held already.
        package var hasBufferedInput: Bool { !buffer.isEmpty || ended }

        /// How many bytes of a last, incomplete frame the input ended with.
        package private(set) var truncatedBytes = 0

        private mutating func end() -> Frame? {
            truncatedBytes = buffer.count
            buffer.removeAll()
            return nil
        }

        /// Reads until the buffer holds `count` bytes; `false` when the input ends first.
        private mutating func fill(_ count: Int) throws -> Bool {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while buffer.count < count, !ended {
                let read = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
                if read > 0 {
                    buffer.append(contentsOf: chunk[0..<read])
                } else if read == 0 {
                    ended = true
                } else if errno != EINTR {
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
            }
            return buffer.count >= count
        }
    }

    /// `body` framed: its length, then its bytes.
    package static func frame(_ body: Data) -> Data {
        var length = UInt32(body.count)
        var framed = Data(bytes: &length, count: 4)
        framed.append(body)
        return framed
    }

    /// The reply as frames of at most ``maximumOutgoing`` bytes: a reply naming
    /// more tabs than fit in one is sent as several, each with the same `ack`.
    package static func frames(for reply: MirrorReply) throws -> [Data] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let whole = try encoder.encode(reply)
        guard whole.count > maximumOutgoing, let ids = reply.ids, ids.count > 1 else { return [frame(whole)] }
        let sorted = ids.sorted { $0.key < $1.key }
        let half = sorted.count / 2
        var first = reply
        first.ids = Dictionary(uniqueKeysWithValues: sorted[..<half].map { ($0.key, $0.value) })
        var second = reply
        second.ids = Dictionary(uniqueKeysWithValues: sorted[half...].map { ($0.key, $0.value) })
        return try frames(for: first) + frames(for: second)
    }
}
