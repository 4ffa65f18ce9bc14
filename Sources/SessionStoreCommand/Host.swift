import ArgumentParser
import Foundation
import SessionMirror
import SessionStorage

extension SessionStore {
    /// `sessionstore host`: the native messaging host of the browser extension.
    struct Host: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mirror a browser into the store: the native messaging host of the extension in Extension/.",
            discussion: """
                The browser starts it and speaks on its standard input and output: each message \
                is a 32-bit length in native byte order, then UTF-8 JSON (docs/browser-mirror.md). \
                Each event is written in one transaction and acknowledged once committed; a store \
                locked by another process is waited for, never given up on. Logs go to standard \
                error. At the end of input it exits 0, having written every complete message. A \
                removed window is written as closed 1.5 s later, unless the browser quits meanwhile \
                (its last window goes, or the input ends): a quitting browser restores its windows.
                """)

        @OptionGroup var options: StoreOptions

        @Option(help: ArgumentHelp(
            "The browser this host mirrors (1 to 64 characters): it creates, matches and closes only windows of this source.",
            discussion: "Default: chromium when the browser passes an extension origin (chrome-extension://), firefox when it passes the extension's id, browser otherwise. install-host writes it into the launcher."))
        var source: String?

        /// What the browser passes a host (its origin, or the manifest and the extension's id).
        @Argument(parsing: .allUnrecognized, help: .hidden)
        var browserArguments: [String] = []

        /// SESSIONSTORE_HOST_TRACE=1 logs every message received (its first 4,000 bytes).
        private var trace: Bool { ProcessInfo.processInfo.environment["SESSIONSTORE_HOST_TRACE"] == "1" }

        func validate() throws {
            if let source, BrowserSource(rawValue: source) == nil {
                throw ValidationError("--source must be 1 to 64 characters, none of them a control character.")
            }
        }

        /// The browser that started this host: named, or told by what it passed.
        var mirroredSource: BrowserSource {
            if let source, let named = BrowserSource(rawValue: source) { return named }
            if browserArguments.contains(where: { $0.hasPrefix("chrome-extension://") }) { return .chromium }
            if browserArguments.contains(NativeHostManifest.firefoxExtensionID) { return .firefox }
            return BrowserMirror.unnamedSource
        }

        func run() throws {
            let database = try retryingWhileLocked("opening the store") { try options.openForWriting(create: true, migrating: true) }
            defer { try? database.close() }
            let mirror = BrowserMirror(database: database, source: mirroredSource)
            var reader = NativeMessaging.Reader(descriptor: 0)
            log("mirroring \(mirror.source) into \(options.path)")
            var channel = openChannel(source: mirror.source, quietly: false)
            defer { channel?.close(saying: "the browser closed the connection to its host") }
            // Another host kept the socket (an older one still ending): tried again now and then.
            var nextChannelAttempt = Date().addingTimeInterval(2)
            // `open` requests wait for the first snapshot: until then no window is known as shown.
            var waitingForSnapshot: [(number: Int, request: HostChannel.Request)] = []
            while true {
                if mirror.hasSnapshot, let channel, !waitingForSnapshot.isEmpty {
                    for (number, request) in waitingForSnapshot {
                        try forward(request, number: number, mirror: mirror, channel: channel)
                    }
                    waitingForSnapshot.removeAll()
                }
                if !reader.hasBufferedInput {
                    // The browser's messages, `sessionstore open` commands, and windows due to be written as closed.
                    let due = mirror.nextCloseDue
                    let wake = [due, channel?.nextTimeout, channel == nil ? nextChannelAttempt : nil].compactMap { $0 }.min()
                    let readable = Self.poll([0] + (channel?.descriptors ?? []), until: wake)
                    if channel == nil, Date() >= nextChannelAttempt {
                        channel = openChannel(source: mirror.source, quietly: true)
                        nextChannelAttempt = Date().addingTimeInterval(2)
                    }
                    if let channel {
                        waitingForSnapshot += channel.service(readable)
                        if mirror.hasSnapshot, !waitingForSnapshot.isEmpty { continue }  // forwarded above
                    }
                    if !readable.contains(0) {
                        if let due, due <= Date() {
                            let closed = try retryingWhileLocked("closing removed windows") {
                                try mirror.closeRemovedWindows(dueBy: Date())
                            }
                            if closed > 0 { log("\(closed) removed window(s) written as recently closed") }
                        }
                        continue
                    }
                }
                guard let frame = try reader.next() else { break }
                let reply: MirrorReply
                switch frame {
                case .oversized(let length):
                    reply = refuse(nil, "a message of \(length) bytes, over the \(NativeMessaging.maximumIncoming) the host takes")
                case .message(let body):
                    if trace { log("received \(String(decoding: body.prefix(4000), as: UTF8.self))") }
                    reply = handle(body, with: mirror, channel: channel)
                }
                try send(try NativeMessaging.frames(for: reply))
            }
            let kept = mirror.keepRemovedWindowsOpen()
            if kept > 0 {
                log("the browser quit: \(kept) window(s) it removed as it quit stay open in the store, as it restores them")
            }
            if reader.truncatedBytes > 0 {
                log("the input ended inside a message (\(reader.truncatedBytes) bytes): dropped, nothing of it written")
            }
            log("the browser closed the connection; every complete message is written")
        }

        /// Frames written to the browser; a browser that stopped reading ends the host.
        private func send(_ frames: [Data]) throws {
            for frame in frames {
                guard StandardStreams.write(frame, to: 1) else {
                    log("cannot write to the browser; stopping")
                    throw ExitCode(ExitStatus.ioError)
                }
            }
        }

        /// The socket `sessionstore open --in` reaches this host through; `nil` (logged unless `quietly`)
        /// when it cannot listen.
        private func openChannel(source: BrowserSource, quietly: Bool) -> HostChannel.Server? {
            let path = HostChannel.path(store: options.path, source: source)
            do {
                guard let channel = try HostChannel.Server(path: path) else {
                    if !quietly { log("another \(source) host serves this store's `sessionstore open` requests (\(path)); trying again every 2 s") }
                    return nil
                }
                log("taking `sessionstore open --in \(source)` requests at \(path)")
                return channel
            } catch {
                if !quietly { log("cannot take `sessionstore open` requests: \(error); trying again every 2 s") }
                return nil
            }
        }

        /// Asks the extension to open what a command asked for; answered when it says `openDone`.
        private func forward(
            _ request: HostChannel.Request, number: Int, mirror: BrowserMirror, channel: HostChannel.Server
        ) throws {
            let browsers: [String]
            do {
                browsers = request.open.isEmpty
                    ? try retryingWhileLocked("listing the stored windows") { try mirror.restorableBrowsers() }.map(\.uuidString)
                    : request.open
            } catch {
                // The command hears why; the mirror goes on.
                channel.answer(number, HostChannel.Answer(error: "cannot list the stored windows: \(error)"))
                return
            }
            guard !browsers.isEmpty else {
                channel.answer(number, HostChannel.Answer(
                    error: "no stored window to open: this browser shows every \(mirror.source) window of the store"))
                return
            }
            log("open request \(number): \(browsers.count) window(s) asked of the browser")
            try send([NativeMessaging.frame(try JSONEncoder().encode(HostRequest(request: number, browsers: browsers)))])
        }

        /// The descriptors among `descriptors` with input (or an end) to read, waiting at most until `deadline`.
        private static func poll(_ descriptors: [Int32], until deadline: Date?) -> Set<Int32> {
            var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let left = deadline.map { max(0, $0.timeIntervalSinceNow) } ?? 60
            let ready = Foundation.poll(&polled, nfds_t(polled.count), Int32(min(left * 1000, 60_000).rounded(.up)))
            // An error of poll itself: let the read of standard input say what is wrong.
            if ready < 0 { return errno == EINTR ? [] : [0] }
            return Set(polled.filter { $0.revents != 0 }.map(\.fd))
        }

        /// One message decoded and written, retried while another process holds the store.
        private func handle(_ body: Data, with mirror: BrowserMirror, channel: HostChannel.Server?) -> MirrorReply {
            let started = ContinuousClock.now
            let message: MirrorMessage
            do {
                message = try JSONDecoder().decode(MirrorMessage.self, from: body)
            } catch {
                let id = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["id"] as? Int
                return refuse(id, "not a message the host knows (\(Self.describe(error)))")
            }
            if message.type == .openDone {
                guard let number = message.request else { return refuse(message.id, "openDone needs its `request`") }
                let results = message.results ?? []
                log("open request \(number) done: \(results.filter { $0.error == nil }.count) of \(results.count) window(s) opened")
                channel?.answer(number, HostChannel.Answer(results: results))
                return MirrorReply(ack: message.id)
            }
            do {
                // Never dropped: the browser's event waits for the other process, however long.
                let reply = try retryingWhileLocked("message \(message.id)") { try mirror.handle(message) }
                for note in mirror.takeNotes() { log(note) }
                if message.type == .snapshot {
                    // How long a start takes to be known again (the browser suite reads this line).
                    let windows = message.windows ?? []
                    let tabs = windows.reduce(0) { $0 + ($1.tabs?.count ?? 0) }
                    let elapsed = (ContinuousClock.now - started).components
                    let milliseconds = Double(elapsed.seconds) * 1_000 + Double(elapsed.attoseconds) / 1e15
                    log("snapshot of \(windows.count) window(s) and \(tabs) tab(s) read, matched and written in "
                        + "\(String(format: "%.1f", milliseconds)) ms")
                }
                return reply
            } catch {
                return refuse(message.id, "\(error)")
            }
        }

        /// `body`, again and again while another process holds the store past the busy timeout.
        private func retryingWhileLocked<T>(_ what: String, _ body: () throws -> T) throws -> T {
            var wait = 0.05
            while true {
                do {
                    return try body()
                } catch StorageError.busy {
                    log("\(what): the store is locked by another process; retrying")
                    Thread.sleep(forTimeInterval: wait)
                    wait = min(wait * 2, 1)
                }
            }
        }

        private func refuse(_ id: Int?, _ reason: String) -> MirrorReply {
            log("refused\(id.map { " message \($0)" } ?? ""): \(reason)")
            return MirrorReply(ack: id, error: reason)
        }

        /// Logs to standard error, which Chromium keeps in its own; Firefox shows it only in its
        /// Browser Console, so `SESSIONSTORE_HOST_LOG=FILE` appends every line to FILE as well.
        private func log(_ line: String) {
            let text = "sessionstore host: \(shown(line))\n"
            StandardError.write(text)
            // Never the store or a file SQLite keeps beside it: closing a descriptor on one drops the locks.
            if let file = ProcessInfo.processInfo.environment["SESSIONSTORE_HOST_LOG"], !file.isEmpty,
               (try? ExportTarget.refuseStore(file, storePath: options.path)) != nil
            {
                let descriptor = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { return }
                defer { close(descriptor) }
                _ = text.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
            }
        }

        /// A decoding error in a line: the key or value and where.
        static func describe(_ error: any Error) -> String {
            switch error {
            case DecodingError.keyNotFound(let key, let context):
                "no \(key.stringValue) at \(path(context))"
            case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
                 DecodingError.dataCorrupted(let context):
                "\(context.debugDescription) at \(path(context))"
            default:
                "\(error)"
            }
        }

        private static func path(_ context: DecodingError.Context) -> String {
            "$" + context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
    }
}
