import Foundation

/// A `sessionstore watch` process whose output is collected as it comes.
public final class WatchProcess {
    public let process = Process()
    public let stdout = ValueRecorder<Data>()
    public let stderr = ValueRecorder<Data>()
    public let exit = ValueRecorder<Int32>()

    public init(path: String = BuiltBinary.sessionstore, arguments: [String], in directory: String) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["watch"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["SESSIONSTORE_DB"] = nil
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [exit] in exit.record($0.terminationStatus) }
        try process.run()
        Self.read(out.fileHandleForReading, into: stdout)
        Self.read(err.fileHandleForReading, into: stderr)
    }

    /// Records what arrives on `handle` until its end, from a thread of its own that
    /// blocks in `read`. Not `readabilityHandler`: its dispatch read source, left
    /// registered when the pipe is closed, crashed libdispatch's event loop
    /// (`_dispatch_event_loop_drain`) in a test process under load.
    private static func read(_ handle: FileHandle, into recorder: ValueRecorder<Data>) {
        Thread.detachNewThread {
            while case let chunk = handle.availableData, !chunk.isEmpty {
                recorder.record(chunk)
            }
        }
    }

    /// The lines printed so far.
    public var lines: [String] {
        String(decoding: stdout.recorded.reduce(Data(), +), as: UTF8.self)
            .split(separator: "\n").map(String.init)
    }

    public var errorText: String { String(decoding: stderr.recorded.reduce(Data(), +), as: UTF8.self) }

    /// Waits until the printed lines satisfy `predicate`.
    public func waitForLines(timeout: Double = 15, _ predicate: @escaping ([String]) -> Bool) -> Bool {
        stdout.wait(timeout: timeout) { chunks in
            predicate(String(decoding: chunks.reduce(Data(), +), as: UTF8.self).split(separator: "\n").map(String.init))
        }
    }

    /// Waits for the process to exit; its status, or `nil` on timeout (the process is then killed).
    public func waitForExit(timeout: Double = 15) -> Int32? {
        guard exit.wait(timeout: timeout, until: { !$0.isEmpty }) else {
            process.terminate()
            return nil
        }
        return exit.recorded.first
    }
}
