import Foundation
import SessionStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The local socket through which `sessionstore open --in BROWSER` reaches the
/// host a running browser started for a store.
///
/// Each host listens on a Unix domain socket of its own store and source, in a
/// directory only its user can enter (`$TMPDIR` or `/tmp`, then
/// `sessionstore-UID`, mode 0700), named by a hash of the store's resolved path
/// and the source. Nothing is created beside the store, and no file SQLite keeps
/// is touched. A request is one line of JSON and so is its answer
/// (``HostChannel/Request``, ``HostChannel/Answer``).
package enum HostChannel {
    /// What the command asks a host.
    package struct Request: Codable, Sendable, Equatable {
        /// The store's browsers to open in the browser; empty for every one this host may restore.
        package var open: [String]

        package init(open: [String]) {
            self.open = open
        }
    }

    /// What one opened window became, or why it was not opened.
    package struct Opened: Codable, Sendable, Equatable {
        package var browser: String
        /// The browser's window id, once made.
        package var window: Int?
        package var tabs: Int?
        package var error: String?

        package init(browser: String, window: Int? = nil, tabs: Int? = nil, error: String? = nil) {
            self.browser = browser
            self.window = window
            self.tabs = tabs
            self.error = error
        }
    }

    /// The host's answer: each browser asked for, or why nothing was done.
    package struct Answer: Codable, Sendable, Equatable {
        package var results: [Opened]
        package var error: String?

        package init(results: [Opened] = [], error: String? = nil) {
            self.results = results
            self.error = error
        }
    }

    /// Why the channel cannot be used.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The directory of every host socket of this user.
    package static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        var base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        return "\(base)/sessionstore-\(getuid())"
    }

    /// The socket of the host of `source` on the store at `store`.
    package static func path(store: String, source: BrowserSource, directory: String = directory()) -> String {
        let resolved = URL(fileURLWithPath: store).standardizedFileURL.resolvingSymlinksInPath().path
        // FNV-1a, 64 bits: a name, not a secret (the directory keeps other users out).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(resolved.utf8) + [0] + Array(source.rawValue.utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "\(directory)/\(String(hash, radix: 16)).sock"
    }

    /// Makes the socket directory if needed, and refuses one another user could enter.
    static func prepare(_ directory: String) throws {
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw Failure(description: "cannot make \(directory): \(String(cString: strerror(errno)))")
        }
        try verify(directory)
    }

    /// Refuses a socket directory another user made or could enter: a socket there could be anyone's.
    static func verify(_ directory: String) throws {
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            throw Failure(description: "cannot read \(directory): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw Failure(description: "\(directory) is not a directory of this user's alone (mode 0700): refused")
        }
    }

    /// Listens on `path`: `nil` when another live host listens there already.
    ///
    /// A socket file left by a host that died is replaced.
    package static func listen(at path: String) throws -> Int32? {
        try prepare((path as NSString).deletingLastPathComponent)
        for attempt in 0..<2 {
            let descriptor = try makeSocket()
            let bound = withAddress(path) { bind(descriptor, $0, $1) }
            if bound == 0 {
                guard Foundation.listen(descriptor, 16) == 0 else {
                    let reason = String(cString: strerror(errno))
                    close(descriptor)
                    throw Failure(description: "cannot listen on \(path): \(reason)")
                }
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                return descriptor
            }
            let failure = errno
            close(descriptor)
            guard failure == EADDRINUSE, attempt == 0 else {
                throw Failure(description: "cannot bind \(path): \(String(cString: strerror(failure)))")
            }
            // Someone answers: another host serves this store and source. No one: a dead host's file.
            if let live = try? connect(to: path) {
                close(live)
                return nil
            }
            unlink(path)
        }
        return nil
    }

    /// Connects to the host listening at `path`, in a directory of this user's alone.
    package static func connect(to path: String) throws -> Int32 {
        let directory = (path as NSString).deletingLastPathComponent
        if access(directory, F_OK) == 0 { try verify(directory) }
        let descriptor = try makeSocket()
        let connected = withAddress(path) { Foundation.connect(descriptor, $0, $1) }
        guard connected == 0 else {
            let reason = errno
            close(descriptor)
            throw Failure(description: reason == ENOENT || reason == ECONNREFUSED
                ? "no host is listening" : "cannot connect to \(path): \(String(cString: strerror(reason)))")
        }
        return descriptor
    }

    /// `value` as one line of JSON.
    package static func line<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }

    /// Writes all of `data`, waiting at most `timeout` seconds for a slow peer; `false` when it
    /// went away or did not read in time (a stopped command never stalls the host).
    package static func write(_ data: Data, to descriptor: Int32, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, sendFlags | Int32(MSG_DONTWAIT))
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    let left = deadline.timeIntervalSinceNow
                    guard left > 0 else { return false }
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, Int32(min(left * 1000, 1000).rounded(.up)))
                } else {
                    return false
                }
            }
            return true
        }
    }

    /// The device and inode of the file at `path`, when there is one.
    static func identity(of path: String) -> [UInt64]? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// Reads one line from a blocking `descriptor`: `nil` when it ends first, or after `timeout` seconds.
    package static func readLine(from descriptor: Int32, timeout: TimeInterval, limit: Int = 1 << 20) -> Data? {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffer.count < limit {
            if let end = buffer.firstIndex(of: 0x0A) { return buffer.prefix(upTo: end) }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
            if polled < 0, errno != EINTR { return nil }
            guard polled > 0 else { continue }
            let read = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if read > 0 {
                buffer.append(contentsOf: chunk[0..<read])
            } else if read == 0 || errno != EINTR {
                return nil
            }
        }
        return nil
    }

    // MARK: - Sockets

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif

    private static func makeSocket() throws -> Int32 {
        let descriptor = socket(AF_UNIX, streamType, 0)
        guard descriptor >= 0 else {
            throw Failure(description: "cannot make a socket: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return descriptor
    }

    /// Calls `body` with `path` as a socket address; -1 with ENAMETOOLONG when it does not fit.
    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
