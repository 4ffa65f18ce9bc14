import Foundation
import SessionModel
import SessionTestSupport
import Testing

/// `import --from firefox|chromium` on bad browser files: each exits 65 with one
/// line on stderr, prints nothing on stdout, and leaves the store byte for byte
/// as it was (the import is all-or-nothing, and refused before it writes).
@Suite struct BadBrowserFileTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SessionInteropTests/Fixtures")

    enum BadFile: String, CaseIterable, Sendable, CustomStringConvertible {
        case firefoxTruncated, firefoxGarbage, firefoxWrongMagic, firefoxSizeTooSmall, firefoxSizeTooLarge
        case firefoxBomb, firefoxEmptyDirectory, firefoxNotASession
        case firefoxNoWindow
        case chromiumBadMagic, chromiumBadVersion, chromiumEmptyFile, chromiumEmptyDirectory, chromiumGarbage
        case chromiumHeaderOnly, chromiumTruncatedFirstCommand
        var description: String { rawValue }
        var browser: String { rawValue.hasPrefix("firefox") ? "firefox" : "chromium" }
    }

    private func plant(_ bad: BadFile, in dir: TemporaryDirectory) throws -> String {
        let real = try Data(contentsOf: Self.fixtures.appendingPathComponent("firefox/sessionstore.jsonlz4"))
        var path = dir.file("bad-input")
        func mozLz4(size: UInt32, block: Data) -> Data {
            var data = Data("mozLz40\0".utf8)
            withUnsafeBytes(of: size.littleEndian) { data.append(contentsOf: $0) }
            return data + block
        }
        let size = real.subdata(in: 8..<12).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        var data = Data()
        switch bad {
        case .firefoxTruncated: data = real.prefix(real.count / 2)
        case .firefoxGarbage, .chromiumGarbage:
            var rng = SplitMix64(seed: 11)
            data = Data((0..<4_096).map { _ in UInt8.random(in: 0...255, using: &rng) })
        case .firefoxWrongMagic: data = Data("mozLz41\0".utf8) + real.dropFirst(8)
        case .firefoxSizeTooSmall: data = mozLz4(size: size / 2, block: real.dropFirst(12))
        case .firefoxSizeTooLarge: data = mozLz4(size: size * 2, block: real.dropFirst(12))
        case .firefoxBomb: data = mozLz4(size: 0xFFFF_FFF0, block: Data([0x1F, 0x61, 0x01, 0x00]))
        case .firefoxNotASession: data = mozLz4(size: 15, block: Data([0xF0, 0x00]) + Data("{\"hello\": [1]}".utf8))
        case .firefoxEmptyDirectory, .chromiumEmptyDirectory:
            path = dir.file("profile")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        case .chromiumBadMagic: data = Data("SNSX".utf8) + Data([3, 0, 0, 0])
        case .chromiumBadVersion: data = Data("SNSS".utf8) + Data([42, 0, 0, 0])
        case .chromiumEmptyFile: data = Data()
        case .firefoxNoWindow: data = Data(#"{"version": ["sessionrestore", 1], "windows": [], "_closedWindows": []}"#.utf8)
        case .chromiumHeaderOnly: data = Data("SNSS".utf8) + Data([3, 0, 0, 0])
        case .chromiumTruncatedFirstCommand: data = Data("SNSS".utf8) + Data([3, 0, 0, 0, 0x20, 0x00, 6]) + Data("abc".utf8)
        }
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: BadFile.allCases)
    func importBadBrowserFile_exits65WithOneLine_storeUnchanged(_ bad: BadFile) throws {
        try TemporaryDirectory.with { dir in
            let path = dir.file("s.sqlite")
            let demo = try runTool(["demo", "--db", path, "--browsers", "1", "--tabs", "3"], in: dir.path)
            try #require(demo.status == 0, "\(demo)")
            let before = fingerprint(path)
            let source = try plant(bad, in: dir)
            let result = try runTool(["import", "--from", bad.browser, source, "--db", path], in: dir.path)
            #expect(result.status == 65, "\(bad): \(result)")
            #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("sessionstore: "), "\(bad): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(fingerprint(path) == before, "\(bad) changed the store")
        }
    }
}
