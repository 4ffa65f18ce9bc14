import Foundation
import SessionTestSupport

extension BuiltBinary {
    static let sessionstore = path("sessionstore")
    static let crashWriter = path("sessionstore-crash-writer")
}

/// What one finished run printed, and how it exited.
struct RunResult: Equatable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var description: String { "exit \(status)\nstdout: \(stdout.prefix(2000))\nstderr: \(stderr)" }
    var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }
}

/// Runs `sessionstore` (or another binary) to completion.
func runTool(
    _ arguments: [String], in directory: String, binary: String = BuiltBinary.sessionstore,
    environment: [String: String] = [:], stdin: Data? = nil, timeout: Double = 120, user: UInt32? = nil
) throws -> RunResult {
    let process = Process()
    if let user {
        // setpriv drops root, so file permissions bite as they do for an ordinary user.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", binary] + arguments
    } else {
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
    }
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var inherited = ProcessInfo.processInfo.environment
    inherited["SESSIONSTORE_DB"] = nil
    inherited["COLUMNS"] = "80"
    process.environment = inherited.merging(environment) { $1 }
    // Output goes to files, not pipes: no reader threads, nothing can fill up and block the child.
    let capture = try TemporaryDirectory()
    defer { capture.remove() }
    _ = FileManager.default.createFile(atPath: capture.file("out"), contents: nil)
    _ = FileManager.default.createFile(atPath: capture.file("err"), contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: capture.file("out")))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: capture.file("err")))
    defer {
        try? out.close()
        try? err.close()
    }
    process.standardOutput = out
    process.standardError = err
    let input = Pipe()
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    try process.run()
    let pid = process.processIdentifier
    let done = ValueRecorder<Bool>()
    defer { done.record(true) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
        if done.recorded.isEmpty { kill(pid, SIGKILL) }
    }
    if let stdin {
        try input.fileHandleForWriting.write(contentsOf: stdin)
        try input.fileHandleForWriting.close()
    }
    process.waitUntilExit()
    return RunResult(
        status: process.terminationStatus,
        stdout: String(decoding: fileBytes(capture.file("out")) ?? Data(), as: UTF8.self),
        stderr: String(decoding: fileBytes(capture.file("err")) ?? Data(), as: UTF8.self))
}

/// A running `sessionstore-crash-writer` whose stdout lines are collected as they come.
final class RunningWriter: @unchecked Sendable {
    let process = Process()
    let lines = ValueRecorder<String>()
    private let err = ValueRecorder<Data>()
    private let finished = ValueRecorder<Bool>()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: BuiltBinary.crashWriter)
        process.arguments = arguments
        let out = Pipe(), errPipe = Pipe()
        process.standardOutput = out
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
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
