import Foundation
import SessionTestSupport
import Testing

/// The build tool behind `EmbedMigrationsPlugin`, run as the plugin runs it. SwiftPM
/// runs it again after every re-plan of a build (it relinks the tool, an input of the
/// command), so an unchanged output must keep its file and time: a rewrite would
/// recompile SessionStorage and everything above it, in this package and in clients.
@Suite struct EmbedMigrationsToolTests {
    static let tool = BuiltBinary.path("EmbedMigrationsTool")
    /// A time no write of this run can give the file back.
    static let oldTime = Date(timeIntervalSince1970: 1_000_000_000)

    /// The repository's migration files, sorted as the plugin passes them.
    static func migrationFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: EmbeddedMigrationTests.migrationsDirectory.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
            .map { EmbeddedMigrationTests.migrationsDirectory.appendingPathComponent($0).path }
    }

    static func embed(_ output: String, _ files: [String], in directory: TemporaryDirectory) throws {
        let result = try runTool([output] + files, in: directory.path, binary: tool)
        #expect(result == .init(status: 0, stdout: "", stderr: ""))
    }

    static func modificationDate(_ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }

    static func ageOutput(_ path: String) throws {
        try FileManager.default.setAttributes([.modificationDate: oldTime], ofItemAtPath: path)
        #expect(try modificationDate(path) == oldTime)
    }

    @Test func secondRun_onTheSameMigrations_leavesTheOutputAndItsTimeAlone() throws {
        try TemporaryDirectory.with { directory in
            let output = directory.file("EmbeddedMigrations+Generated.swift")
            let files = try Self.migrationFiles()
            try Self.embed(output, files, in: directory)
            let first = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(String(decoding: first, as: UTF8.self).contains("package static let all: [EmbeddedMigration]"))
            try Self.ageOutput(output)

            try Self.embed(output, files, in: directory)
            #expect(try Self.modificationDate(output) == Self.oldTime, "the tool rewrote an up-to-date output")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == first)
        }
    }

    @Test func changedMigration_rewritesTheOutput() throws {
        try TemporaryDirectory.with { directory in
            let output = directory.file("EmbeddedMigrations+Generated.swift")
            let migration = directory.file("0001_example.sql")
            try Data("CREATE TABLE example (id INTEGER PRIMARY KEY);\n".utf8).write(to: URL(fileURLWithPath: migration))
            try Self.embed(output, [migration], in: directory)
            let first = try Data(contentsOf: URL(fileURLWithPath: output))
            try Self.ageOutput(output)

            try Data("CREATE TABLE example (id INTEGER PRIMARY KEY, name TEXT);\n".utf8)
                .write(to: URL(fileURLWithPath: migration))
            try Self.embed(output, [migration], in: directory)
            let second = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(second != first)
            #expect(String(decoding: second, as: UTF8.self).contains("name TEXT"))
            #expect(try Self.modificationDate(output) != Self.oldTime)
        }
    }
}
