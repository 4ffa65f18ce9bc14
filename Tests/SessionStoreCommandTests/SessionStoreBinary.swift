import Foundation
import SessionTestSupport

/// Runs the built `sessionstore` binary (or an installed copy) and captures what it prints.
struct SessionStoreBinary {
    /// What one run printed, and how it exited.
    typealias Result = RunResult

    /// The binary SwiftPM built beside the test bundle.
    static let builtPath = BuiltBinary.sessionstore

    var path = SessionStoreBinary.builtPath

    /// Runs the binary with `arguments` in `directory`, with `environment`
    /// added to the inherited one (always without SESSIONSTORE_DB unless given).
    func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Result {
        try runTool(arguments, in: directory, binary: path, environment: environment)
    }
}
