import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HostChannel {
    /// The host's end of the channel: the listening socket, the commands connected
    /// to it, and the requests waiting for the browser.
    ///
    /// Driven by the host's one loop: it polls ``descriptors`` with its standard
    /// input, hands what is readable to ``service(_:)``, and answers each request
    /// once the extension has done it (``answer(_:_:)``).
    package final class Server {
        package let path: String
        private let listener: Int32
        /// Commands connected, with what they sent so far and when they connected, until their request is read.
        private var reading: [Int32: (bytes: Data, since: Date)] = [:]
        /// Requests handed to the browser, by number, with the command waiting for each.
        private var waiting: [Int: Int32] = [:]
        /// Numbers start at random: an answer the extension owes an earlier host never matches this one's.
        private var nextRequest = Int.random(in: 1...(1 << 40))
        /// The socket file this host made, so that it removes its own and no other host's.
        private let identity: [UInt64]?

        /// How long a command may take to send its request.
        static let requestTimeout: TimeInterval = 10

        /// At most this many commands at once; another is answered at once with an error.
        static let maximumClients = 32

        /// Listens at `path`; `nil` when another live host listens there already.
        package init?(path: String) throws {
            guard let listener = try HostChannel.listen(at: path) else { return nil }
            self.path = path
            self.listener = listener
            identity = HostChannel.identity(of: path)
        }

        /// When a command that has not sent its request yet is due to be dropped.
        package var nextTimeout: Date? { reading.values.map { $0.since.addingTimeInterval(Self.requestTimeout) }.min() }

        /// What the loop polls for input besides its own.
        package var descriptors: [Int32] { [listener] + reading.keys.sorted() + waiting.values.sorted() }

        /// Accepts commands and reads their requests; returns each request read whole, numbered.
        ///
        /// A command that hangs up before its answer is forgotten; a malformed request is
        /// answered with an error at once.
        package func service(_ readable: Set<Int32>) -> [(number: Int, request: Request)] {
            if readable.contains(listener) { acceptAll() }
            var requests: [(Int, Request)] = []
            for (descriptor, client) in reading where client.since.timeIntervalSinceNow < -Self.requestTimeout {
                finish(descriptor, Answer(error: "no request within \(Int(Self.requestTimeout)) s"))
            }
            for (descriptor, client) in reading where readable.contains(descriptor) {
                var buffer = client.bytes
                var chunk = [UInt8](repeating: 0, count: 4096)
                let read = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if read < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                guard read > 0 else {
                    drop(descriptor)
                    continue
                }
                buffer.append(contentsOf: chunk[0..<read])
                guard let end = buffer.firstIndex(of: 0x0A) else {
                    if buffer.count > 1 << 20 {
                        finish(descriptor, Answer(error: "a request over 1 MB"))
                    } else {
                        reading[descriptor] = (buffer, client.since)
                    }
                    continue
                }
                reading[descriptor] = nil
                guard let request = try? JSONDecoder().decode(Request.self, from: buffer.prefix(upTo: end)) else {
                    finish(descriptor, Answer(error: "not a request the host knows"))
                    continue
                }
                let number = nextRequest
                nextRequest += 1
                waiting[number] = descriptor
                requests.append((number, request))
            }
            // A command waiting for its answer that hung up (end of input); anything more it sends is dropped.
            for (number, descriptor) in waiting where readable.contains(descriptor) {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let read = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                    waiting[number] = nil
                    Foundation.close(descriptor)
                }
            }
            return requests
        }

        /// Sends the answer to request `number`, if its command still waits.
        package func answer(_ number: Int, _ answer: Answer) {
            guard let descriptor = waiting.removeValue(forKey: number) else { return }
            finish(descriptor, answer)
        }

        /// Answers every waiting command with `reason`, and stops listening.
        package func close(saying reason: String) {
            for number in waiting.keys.sorted() { answer(number, Answer(error: reason)) }
            for descriptor in reading.keys { drop(descriptor) }
            // Another host may have taken the path over since (this one hung): its socket stays.
            if let identity, HostChannel.identity(of: path) == identity { unlink(path) }
            Foundation.close(listener)
        }

        private func acceptAll() {
            while true {
                let descriptor = accept(listener, nil, nil)
                guard descriptor >= 0 else { return }
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                if reading.count + waiting.count >= Self.maximumClients {
                    finish(descriptor, Answer(error: "the host is busy with \(Self.maximumClients) other requests"))
                } else {
                    reading[descriptor] = (Data(), Date())
                }
            }
        }

        private func finish(_ descriptor: Int32, _ answer: Answer) {
            if let line = try? HostChannel.line(answer) { _ = HostChannel.write(line, to: descriptor) }
            drop(descriptor)
        }

        private func drop(_ descriptor: Int32) {
            reading[descriptor] = nil
            Foundation.close(descriptor)
        }
    }
}
