import Foundation
import SessionMirror
import SessionStorage
import SessionTestSupport
import Testing

/// `sessionstore host`, the built binary, spoken to as a browser speaks to it:
/// length-prefixed JSON on its standard input, replies on its standard output.
@Suite struct HostCommandTests {
    /// `messages` framed as the browser frames them.
    static func framed(_ messages: [String]) -> Data {
        messages.reduce(into: Data()) { $0.append(NativeMessaging.frame(Data($1.utf8))) }
    }

    /// The replies in `data`, decoded.
    static func replies(_ data: Data) throws -> [[String: Any]] {
        var replies: [[String: Any]] = []
        var rest = data[...]
        while rest.count >= 4 {
            let length = Int(rest.prefix(4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
            let body = rest.dropFirst(4).prefix(length)
            replies.append(try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]))
            rest = rest.dropFirst(4 + length)
        }
        #expect(rest.isEmpty)
        return replies
    }

    /// Runs the host on `input`; its exit status, replies and log.
    static func host(_ input: Data, in dir: TemporaryDirectory, extra: [String] = []) throws -> (Int32, [[String: Any]], String) {
        let out = dir.file("replies-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        // As Chromium starts it: the caller's origin as an argument, which the host ignores.
        let result = try runTool(
            ["host", "--db", "s.sqlite"] + extra + ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"],
            in: dir.path, stdin: input, stdoutPath: out)
        return (result.status, try replies(fileBytes(out) ?? Data()), result.stderr)
    }

    static let window = #"{"id":1,"type":"windowCreated","window":{"id":7,"tabs":[]}}"#
    static let tab = #"{"id":2,"type":"tabCreated","tab":{"id":70,"windowId":7,"index":0,"url":"https://example.org/","title":"Example","active":true}}"#

    @Test func eachEventIsAcknowledged_withTheTabsIdentifier_andWritten() throws {
        try TemporaryDirectory.with { dir in
            let (status, replies, log) = try Self.host(Self.framed([Self.window, Self.tab]), in: dir)
            #expect(status == 0, "\(log)")
            #expect(replies.map { $0["ack"] as? Int } == [1, 2], "\(replies)")
            let id = try #require((replies[1]["ids"] as? [String: String])?["70"])
            #expect(log.contains("every complete message is written"), "\(log)")
            let ls = try runTool(["ls", "--json", "--db", "s.sqlite"], in: dir.path)
            #expect(ls.stdout.contains(id) && ls.stdout.contains("https://example.org/"), "\(ls)")
        }
    }

    /// `SESSIONSTORE_HOST_LOG` gets every log line, with the snapshot's timing; named as the
    /// store or its WAL, it is left alone (a descriptor closed on a store file drops its locks).
    @Test func theLogFile_getsEveryLine_butNeverTheStoresFiles() throws {
        try TemporaryDirectory.with { dir in
            let snapshot = #"{"id":1,"type":"snapshot","windows":[{"id":7,"tabs":[{"id":70,"windowId":7,"index":0,"url":"https://example.org/","active":true}]}]}"#
            let log = dir.file("host.log")
            let first = try runTool(["host", "--db", "s.sqlite"], in: dir.path, environment: ["SESSIONSTORE_HOST_LOG": log],
                                    stdin: Self.framed([snapshot]))
            #expect(first.status == 0, "\(first)")
            let written = try String(contentsOfFile: log, encoding: .utf8)
            #expect(written.contains("sessionstore host: mirroring browser into"), "\(written)")
            #expect(written.contains("snapshot of 1 window(s) and 1 tab(s) read, matched and written in"), "\(written)")
            for target in ["s.sqlite", "s.sqlite-wal", dir.file("s.sqlite-shm")] {
                let again = try runTool(["host", "--db", "s.sqlite"], in: dir.path, environment: ["SESSIONSTORE_HOST_LOG": target],
                                        stdin: Self.framed([Self.window, Self.tab]))
                #expect(again.status == 0 && again.stderr.contains("every complete message is written"), "\(again)")
            }
            let check = try runTool(["check", "--db", "s.sqlite"], in: dir.path)
            #expect(check.status == 0, "\(check)")
        }
    }

    /// A store an older release made (migrations pending) is migrated by the host, as an
    /// app's open migrates it: the browser's host is the store's writer, not a tool that
    /// must leave the file as it found it (the shared-store suite found a host refusing one
    /// that a writer killed in the middle of its migrations had left).
    @Test func aStoreWithPendingMigrations_isMigrated_andMirrored() throws {
        try TemporaryDirectory.with { dir in
            var older = SessionDatabase.Configuration()
            older.knownMigrationCount = 3
            try SessionDatabase.open(atPath: dir.file("s.sqlite"), configuration: older).close()
            #expect(try runTool(["ls", "--db", "s.sqlite"], in: dir.path).status == 65)
            let (status, replies, log) = try Self.host(Self.framed([Self.window, Self.tab]), in: dir)
            #expect(status == 0, "\(log)")
            #expect(replies.map { $0["ack"] as? Int } == [1, 2] && replies.allSatisfy { $0["error"] == nil }, "\(replies)")
            let report = try runTool(["status", "--db", "s.sqlite"], in: dir.path)
            #expect(report.stdout.contains("pending:         none\n"), "\(report)")
            #expect(try runTool(["ls", "--db", "s.sqlite"], in: dir.path).stdout.contains("https://example.org/"))
        }
    }

    /// Bad messages are refused in their reply and on stderr, write nothing, and the
    /// host goes on; a last message cut short is dropped, and the host exits 0.
    @Test func badMessages_areRefusedAndChangeNothing_andATruncatedLastOneIsDropped() throws {
        try TemporaryDirectory.with { dir in
            var input = Self.framed([
                "{not json", #"{"id":5,"type":"tabTeleported"}"#, #"{"id":6}"#,
                #"{"id":7,"type":"tabCreated","tab":{"id":"seventy"}}"#, "[1,2]",
            ])
            var truncated = NativeMessaging.frame(Data(Self.window.utf8))
            truncated.removeLast(10)
            input.append(truncated)
            let (status, replies, log) = try Self.host(input, in: dir)
            #expect(status == 0, "\(log)")
            #expect(replies.count == 5, "\(replies)")
            #expect(replies.map { $0["ack"] as? Int } == [nil, 5, 6, 7, nil], "\(replies)")
            #expect(replies.allSatisfy { ($0["error"] as? String)?.isEmpty == false }, "\(replies)")
            #expect(log.contains("refused message 7: not a message the host knows"), "\(log)")
            #expect(log.contains("the input ended inside a message"), "\(log)")
            let status2 = try runTool(["status", "--json", "--db", "s.sqlite"], in: dir.path)
            #expect(status2.stdout.contains(#""browsers" : 0"#), "\(status2)")
        }
    }

    /// A window removed and then the input ended (the browser quit): it stays open.
    /// A window removed while the browser runs on: written as closed after the delay.
    @Test func aRemovedWindow_staysOpenWhenTheBrowserQuits_andClosesWhenItRunsOn() throws {
        let second = #"{"id":3,"type":"windowCreated","window":{"id":8,"tabs":[]}}"#
        let secondTab = #"{"id":4,"type":"tabCreated","tab":{"id":80,"windowId":8,"index":0,"url":"https://example.net/","active":true}}"#
        let removed = #"{"id":5,"type":"windowRemoved","windowId":8}"#
        try TemporaryDirectory.with { dir in
            let (status, replies, log) = try Self.host(Self.framed([Self.window, Self.tab, second, secondTab, removed]), in: dir)
            #expect(status == 0 && replies.count == 5, "\(log)")
            #expect(log.contains("the browser quit: 1 window(s)"), "\(log)")
            let ls = try runTool(["ls", "--db", "s.sqlite"], in: dir.path)
            #expect(ls.stdout.hasPrefix("2 browsers"), "\(ls)")
        }
        try TemporaryDirectory.with { dir in
            let host = Process()
            host.executableURL = URL(fileURLWithPath: BuiltBinary.sessionstore)
            host.arguments = ["host", "--db", "s.sqlite"]
            host.currentDirectoryURL = URL(fileURLWithPath: dir.path)
            let input = Pipe()
            host.standardInput = input
            host.standardOutput = FileHandle.nullDevice
            host.standardError = FileHandle.nullDevice
            try host.run()
            try input.fileHandleForWriting.write(contentsOf: Self.framed([Self.window, Self.tab, second, secondTab, removed]))
            Thread.sleep(forTimeInterval: BrowserMirror.closeDelay + 1.5)
            try input.fileHandleForWriting.close()
            host.waitUntilExit()
            #expect(host.terminationStatus == 0)
            let ls = try runTool(["ls", "--all", "--db", "s.sqlite"], in: dir.path)
            #expect(ls.stdout.hasPrefix("1 browser") && ls.stdout.contains("window"), "\(ls)")
        }
    }

    /// With another process holding the write lock past the busy timeout, the host
    /// waits and retries: the event is written once the lock is released, never dropped.
    @Test func aLockedStore_isWaitedFor_andTheEventWritten() throws {
        try TemporaryDirectory.with { dir in
            #expect(try runTool(["migrate", "--db", "s.sqlite"], in: dir.path).status == 0)
            let locker = Process()
            locker.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            locker.arguments = [dir.file("s.sqlite")]
            let input = Pipe()
            locker.standardInput = input
            locker.standardOutput = FileHandle.nullDevice
            try locker.run()
            try input.fileHandleForWriting.write(contentsOf: Data("BEGIN IMMEDIATE;\nSELECT 1;\n".utf8))
            Thread.sleep(forTimeInterval: 0.5)
            DispatchQueue.global().asyncAfter(deadline: .now() + 2) {
                try? input.fileHandleForWriting.write(contentsOf: Data("ROLLBACK;\n.quit\n".utf8))
                try? input.fileHandleForWriting.close()
            }
            let (status, replies, log) = try Self.host(
                Self.framed([Self.window, Self.tab]), in: dir, extra: ["--busy-timeout", "0.2"])
            locker.waitUntilExit()
            #expect(status == 0, "\(log)")
            #expect(replies.map { $0["ack"] as? Int } == [1, 2] && replies.allSatisfy { $0["error"] == nil }, "\(replies)")
            #expect(log.contains("locked by another process; retrying"), "\(log)")
            let ls = try runTool(["ls", "--db", "s.sqlite"], in: dir.path)
            #expect(ls.stdout.contains("https://example.org/"), "\(ls)")
        }
    }
}
