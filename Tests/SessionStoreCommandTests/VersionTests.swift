import Foundation
import SessionStorage
import Testing

/// The version has one source in Swift (``SessionStoreRelease/version``) and must
/// name the newest release of CHANGELOG.md, which `sessionstore --version` prints.
@Suite struct VersionTests {
    static let changelog = URL(fileURLWithPath: #filePath)  // Tests/SessionStoreCommandTests/
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CHANGELOG.md")

    /// The version of the first `## [x.y.z] - YYYY-MM-DD` heading (an `[Unreleased]` one is skipped).
    static func newestRelease() throws -> String? {
        let text = try String(contentsOf: changelog, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("## [") {
            let version = line.dropFirst(4).prefix { $0 != "]" }
            if version != "Unreleased" { return String(version) }
        }
        return nil
    }

    @Test func versionFlag_printsTheNewestReleaseOfTheChangelog() throws {
        let newest = try #require(try Self.newestRelease(), "CHANGELOG.md names no release")
        let result = try SessionStoreBinary().run(["--version"], in: NSTemporaryDirectory())
        #expect(result == .init(status: 0, stdout: "\(newest)\n", stderr: ""))
    }

    @Test func libraryConstant_isTheNewestReleaseOfTheChangelog() throws {
        #expect(try Self.newestRelease() == SessionStoreRelease.version)
        // A semantic version: three numbers, no leading zeros.
        let parts = SessionStoreRelease.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) && ($0 == "0" || !$0.hasPrefix("0")) })
    }
}
