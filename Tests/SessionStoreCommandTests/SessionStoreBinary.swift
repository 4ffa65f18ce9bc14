import Foundation
import SessionTestSupport

/// Runs the built `sessionstore` binary and captures what it prints.
struct SessionStoreBinary {
    /// What one run printed, and how it exited.
    struct Result: Equatable, CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
    }

    /// The binary SwiftPM built beside the test bundle.
    static let builtPath = BuiltBinary.path("sessionstore")

    var path = SessionStoreBinary.builtPath

    /// Runs the binary with `arguments` in `directory`, with `environment`
    /// replacing the inherited one (always without SESSIONSTORE_DB unless given).
    func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var inherited = ProcessInfo.processInfo.environment
        inherited["SESSIONSTORE_DB"] = nil
        inherited["COLUMNS"] = "80"
        process.environment = inherited.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
