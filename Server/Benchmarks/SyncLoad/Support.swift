import Foundation
import NIOConcurrencyHelpers

/// A failure of the load tool itself (not a finding about the server).
struct LoadError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Where the server answers. A server restarted on another port moves it.
final class Endpoint: Sendable {
    private let box: NIOLockedValueBox<URL>

    init(_ url: URL) {
        box = NIOLockedValueBox(url)
    }

    var url: URL {
        get { box.withLockedValue { $0 } }
        set { box.withLockedValue { $0 = newValue } }
    }

    var host: String { url.host ?? "127.0.0.1" }
    var port: Int { url.port ?? 80 }
}

/// A counting semaphore for tasks.
actor AsyncGate {
    private var available: Int
    /// Waiters in arrival order, from `head` on (thousands may queue).
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    init(_ count: Int) {
        available = count
    }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        guard head < waiters.count else {
            available += 1
            return
        }
        let next = waiters[head]
        head += 1
        if head == waiters.count {
            waiters.removeAll(keepingCapacity: true)
            head = 0
        }
        next.resume()
    }
}

/// Runs `body` on every item with at most `parallelism` at once; results in item order.
func concurrentMap<T: Sendable, R: Sendable>(
    _ items: [T], parallelism: Int, _ body: @escaping @Sendable (T) async throws -> R
) async throws -> [R] {
    try await withThrowingTaskGroup(of: (Int, R).self) { group in
        var results = [R?](repeating: nil, count: items.count)
        var next = 0
        func add() {
            let index = next
            let item = items[index]
            group.addTask { (index, try await body(item)) }
            next += 1
        }
        while next < min(parallelism, items.count) { add() }
        while let (index, result) = try await group.next() {
            results[index] = result
            if next < items.count { add() }
        }
        return results.map { $0! }
    }
}

/// Random bytes, fast enough for megabytes of sealed values.
func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var bytes = [UInt8](repeating: 0, count: count)
    var index = 0
    while index < count {
        var word = generator.next() as UInt64
        for _ in 0..<8 where index < count {
            bytes[index] = UInt8(truncatingIfNeeded: word)
            word >>= 8
            index += 1
        }
    }
    return bytes
}

func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
}

/// A random record id: 32 lowercase hex digits.
func randomRecordID() -> String { hex(randomBytes(16)) }

/// A random lowercase UUID.
func randomUUID() -> String { UUID().uuidString.lowercased() }

/// Seconds since 1970 now.
func unixNow() -> Int64 { Int64(Date().timeIntervalSince1970) }

/// A pool of base64 sealed values of one size, reused across records.
struct SealedPool: Sendable {
    let values: [String]

    init(size: Int, count: Int = 64) {
        values = (0..<count).map { _ in Data(randomBytes(size)).base64EncodedString() }
    }

    func pick(_ index: Int) -> String { values[index % values.count] }
}

/// The body of `POST /v1/records` for `records` (id, version) sealed from `pool`.
func uploadBody(_ records: [(id: String, version: Int64)], pool: SealedPool, offset: Int = 0) -> String {
    var body = "{\"records\":["
    body.reserveCapacity(records.count * (pool.values[0].count + 80) + 16)
    for (index, record) in records.enumerated() {
        if index > 0 { body += "," }
        body += "{\"id\":\"\(record.id)\",\"version\":\(record.version),\"sealed\":\"\(pool.pick(offset + index))\"}"
    }
    body += "]}"
    return body
}

/// The process's resident memory and open file count, from /proc (Linux).
func processFigures(pid: Int32) -> (files: Int, residentBytes: Double)? {
    guard let files = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count,
          let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    else { return nil }
    let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Double($0) } } ?? 0
    return (files, rss * 1024)
}
