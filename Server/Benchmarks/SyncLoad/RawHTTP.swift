import Foundation
import NIOCore
import NIOPosix

/// One HTTP/1.1 connection of its own over NIO, for what a pooled client
/// cannot do: thousands of long polls each on its own connection, as real
/// devices hold them, and clients that misbehave on the wire.
enum RawHTTP {
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    struct Closed: Error, CustomStringConvertible {
        var description: String { "connection closed" }
    }

    /// A connection's two directions, handed to the body of ``connect(_:_:)``.
    struct Exchange {
        var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        var parser = ResponseParser()

        /// Writes raw bytes.
        func write(_ text: String) async throws {
            try await outbound.write(ByteBuffer(string: text))
        }

        func write(_ buffer: ByteBuffer) async throws {
            try await outbound.write(buffer)
        }

        /// Reads the next whole response (throws ``Closed`` at end of stream).
        mutating func response() async throws -> Response {
            while true {
                if let response = try parser.next() { return response }
                guard let chunk = try await inbound.next() else { throw Closed() }
                parser.append(chunk)
            }
        }

        /// Waits for anything from the server: `true` when bytes came, `false` when it closed.
        mutating func anything() async throws -> Bool {
            if parser.hasBytes { return true }
            guard let chunk = try await inbound.next() else { return false }
            parser.append(chunk)
            return true
        }
    }

    /// Connects to `endpoint` and runs `body` on the connection, closing it after.
    static func connect<T: Sendable>(
        _ endpoint: Endpoint, _ body: (inout Exchange) async throws -> T
    ) async throws -> T {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: endpoint.host, port: endpoint.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var exchange = Exchange(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            return try await body(&exchange)
        }
    }

    /// A request's text: request line, `Host`, the headers, and a body with its length.
    static func request(_ method: String, _ path: String, endpoint: Endpoint, token: String? = nil,
                        headers: [String] = [], body: String? = nil) -> String {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: \(endpoint.host):\(endpoint.port)"]
        if let token { lines.append("Authorization: Bearer \(token)") }
        lines += headers
        if let body {
            lines.append("Content-Type: application/json")
            lines.append("Content-Length: \(body.utf8.count)")
        }
        return lines.joined(separator: "\r\n") + "\r\n\r\n" + (body ?? "")
    }

    /// One request on a connection of its own.
    static func once(_ endpoint: Endpoint, _ text: String) async throws -> Response {
        try await connect(endpoint) { exchange in
            try await exchange.write(text)
            return try await exchange.response()
        }
    }
}

/// An HTTP/1.1 response parser: `Content-Length` and chunked bodies.
struct ResponseParser {
    private var buffer = ByteBuffer()

    var hasBytes: Bool { buffer.readableBytes > 0 }

    mutating func append(_ chunk: ByteBuffer) {
        var chunk = chunk
        buffer.writeBuffer(&chunk)
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The next whole response, consumed from the buffer, or `nil` when more bytes are needed.
    mutating func next() throws -> RawHTTP.Response? {
        let view = buffer.readableBytesView
        guard let headEnd = Self.find([13, 10, 13, 10], in: view) else { return nil }
        let head = String(decoding: view[view.startIndex..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Malformed(description: "bad status line in \(head.prefix(80))")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let bodyStart = headEnd + 4
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            var position = bodyStart
            var body: [UInt8] = []
            while true {
                guard let lineEnd = Self.find([13, 10], in: view[position...]) else { return nil }
                let sizeText = String(decoding: view[position..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                    throw Malformed(description: "bad chunk size")
                }
                let dataStart = lineEnd + 2
                if size == 0 {
                    guard let trailerEnd = Self.find([13, 10], in: view[dataStart...]) else { return nil }
                    buffer.moveReaderIndex(forwardBy: trailerEnd + 2 - view.startIndex)
                    buffer.discardReadBytes()
                    return .init(status: status, headers: headers, body: String(decoding: body, as: UTF8.self))
                }
                guard view.endIndex >= dataStart + size + 2 else { return nil }
                body += view[dataStart..<(dataStart + size)]
                position = dataStart + size + 2
            }
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        guard view.endIndex >= bodyStart + length else { return nil }
        let body = String(decoding: view[bodyStart..<(bodyStart + length)], as: UTF8.self)
        buffer.moveReaderIndex(forwardBy: bodyStart + length - view.startIndex)
        buffer.discardReadBytes()
        return .init(status: status, headers: headers, body: body)
    }

    private static func find(_ pattern: [UInt8], in view: ByteBufferView) -> Int? {
        guard view.count >= pattern.count else { return nil }
        var index = view.startIndex
        let last = view.endIndex - pattern.count
        while index <= last {
            if view[index] == pattern[0] {
                var matched = true
                for offset in 1..<pattern.count where view[index + offset] != pattern[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
