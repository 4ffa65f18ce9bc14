import Foundation

/// Locates the executables SwiftPM built beside the test bundle, for tests
/// that run the real `sessionstore` (or a helper binary) as a subprocess.
public enum BuiltBinary {
    /// The path of the executable `name`: beside the test bundle, else in `.build/debug`.
    public static func path(_ name: String) -> String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [beside, beside.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/\(name)").path
    }
}
