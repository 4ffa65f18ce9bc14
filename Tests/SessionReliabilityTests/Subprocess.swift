import Foundation
import SessionTestSupport
import Testing

extension BuiltBinary {
    static let crashWriter = path("sessionstore-crash-writer")
}

/// Makes a demo store `s.sqlite` in `directory` with `sessionstore demo`, and its
/// export `e.json`; returns the export's bytes.
@discardableResult
func demoStoreAndExport(
    in directory: TemporaryDirectory, arguments: [String] = ["--browsers", "1", "--tabs", "2"]
) throws -> Data {
    #expect(try runTool(["demo", "--db", "s.sqlite"] + arguments, in: directory.path).status == 0)
    #expect(try runTool(["export", "--db", "s.sqlite", "--output", "e.json"], in: directory.path).status == 0)
    return try Data(contentsOf: URL(fileURLWithPath: directory.file("e.json")))
}


/// A running `sessionstore-crash-writer` whose stdout lines are collected as they come.
final class RunningWriter: @unchecked Sendable {
    let process = Process()
    let lines = ValueRecorder<String>()
    private let err = ValueRecorder<Data>()
    private let finished = ValueRecorder<Bool>()

    /// Its stdin, for a writer driven by commands (`app` mode); `nil` otherwise.
    private let input: Pipe?

    init(_ arguments: [String], interactive: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: BuiltBinary.crashWriter)
        process.arguments = arguments
        let out = Pipe(), errPipe = Pipe()
        process.standardOutput = out
        process.standardError = errPipe
        input = interactive ? Pipe() : nil
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        let lines = self.lines, err = self.err, finished = self.finished
        Thread.detachNewThread {
            var pending = Data()
            let handle = out.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.record(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[(newline + 1)...])
                }
            }
            finished.record(true)
        }
        Thread.detachNewThread { err.record(errPipe.fileHandleForReading.readDataToEndOfFile()) }
    }

    /// Sends `command` on its stdin and waits for the answer line it prints (the
    /// line count grows by one); returns that line, or `nil` if none came in time.
    @discardableResult
    func send(_ command: String, timeout: Double = 60) -> String? {
        let before = lines.recorded.count
        input?.fileHandleForWriting.write(Data((command + "\n").utf8))
        guard lines.wait(timeout: timeout, until: { $0.count > before }) else { return nil }
        return lines.recorded[before]
    }

    /// Acknowledged sequence numbers (lines that start with a number).
    var acknowledged: [Int] { lines.recorded.compactMap { Int($0.split(separator: " ").first ?? "") } }

    /// Waits until `predicate` holds for the lines printed so far (or the writer exits).
    @discardableResult
    func wait(timeout: Double = 60, until predicate: @escaping ([String]) -> Bool) -> Bool {
        lines.wait(timeout: timeout) { predicate($0) }
    }

    /// SIGKILLs the writer and collects everything it printed before dying.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        finish()
    }

    /// Waits for the writer to exit and its output to be read.
    @discardableResult
    func finish(timeout: Double = 600) -> (status: Int32, stderr: String) {
        process.waitUntilExit()
        finished.wait(timeout: timeout) { !$0.isEmpty }
        err.wait(timeout: timeout) { !$0.isEmpty }
        return (process.terminationStatus, String(decoding: err.recorded.first ?? Data(), as: UTF8.self))
    }
}

/// The SHA-256-free fingerprint used to say "byte-identical": the bytes themselves (nil when missing).
func fingerprint(_ path: String) -> Data? { fileBytes(path) }

/// Whether the full (long) runs were asked for.
let fullRuns = ProcessInfo.processInfo.environment["SESSIONSTORE_RELIABILITY_FULL"] == "1"
