import Foundation
import Testing
@testable import SessionStorage
import SessionTestSupport

@Suite struct EmbeddedMigrationTests {
    /// The top-level Migrations/ folder of this package's source tree.
    static let migrationsDirectory = URL(fileURLWithPath: #filePath)  // Tests/SessionStorageTests/Migration/
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Migrations")

    @Test func embedded_equalsMigrationFiles_byteForByte() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsDirectory.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
        #expect(!files.isEmpty)
        #expect(EmbeddedMigration.all.map(\.identifier) == files.map { String($0.dropLast(4)) })
        for (file, migration) in zip(files, EmbeddedMigration.all) {
            let data = try Data(contentsOf: Self.migrationsDirectory.appendingPathComponent(file))
            #expect(Data(migration.sql.utf8) == data, "\(file) differs from its embedded copy")
        }
    }

    @Test func identifiers_areNumberedInOrder_andUnique() {
        let identifiers = EmbeddedMigration.all.map(\.identifier)
        #expect(Set(identifiers).count == identifiers.count)
        for (offset, identifier) in identifiers.enumerated() {
            #expect(identifier.hasPrefix(String(format: "%04d_", offset + 1)))
        }
    }

    /// The build tool's checksums (computed by the plugin, so the library links no
    /// hashing code) equal what coreutils' `sha256sum` prints for each file.
    @Test func checksum_equalsSHA256SumOfFile() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsDirectory.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
        for (file, migration) in zip(files, EmbeddedMigration.all) {
            let path = Self.migrationsDirectory.appendingPathComponent(file).path
            let result = try runTool([path], in: NSTemporaryDirectory(), binary: "/usr/bin/sha256sum")
            #expect(result.status == 0)
            #expect(result.stdout.split(separator: " ").first.map(String.init) == migration.checksum, "\(file)")
        }
    }
}
