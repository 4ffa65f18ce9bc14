import Foundation
import SessionStorage

/// Instructions per call, counted by callgrind: what machine load neither hides nor fakes.
///
/// The bench starts itself again under `valgrind --tool=callgrind` on the files a size's
/// timed run left (seeded outside valgrind), with instrumentation off until the subjects
/// are open and collection on only around each call (see ``Callgrind``); each call's
/// costs go to a dump file of their own, labelled `subject/kind`. The parent reads each
/// dump's label and total, and keeps the median per subject and kind.
enum InstructionCount {
    /// The median instructions per call, by subject name (`store`, `raw`, `minimal`) and mutation.
    typealias Medians = [String: [MutationKind: Double]]

    /// The subjects the child runs, with the file each opens in a size's directory.
    static let files = ["store": "store.sqlite", "raw": "raw.sqlite", "minimal": "minimal.sqlite"]

    /// Runs the child under callgrind on `directory`'s files, `rounds` rounds of every mutation.
    static func measure(
        directory: String, rounds: Int, seed: UInt64, synchronous: String, subjects: [String]
    ) throws -> Medians {
        guard let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) else { throw BenchError("--instructions needs valgrind (apt-get install valgrind)") }
        let output = directory + "/callgrind"
        try? FileManager.default.removeItem(atPath: output)
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        // SESSIONSTORE_BENCH_KEEP_DUMPS=1 keeps the dumps, one profile per call, for `callgrind_annotate`.
        let keep = ProcessInfo.processInfo.environment["SESSIONSTORE_BENCH_KEEP_DUMPS"] == "1"
        defer {
            if keep {
                FileHandle.standardError.write(Data("[bench] callgrind dumps kept in \(output)\n".utf8))
            } else {
                try? FileManager.default.removeItem(atPath: output)
            }
        }
        // Valgrind 3.19 cannot read the DWARF 5 the Swift toolchain writes: the child runs a copy
        // without debug information (callgrind still names functions from the symbol table).
        let executable = output + "/sessionstore-bench"
        try FileManager.default.copyItem(
            atPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), toPath: executable)
        let strip = Process()
        strip.executableURL = URL(fileURLWithPath: "/usr/bin/objcopy")
        strip.arguments = ["--strip-debug", executable]
        try strip.run()
        strip.waitUntilExit()
        guard strip.terminationStatus == 0 else { throw BenchError("objcopy --strip-debug failed (apt-get install binutils)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: valgrind)
        process.arguments = [
            "--tool=callgrind", "--collect-atstart=no", "--instr-atstart=no",
            "--callgrind-out-file=\(output)/cg.%p",
            executable, "--child-instructions", directory, "--iterations", "\(rounds)", "--seed", "\(seed)",
            "--synchronous", synchronous.lowercased(), "--subjects", subjects.joined(separator: ","),
        ]
        let log = output + "/valgrind.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw BenchError("the callgrind child failed (\(process.terminationStatus)): \(text.suffix(2_000))")
        }
        return try medians(ofDumpsIn: output)
    }

    /// Reads every dump of `directory`: its `desc: Trigger: Client Request: LABEL` and its
    /// `summary:` (or `totals:`) instructions; the median per label.
    static func medians(ofDumpsIn directory: String) throws -> Medians {
        var counts: [String: [MutationKind: [Double]]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasPrefix("cg.") {
            let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            var label: String?
            var total: Double?
            for line in text.split(separator: "\n") {
                if line.hasPrefix("desc: Trigger: Client Request: ") {
                    label = String(line.dropFirst("desc: Trigger: Client Request: ".count))
                } else if total == nil, line.hasPrefix("summary:") || line.hasPrefix("totals:") {
                    total = Double(line.split(separator: " ").last ?? "")
                }
            }
            guard let label, let total else { continue }
            let parts = label.split(separator: "/")
            guard parts.count == 2, let kind = MutationKind.allCases.first(where: { $0.name == parts[1] }) else { continue }
            counts[String(parts[0]), default: [:]][kind, default: []].append(total)
        }
        return counts.mapValues { kinds in
            kinds.mapValues { values in values.sorted()[(values.count - 1) / 2] }
        }
    }

    /// In the child, under callgrind: opens the subjects on `directory`'s files and runs
    /// `rounds` rounds of the mutations, each subject in turn, each call counted and dumped.
    static func runChild(
        directory: String, rounds: Int, seed: UInt64, configuration: SessionDatabase.Configuration,
        subjects: [String]
    ) throws {
        var runs: [MutationRun] = []
        var store: StoreSubject?
        for name in subjects {
            guard let file = files[name] else { continue }
            let path = directory + "/" + file
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let subject: any MutationSubject
            if name == "store" {
                store = try StoreSubject(path: path, configuration: configuration)
                subject = store!
            } else {
                subject = try RawSQLiteSubject(path: path, synchronous: configuration.synchronous.rawValue)
            }
            runs.append(MutationRun(subject: subject, name: name, seed: seed))
        }
        Callgrind.startInstrumentation()
        for run in runs { try run.warmUp() }
        for iteration in 0..<rounds {
            for index in runs.indices { try runs[index].step(iteration: iteration) }
        }
        try store?.finish()
    }
}
