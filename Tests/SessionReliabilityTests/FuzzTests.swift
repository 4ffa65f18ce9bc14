import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// Seeded, bounded fuzzing: mutated export documents through the importer's
/// decoder and checks, and mutated database files through the read-only entry
/// points. Nothing may crash or hang, every refusal is a `StorageError`, and
/// nothing is partly written. `SESSIONSTORE_RELIABILITY_FULL=1` runs ten times more.
@Suite(.serialized) struct FuzzTests {
    static let documents = fullRuns ? 30_000 : 3_000
    static let databases = fullRuns ? 3_000 : 300

    /// A demo store, checkpointed into its main file.
    private func demoStore(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("demo.sqlite")
        let result = try runTool(["demo", "--db", path, "--browsers", "2", "--tabs", "6", "--history", "4"], in: directory.path)
        try #require(result.status == 0, "\(result)")
        return path
    }

    @Test func mutatedDocuments_areDecodedCheckedAndImportedOrRefused_neverPartly() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try SessionDatabase.openReadOnly(atPath: try demoStore(in: directory))
        let original = try SessionArchive.encoder().encode(try source.exportArchive())
        try source.close()
        let target = directory.file("target.sqlite")
        try SessionStoreFile.migrate(atPath: target)
        var rng = SplitMix64(seed: 8)
        var refused = 0, accepted = 0, imports = 0, slowest = 0.0
        for index in 0..<Self.documents {
            let document = DocumentMutation.mutate(original, using: &rng)
            let started = Date()
            do {
                let archive = try SessionArchive.decode(from: document)
                try archive.check()
                accepted += 1
            } catch let error as StorageError {
                guard case .invalidArchive = error else {
                    Issue.record("document \(index): not an invalidArchive: \(error)")
                    continue
                }
                refused += 1
            }
            slowest = max(slowest, Date().timeIntervalSince(started))
            // Every 25th document also goes through a real import on a file: refused, the
            // store's content is as it was; accepted, it checks clean.
            if index % 25 == 0 {
                imports += 1
                let database = try SessionDatabase.open(atPath: target)
                let before = try SessionArchive.encoder().encode(try database.exportArchive())
                do {
                    try database.importArchive(try SessionArchive.decode(from: document), replacing: true)
                } catch {
                    #expect(error is StorageError, "document \(index): \(error)")
                    let after = try SessionArchive.encoder().encode(try database.exportArchive())
                    #expect(after == before, "document \(index): a refused import changed the store")
                }
                try database.close()
                let problems = try SessionStoreFile.check(atPath: target)
                #expect(problems.isEmpty, "document \(index): \(problems)")
            }
            // Every 150th goes through `sessionstore import`: refused, the file is byte-identical.
            if index % 150 == 0 {
                try document.write(to: URL(fileURLWithPath: directory.file("doc.json")))
                let before = fingerprint(target)
                let result = try runTool(["import", "--replace", directory.file("doc.json"), "--db", target], in: directory.path)
                #expect([0, 65].contains(result.status), "document \(index): \(result)")
                if result.status != 0 {
                    #expect(fingerprint(target) == before, "document \(index): a refused import changed the file")
                    #expect(result.stderrLines.count == 1, "\(result)")
                }
            }
        }
        print("fuzz: \(Self.documents) mutated documents: \(refused) refused as invalid, \(accepted) accepted; \(imports) imported on a file; slowest \(Int(slowest * 1000)) ms; partial writes: 0")
        #expect(slowest < 10, "a document took \(slowest) s")
    }

    /// The damaged files go through `SessionStoreFile.status`, `SessionStoreFile.check` and
    /// `SessionDatabase.openReadOnly` + `exportArchive` in `sessionstore-crash-writer probe`,
    /// so that a trap is counted (and the run continues with the next file) instead of
    /// ending the test process.
    @Test func mutatedDatabaseFiles_areRefusedOrRead_neverWritten_neverCrash() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = try #require(fileBytes(try demoStore(in: directory)))
        let pageSize = 4096
        let pages = original.count / pageSize
        let fuzzed = directory.file("fuzzed")
        try FileManager.default.createDirectory(atPath: fuzzed, withIntermediateDirectories: false)
        var rng = SplitMix64(seed: 9)
        var files: [Data] = []
        for index in 0..<Self.databases {
            var bytes = original
            let page = Int.random(in: 0..<pages, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0, 1:
                for _ in 0..<Int.random(in: 1...16, using: &rng) {
                    let offset = page * pageSize + Int.random(in: 0..<pageSize, using: &rng)
                    bytes[offset] ^= UInt8.random(in: 1...255, using: &rng)
                }
            case 2: bytes.replaceSubrange((page * pageSize)..<((page + 1) * pageSize), with: Data(count: pageSize))
            case 3: bytes = bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng))
            default:
                let other = Int.random(in: 0..<pages, using: &rng)
                let a = bytes.subdata(in: (page * pageSize)..<((page + 1) * pageSize))
                let b = bytes.subdata(in: (other * pageSize)..<((other + 1) * pageSize))
                bytes.replaceSubrange((page * pageSize)..<((page + 1) * pageSize), with: b)
                bytes.replaceSubrange((other * pageSize)..<((other + 1) * pageSize), with: a)
            }
            try bytes.write(to: URL(fileURLWithPath: "\(fuzzed)/\(index).sqlite"))
            files.append(bytes)
        }
        var outcomes: [String: Int] = [:]
        var crashes: [Int] = []
        var next = 0
        while next < Self.databases {
            let probe = try RunningWriter(["probe", "--dir", fuzzed, "--from", "\(next)", "--to", "\(Self.databases - 1)"])
            let (status, stderr) = probe.finish(timeout: 300)
            for line in probe.lines.recorded where !line.hasSuffix(" start") {
                for part in line.split(separator: " ").dropFirst() {
                    let outcome = part.hasPrefix("open:other") || part.hasPrefix("check:other") || part.hasPrefix("status:other")
                        ? String(part.prefix { $0 != "(" }) : String(part)
                    outcomes[outcome, default: 0] += 1
                    if outcome.contains("other") { Issue.record("file \(line.prefix { $0 != " " }): not a StorageError: \(line)") }
                }
            }
            guard status != 0, let last = probe.lines.recorded.last(where: { $0.hasSuffix(" start") }),
                  let crashed = Int(last.prefix { $0 != " " })
            else {
                #expect(status == 0, "probe: \(stderr)")
                break
            }
            crashes.append(crashed)
            next = crashed + 1
        }
        for (index, bytes) in files.enumerated() {
            #expect(fileBytes("\(fuzzed)/\(index).sqlite") == bytes, "file \(index): a read-only entry point wrote to it")
        }
        print("fuzz: \(Self.databases) mutated database files: \(outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); crashes: \(crashes.count) \(crashes); writes: 0")
        #expect(crashes.isEmpty, "crashed on files \(crashes)")
    }
}
