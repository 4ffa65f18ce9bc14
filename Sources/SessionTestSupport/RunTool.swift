import Foundation

extension BuiltBinary {
    /// The `sessionstore` command SwiftPM built.
    public static let sessionstore = path("sessionstore")
}

/// What one finished run printed, and how it exited.
public struct RunResult: Equatable, Sendable, CustomStringConvertible {
    /// The exit status.
    public var status: Int32
    /// Everything printed on stdout.
    public var stdout: String
    /// Everything printed on stderr.
    public var stderr: String

    /// A result, for comparing with one a run gave.
    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    public var description: String { "exit \(status)\nstdout: \(stdout.prefix(2000))\nstderr: \(stderr)" }
    /// The lines of stderr.
    public var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }
}

/// Runs `sessionstore` (or another binary) to completion, with the
/// environment less SESSIONSTORE_DB plus `environment`, output captured in files
/// (nothing can fill a pipe and block the child), killed after ``Patience`` times `timeout` seconds.
/// With `user`, it runs as that user (through `setpriv`), so file permissions bite.
public func runTool(
    _ arguments: [String], in directory: String, binary: String = BuiltBinary.sessionstore,
    environment: [String: String] = [:], stdin: Data? = nil, timeout: Double = 120, user: UInt32? = nil,
    stdoutPath: String? = nil
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
    // With `stdoutPath`, stdout goes there instead (a device such as /dev/full, a FIFO).
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath ?? capture.file("out")))
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
    DispatchQueue.global().asyncAfter(deadline: .now() + Patience.seconds(timeout)) {
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
