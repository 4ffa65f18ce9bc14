import Foundation
import Testing

/// README.md's library snippet is a copy of the README region of
/// `Examples/TabStrip/Sources/TabStrip/main.swift`, which `Examples/run` builds
/// and runs as an outside client: so the README shows code that compiles and works.
@Suite struct ReadmeSnippetTests {
    /// The line in README.md after which the snippet's ```swift block follows.
    static let marker = "<!-- snippet: Examples/TabStrip README region -->"
    static let example = "Examples/TabStrip/Sources/TabStrip/main.swift"
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func readmeSnippet_isTheExamplesReadmeRegion() throws {
        let readme = try Self.lines(of: "README.md")
        let source = try Self.lines(of: Self.example)
        let snippet = try #require(
            Self.fencedSwiftBlock(after: Self.marker, in: readme),
            "README.md has no ```swift block after \(Self.marker)")
        let region = try #require(
            Self.region(in: source), "\(Self.example) has no `// README:begin` … `// README:end` region")
        #expect(
            snippet == region,
            "README.md's snippet differs from the README region of \(Self.example) (first difference at line \(Self.firstDifference(snippet, region) + 1) of the snippet); copy the region into README.md")
    }

    private static func lines(of path: String) throws -> [String] {
        let text = try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The lines of the first ```swift block after the line `marker` (blank lines may come between).
    static func fencedSwiftBlock(after marker: String, in lines: [String]) -> [String]? {
        guard let markerIndex = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == marker })
        else { return nil }
        let rest = lines[(markerIndex + 1)...].drop { $0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard rest.first?.trimmingCharacters(in: .whitespaces) == "```swift" else { return nil }
        let body = rest.dropFirst()
        guard let end = body.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "```" }) else {
            return nil
        }
        return Array(body[..<end])
    }

    /// The lines between `// README:begin` and `// README:end`, without their common indentation.
    static func region(in lines: [String]) -> [String]? {
        func isMarker(_ line: String, _ name: String) -> Bool {
            line.trimmingCharacters(in: .whitespaces) == "// README:\(name)"
        }
        guard let begin = lines.firstIndex(where: { isMarker($0, "begin") }),
            let end = lines[begin...].firstIndex(where: { isMarker($0, "end") })
        else { return nil }
        let body = lines[(begin + 1)..<end]
        let indentation = body.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix(while: { $0 == " " }).count }
            .min() ?? 0
        return body.map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : String($0.dropFirst(indentation)) }
    }

    /// The index of the first line where `a` and `b` differ.
    static func firstDifference(_ a: [String], _ b: [String]) -> Int {
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    }
}
