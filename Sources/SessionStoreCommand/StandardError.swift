import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command's writes to standard error: a message, a note, a progress line.
///
/// Never traps. Foundation's `FileHandle.standardError.write(_:)` raises a
/// fatal error (SIGILL, exit 132) when the write fails: stderr closed
/// (`2>&-`), on a full device (`2>/dev/full`), or a pipe whose reader is gone.
/// A message nobody can read must not change the command's exit status, so a
/// failed write here is dropped, and the command exits with its own code.
enum StandardError {
    /// Writes `text` to file descriptor 2; a failure drops the rest silently.
    static func write(_ text: String) {
        _ = StandardStreams.write(text, to: 2)
    }
}

/// Unbuffered writes to a standard stream through `write(2)`, which report a
/// failure instead of trapping as `FileHandle.write(_:)` does.
enum StandardStreams {
    /// Writes all of `text` to `descriptor`, retrying short writes and `EINTR`.
    ///
    /// - Returns: Whether every byte was written (`false`: the stream is closed,
    ///   full, or a pipe nobody reads).
    static func write(_ text: String, to descriptor: Int32) -> Bool {
        write(Data(text.utf8), to: descriptor)
    }

    /// Writes all of `data` to `descriptor`, retrying short writes and `EINTR`.
    ///
    /// - Returns: Whether every byte was written.
    static func write(_ data: Data, to descriptor: Int32) -> Bool {
        var bytes = [UInt8](data)
        return bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = sessionWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}

#if canImport(Glibc)
private let sessionWrite = Glibc.write
#elseif canImport(Darwin)
private let sessionWrite = Darwin.write
#endif
