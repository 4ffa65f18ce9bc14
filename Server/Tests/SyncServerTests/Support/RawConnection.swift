import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private func closeSocket(_ fd: Int32) {
    _ = close(fd)
}

private func sendSome(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Glibc)
    send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    #else
    send(fd, bytes.baseAddress, bytes.count, 0)
    #endif
}

/// A plain TCP connection to the server, for requests no HTTP client would
/// send: headers promising a body that never comes, say.
final class RawConnection: @unchecked Sendable {
    private let fd: Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to `url`'s host (an IPv4 address) and port.
    init(to url: URL) throws {
        guard let host = url.host, let port = url.port else { throw Failure(description: "no host and port in \(url)") }
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket failed: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            closeSocket(fd)
            throw Failure(description: "not an IPv4 address: \(host)")
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            closeSocket(fd)
            throw Failure(description: "connect failed: \(errno)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { closeSocket(fd) }

    /// Sends all of `text`.
    func send(_ text: String) async throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { sendSome(fd, $0) }
            if sent > 0 {
                bytes = bytes.dropFirst(sent)
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try await Task.sleep(for: .milliseconds(5))
            } else {
                throw Failure(description: "send failed: \(errno)")
            }
        }
    }

    /// Reads until the end of a response's header block (or the peer closes);
    /// returns what arrived. Throws after `timeout`.
    func readResponseHead(timeout: Duration = .seconds(30)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 {
                received += chunk[0..<count]
                let text = String(decoding: received, as: UTF8.self)
                if text.contains("\r\n\r\n") { return text }
                continue
            }
            if count == 0 { return String(decoding: received, as: UTF8.self) }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw Failure(description: "recv failed: \(errno)")
            }
            guard ContinuousClock.now < deadline else { throw TimedOut(what: "a response on a raw connection") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
