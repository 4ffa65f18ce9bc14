// Writes a Swift file that embeds the given SQL migration files.
//
// Usage: EmbedMigrationsTool OUTPUT.swift 0001_name.sql [0002_name.sql …]
//
// Each file becomes one `EmbeddedMigration` whose identifier is the file name
// without `.sql`, in the order given (the plugin sorts them by name). The SQL is
// kept byte for byte in a raw multi-line string literal. An OUTPUT.swift that
// already holds exactly that text is not written again.
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("EmbedMigrationsTool: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard let outputPath = arguments.first else { fail("usage: EmbedMigrationsTool OUTPUT.swift FILE.sql…") }

var source = """
    // Generated at build time by EmbedMigrationsTool from Migrations/*.sql. Do not edit.

    extension EmbeddedMigration {
        /// Every migration of Migrations/, in the order they apply.
        package static let all: [EmbeddedMigration] = [

    """
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    guard let sql = String(data: data, encoding: .utf8) else { fail("\(path) is not UTF-8") }
    if sql.contains("\r") { fail("\(path) contains a carriage return; use LF line endings") }
    let identifier = url.deletingPathExtension().lastPathComponent
    guard identifier.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
        fail("\(path): a migration file name may hold only letters, digits and underscores")
    }
    // A raw string delimiter longer than any run of # in the SQL.
    var longestRun = 0
    var run = 0
    for character in sql {
        run = character == "#" ? run + 1 : 0
        longestRun = max(longestRun, run)
    }
    let hashes = String(repeating: "#", count: longestRun + 1)
    // A multi-line literal drops the newline just before its closing delimiter:
    // add one so the embedded text ends exactly as the file does.
    source += "        EmbeddedMigration(\n"
    source += "            identifier: \"\(identifier)\",\n"
    source += "            checksum: \"\(sha256Hex(Array(data)))\",\n"
    source += "            sql: \(hashes)\"\"\"\n\(sql)\n\"\"\"\(hashes)\n"
    source += "        ),\n"
}
source += "    ]\n}\n"

// Unchanged content is left alone, file and modification time: SwiftPM re-runs
// this command whenever it relinks the tool (after every re-plan of a build: a
// first build, a Package.swift edit, a source file added or removed), and a
// fresh timestamp would recompile SessionStorage and everything above it.
let content = Data(source.utf8)
if FileManager.default.contents(atPath: outputPath) == content { exit(0) }
do {
    try content.write(to: URL(fileURLWithPath: outputPath), options: .atomic)
} catch {
    fail("cannot write \(outputPath): \(error)")
}
