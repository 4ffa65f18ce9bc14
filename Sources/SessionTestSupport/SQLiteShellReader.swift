import Foundation

/// A plain reader of another process: the `sqlite3` shell with a read transaction
/// open on a store (`BEGIN; SELECT … FROM tabs`) until ``end()``.
public final class SQLiteShellReader {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var ended = false

    /// Starts `sqlite3` on `store` and returns once its read transaction is open.
    public init(store: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [store]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = try send("BEGIN; SELECT 'reading', count(*) FROM tabs;", until: "reading")
    }

    deinit { end() }

    /// Sends `sql` and returns what the shell printed up to and including `marker`.
    public func send(_ sql: String, until marker: String) throws -> String {
        input.fileHandleForWriting.write(Data((sql + "\n").utf8))
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(marker) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw ShellEnded(printed: String(decoding: seen, as: UTF8.self)) }
            seen.append(chunk)
        }
        return String(decoding: seen, as: UTF8.self)
    }

    /// Ends the transaction and the shell, and waits for it to exit.
    public func end() {
        guard !ended else { return }
        ended = true
        try? input.fileHandleForWriting.write(contentsOf: Data("COMMIT;\n.quit\n".utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The shell ended before printing what was waited for.
    public struct ShellEnded: Error, CustomStringConvertible {
        public var printed: String
        public var description: String { "sqlite3 ended early, having printed: \(printed)" }
    }
}
