import Foundation
import SyncServerHarness
import SyncServer

/// `pg_dump` of a test database, and a search of its text that also decodes
/// every base64 and hex run it holds.
enum PGDump {
    /// The plain-text dump of the database at `url`.
    static func dump(_ url: String) throws -> String {
        let parsed = try DatabaseURL(url)
        guard let components = URLComponents(string: url) else { throw DumpError(message: "unreadable URL") }
        let socketDirectory = components.queryItems?.first { $0.name == "host" }?.value
        let binary = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
            .sorted().last.map { "/usr/lib/postgresql/\($0)/bin/pg_dump" } ?? "pg_dump"
        var arguments = [binary, "--no-owner", "-U", parsed.username, "-d", String(components.path.dropFirst())]
        arguments += ["-h", socketDirectory ?? components.host ?? "localhost", "-p", String(components.port ?? 5432)]
        return try ChildProcess.run(arguments)
    }

    /// Loads a plain-text dump into the (empty) database at `url`, as an operator restoring a backup would.
    static func restore(_ dump: String, into url: String) throws {
        let parsed = try DatabaseURL(url)
        guard let components = URLComponents(string: url) else { throw DumpError(message: "unreadable URL") }
        let socketDirectory = components.queryItems?.first { $0.name == "host" }?.value
        let binary = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
            .sorted().last.map { "/usr/lib/postgresql/\($0)/bin/psql" } ?? "psql"
        let file = NSTemporaryDirectory() + "dump-\(UUID().uuidString).sql"
        try dump.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        var arguments = [binary, "-q", "-v", "ON_ERROR_STOP=1", "-U", parsed.username, "-d", String(components.path.dropFirst())]
        arguments += ["-h", socketDirectory ?? components.host ?? "localhost", "-p", String(components.port ?? 5432)]
        arguments += ["-f", file]
        _ = try ChildProcess.run(arguments)
    }

    struct DumpError: Error {
        var message: String
    }

    /// Whether `needle` appears in `text` as it is, or inside any base64 or hex
    /// run of it once decoded (bytea is dumped as `\x…` hex).
    static func containsAnywhere(_ text: String, _ needle: String) -> Bool {
        if text.range(of: needle, options: .caseInsensitive) != nil { return true }
        let bytes = Data(needle.utf8)
        for run in runs(in: text, of: "0123456789abcdefABCDEF") where run.count >= 2 {
            let even = run.count % 2 == 0 ? run : String(run.dropFirst())
            if let data = hex(even), data.range(of: bytes) != nil { return true }
        }
        for run in runs(in: text, of: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_") where run.count >= 8 {
            var base64 = run.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                .replacingOccurrences(of: "=", with: "")
            while base64.count % 4 != 0 { base64 += "=" }
            if let data = Data(base64Encoded: base64), data.range(of: bytes) != nil { return true }
        }
        return false
    }

    private static func runs(in text: String, of alphabet: String) -> [String] {
        let allowed = Set(alphabet)
        var runs: [String] = []
        var current = ""
        for character in text {
            if allowed.contains(character) {
                current.append(character)
            } else if !current.isEmpty {
                runs.append(current)
                current = ""
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    private static func hex(_ text: String) -> Data? {
        var data = Data(capacity: text.count / 2)
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            data.append(byte)
            index = next
        }
        return data
    }
}
