import Foundation
import SessionTestSupport
import Testing

/// A store holds browsing history: whatever made it, it is its owner's alone.
@Suite struct FileModeTests {
    let binary = SessionStoreBinary()

    @Test func anEmptyWorldReadableFile_madeIntoAStore_becomes0600() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("empty.sqlite")
            #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
            let result = try binary.run(["migrate", "--db", path], in: dir.path)
            #expect(result.status == 0, "\(result)")
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                let mode = try FileManager.default.attributesOfItem(atPath: path + suffix)[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(suffix.isEmpty ? "the store" : suffix): \(String(mode ?? -1, radix: 8))")
            }
            #expect(try binary.run(["check", "--db", path], in: dir.path).status == 0)
        }
    }
}
