import Foundation
import Testing

/// README.md's demo program (a `Package.swift` and a `main.swift`, each in a
/// ```swift block after its marker) is what `Examples/run` builds and runs, as
/// pasted, as an outside package in CI: so the README shows code that compiles
/// and works. These checks keep the blocks where `Examples/run` finds them.
@Suite struct ReadmeSnippetTests {
    static let markers = ["README demo Package.swift", "README demo main.swift"]
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func readmeDemo_hasBothBlocks_andExamplesRunBuildsThem() throws {
        let readme = try Self.lines(of: "README.md")
        let run = try String(contentsOf: Self.repository.appendingPathComponent("Examples/run"), encoding: .utf8)
        for marker in Self.markers {
            let block = Self.fencedSwiftBlock(after: "<!-- snippet: \(marker) -->", in: readme)
            #expect(block?.isEmpty == false, "README.md has no ```swift block after <!-- snippet: \(marker) -->")
            #expect(run.contains("block \"\(marker)\""), "Examples/run does not build the README's \(marker)")
        }
    }

    /// The program runs its calls inside an async function, so every one binds to
    /// its `async` form (top-level code would pick the blocking synchronous forms).
    @Test func readmeDemo_callsTheLibraryFromAnAsyncFunction() throws {
        let readme = try Self.lines(of: "README.md")
        let main = try #require(Self.fencedSwiftBlock(after: "<!-- snippet: README demo main.swift -->", in: readme))
        let topLevel = main.filter { !$0.hasPrefix(" ") && !$0.hasPrefix("}") && !$0.hasPrefix("//") && !$0.isEmpty }
        #expect(topLevel == ["import Foundation", "import SessionStore", "@MainActor", "func run() async throws {", "try await run()"])
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
}
