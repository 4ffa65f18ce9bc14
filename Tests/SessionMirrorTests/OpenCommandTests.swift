import Foundation
import SessionMirror
import SessionStorage
import SessionTestSupport
import Testing

/// `sessionstore open --in BROWSER`: the command, the running host and the extension
/// (played by the test, on the host's standard input and output) are three processes.
@Suite struct OpenCommandTests {
    /// A running `sessionstore host`, spoken to as the browser speaks to it.
    final class RunningHost {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        var reader: NativeMessaging.Reader
        private var nextID = 1

        init(store: String, in dir: TemporaryDirectory, environment: [String: String]) throws {
            process.executableURL = URL(fileURLWithPath: BuiltBinary.sessionstore)
            process.arguments = ["host", "--db", store, "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]
            process.currentDirectoryURL = URL(fileURLWithPath: dir.path)
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            reader = NativeMessaging.Reader(descriptor: output.fileHandleForReading.fileDescriptor)
            try process.run()
        }

        /// The next message the host writes, decoded.
        func receive() throws -> [String: Any] {
            guard case .message(let body) = try #require(try reader.next()) else { throw CancellationError() }
            return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        }

        /// Sends `message` (an `id` added) and returns the host's reply to it.
        @discardableResult
        func ask(_ message: [String: Any]) throws -> [String: Any] {
            var message = message
            message["id"] = nextID
            nextID += 1
            input.fileHandleForWriting.write(NativeMessaging.frame(try JSONSerialization.data(withJSONObject: message)))
            let reply = try receive()
            #expect(reply["ack"] as? Int == message["id"] as? Int && reply["error"] == nil, "\(reply)")
            return reply
        }

        func end() -> Int32 {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    @Test func open_asksTheRunningHost_whoseExtensionOpensEachWindow_andAnswers() throws {
        try TemporaryDirectory.with { dir in
            let environment = ["TMPDIR": dir.path]
            #expect(try runTool(["demo", "--db", "s.sqlite", "--browsers", "2", "--tabs", "3"], in: dir.path).status == 0)
            let stored = try runTool(["ls", "--json", "--db", "s.sqlite"], in: dir.path)
            let host = try RunningHost(store: "s.sqlite", in: dir, environment: environment)
            let socket = HostChannel.path(store: dir.file("s.sqlite"), source: .chromium, directory: dir.file("sessionstore-\(getuid())"))
            for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { Thread.sleep(forTimeInterval: 0.05) }
            try #require(FileManager.default.fileExists(atPath: socket), "the host listens once it runs")

            // The command waits for the browser; the test plays the extension meanwhile. Sent before
            // the browser's first snapshot, the request waits for it: the next frame is the snapshot's ack.
            let command = Thread.detachNewThreadWithResult {
                try? runTool(["open", "--in", "chromium", "--json", "--db", "s.sqlite"], in: dir.path, environment: environment)
            }
            Thread.sleep(forTimeInterval: 0.5)
            try host.ask(["type": "snapshot", "windows": [["id": 7, "tabs": [["id": 70, "windowId": 7, "index": 0, "url": "https://shown.example/", "active": true]]]]])
            let request = try host.receive()
            #expect(request["type"] as? String == "open", "\(request)")
            let browsers = try #require(request["browsers"] as? [String])
            #expect(browsers.count == 2 && browsers.allSatisfy { stored.stdout.contains($0) }, "every stored window not shown")
            var results: [[String: Any]] = []
            for (k, browser) in browsers.enumerated() {
                let plan = try #require(try host.ask(["type": "restorePlan", "browser": browser, "offset": 0])["plan"] as? [String: Any])
                let tabs = try #require(plan["tabs"] as? [[String: Any]])
                let window = 100 + k
                let made: [[String: Any]] = tabs.enumerated().map { index, tab in
                    ["id": window * 10 + index, "windowId": window, "index": index, "url": tab["url"] ?? "",
                     "pinned": tab["pinned"] ?? false, "active": tab["active"] ?? false, "sid": tab["sid"] ?? ""]
                }
                try host.ask(["type": "windowRestored", "browser": browser, "window": ["id": window, "tabs": made]])
                results.append(["browser": browser, "window": window, "tabs": made.count])
            }
            // An answer owed to another host's request (the extension reconnected) answers nobody here.
            try host.ask(["type": "openDone", "request": -1, "results": []])
            try host.ask(["type": "openDone", "request": request["request"] ?? 0, "results": results])
            let answer = try #require(command.wait() ?? nil)
            #expect(answer.status == 0, "\(answer)")
            let opened = try #require(try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [[String: Any]])
            #expect(opened.map { $0["browser"] as? String } == browsers)
            #expect(opened.map { $0["tabs"] as? Int } == results.map { $0["tabs"] as? Int } && opened.allSatisfy { ($0["tabs"] as? Int ?? 0) > 0 })

            // Everything is shown now: nothing to open, said plainly; no host of Firefox: said so, 69.
            let nothing = try runTool(["open", "--in", "chromium", "--db", "s.sqlite"], in: dir.path, environment: environment)
            #expect(nothing.status == 1 && nothing.stderr.contains("no stored window to open"), "\(nothing)")
            let firefox = try runTool(["open", "--in", "firefox", "--db", "s.sqlite"], in: dir.path, environment: environment)
            #expect(firefox.status == 69 && firefox.stderr.contains("no firefox host runs for"), "\(firefox)")
            #expect(host.end() == 0)
            #expect(!FileManager.default.fileExists(atPath: socket), "the host removes its socket as it ends")
            // The restored windows are the stored browsers, not copies: still three browsers, the same tabs.
            let after = try runTool(["ls", "--json", "--db", "s.sqlite"], in: dir.path)
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
            let open = try #require(listed["browsers"] as? [[String: Any]])
            #expect(open.count == 3, "\(after)")
            for browser in browsers {
                let tabs = open.first { $0["id"] as? String == browser }?["tabs"] as? [[String: Any]]
                let made = results.first { $0["browser"] as? String == browser }?["tabs"] as? Int
                #expect(tabs?.count == made && tabs?.allSatisfy { stored.stdout.contains($0["id"] as? String ?? "-") } == true)
            }
        }
    }

    @Test func aDeadHostsSocket_isTakenOver_andAWrongDirectoryRefused() throws {
        try TemporaryDirectory.with { dir in
            let directory = dir.file("sockets")
            let path = HostChannel.path(store: dir.file("s.sqlite"), source: .firefox, directory: directory)
            let first = try #require(try HostChannel.Server(path: path))
            #expect(try HostChannel.Server(path: path) == nil, "a live host keeps its socket")
            first.close(saying: "test")
            #expect(!FileManager.default.fileExists(atPath: path))
            // A host that died: its socket's file stays, and nobody listens.
            close(try #require(try HostChannel.listen(at: path)))
            #expect(FileManager.default.fileExists(atPath: path))
            let second = try #require(try HostChannel.Server(path: path), "the dead host's file is taken over")
            let client = try HostChannel.connect(to: path)
            close(client)
            second.close(saying: "test")
            #expect(chmod(directory, 0o755) == 0)
            #expect(throws: HostChannel.Failure.self) { try HostChannel.listen(at: dir.file("sockets/other.sock")) }
        }
    }
}

extension Thread {
    /// Runs `body` on a new thread; `wait()` returns what it returned.
    static func detachNewThreadWithResult<T: Sendable>(_ body: @escaping @Sendable () -> T) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread.detachNewThread { result.set(body()) }
        return result
    }
}

/// What a thread returned, once it has.
final class ThreadResult<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var value: T?

    func set(_ value: T) {
        self.value = value
        done.signal()
    }

    func wait() -> T? {
        done.wait()
        return value
    }
}
