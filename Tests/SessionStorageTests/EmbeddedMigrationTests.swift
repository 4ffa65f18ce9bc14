import Foundation
import Testing
@testable import SessionStorage

@Suite struct EmbeddedMigrationTests {
    /// The top-level Migrations/ folder of this package's source tree.
    static let migrationsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Migrations")

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

    @Test func checksum_isSHA256OfSQL() {
        let migration = EmbeddedMigration(identifier: "0001_x", sql: "abc")
        #expect(migration.checksum == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
