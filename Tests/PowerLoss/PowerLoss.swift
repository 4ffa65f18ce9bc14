// sessionstore-power-loss: power cuts at every sync point of a scripted workload.
//
//   workload --directory D --images I --seed S --synchronous full|normal [--steps K]
//       runs the workload on D/store.sqlite through the crash VFS, writing at each
//       sync point the disk a power cut would leave, per kind, to I/POINT-KIND/,
//       and I/record.json (the acknowledged states)
//   check --images I
//       opens every image as the next launch would, and prints a JSON summary
//   sweep [--seeds N] [--first-seed S] [--steps K] [--modes full,normal] [--json]
//       both, in child processes, for each seed and mode; prints the figures
//
// The workload process registers the crash VFS as SQLite's default: the store
// derives sibling paths (its -wal, FILE.snapshots/, recover's temporary file)
// from the store's path, so every file it touches must go through the VFS, and
// this process runs nothing else. Test processes, which run tests in
// parallel, never register it as the default.
import ArgumentParser
import CrashVFS
import Foundation
import SessionStorage

@main
struct PowerLoss: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessionstore-power-loss",
        abstract: "Simulated power cuts at every sync point of a scripted workload.",
        subcommands: [Run.self, Check.self, Sweep.self])

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "workload")
        @Option var directory: String
        @Option var images: String
        @Option var seed: UInt64
        @Option var synchronous: String
        @Option var steps = 40
        @Option(help: "Bit mask of crash kinds: 1 drop, 2 subset, 4 tear.") var kinds: Int32 = 7

        func run() throws {
            guard let mode = SessionDatabase.Configuration.Synchronous(rawValue: synchronous.uppercased()) else {
                throw ValidationError("--synchronous is full or normal")
            }
            try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: true)
            guard crash_vfs_register(1) == 0 else { throw Failure("the crash VFS cannot be registered") }
            crash_vfs_configure(directory, images, kinds, seed)
            let record = try PowerLossWorkload(directory: directory, seed: seed, synchronous: mode, steps: steps).run()
            // The final state, as a cut after the last sync would leave it.
            for kind in 0..<3 where kinds & (1 << kind) != 0 {
                guard crash_vfs_write_image(record.syncPoints + 1, Int32(kind)) == 0 else {
                    throw Failure("the final image cannot be written")
                }
            }
            try JSONEncoder().encode(record).write(to: URL(fileURLWithPath: images + "/record.json"))
        }
    }

    struct Check: ParsableCommand {
        @Option var images: String
        @Flag(help: "Remove each image once judged.") var removing = false

        func run() throws {
            let record = try JSONDecoder().decode(
                PowerLossWorkload.Record.self, from: Data(contentsOf: URL(fileURLWithPath: images + "/record.json")))
            let summary = try ImageCheck(images: images, record: record).run(removingImages: removing)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            FileHandle.standardOutput.write(try encoder.encode(summary) + Data("\n".utf8))
        }
    }

    struct Sweep: ParsableCommand {
        @Option var seeds = 3
        @Option var firstSeed: UInt64 = 1
        @Option var steps = 40
        @Option var modes = "full,normal"
        @Option(help: "Where the images go (a temporary directory by default).") var work: String?
        @Flag var json = false

        func run() throws {
            let root = work ?? NSTemporaryDirectory() + "sessionstore-power-loss-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            defer { if work == nil { try? FileManager.default.removeItem(atPath: root) } }
            let started = Date()
            var totals: [String: ImageCheck.Summary] = [:]
            let modes = self.modes.split(separator: ",").map { String($0).lowercased() }
            for seed in firstSeed..<(firstSeed + UInt64(seeds)) {
                for mode in modes {
                    let live = root + "/\(seed)-\(mode)/live"
                    let images = root + "/\(seed)-\(mode)/images"
                    try FileManager.default.createDirectory(atPath: live, withIntermediateDirectories: true)
                    try child(["workload", "--directory", live, "--images", images, "--seed", "\(seed)",
                               "--synchronous", mode, "--steps", "\(steps)"])
                    let output = try child(["check", "--images", images, "--removing"])
                    let summary = try JSONDecoder().decode(ImageCheck.Summary.self, from: output)
                    totals[mode, default: ImageCheck.Summary(synchronous: mode)].add(summary)
                    try? FileManager.default.removeItem(atPath: root + "/\(seed)-\(mode)")
                    if !json {
                        print("seed \(seed) \(mode): \(summary.syncPoints) sync points, \(summary.images) images, "
                              + "lost \(summary.lost) (\(summary.lostBeforeLastSync) before the last sync), refused \(summary.refused), bricked \(summary.bricked), "
                              + "torn snapshots \(summary.tornSnapshots), torn recover outputs \(summary.tornRecoverOutputs)")
                        for failure in summary.failures.prefix(5) { print("  \(failure)") }
                    }
                }
            }
            let elapsed = Date().timeIntervalSince(started)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                FileHandle.standardOutput.write(try encoder.encode(totals) + Data("\n".utf8))
                return
            }
            print("")
            print(Self.headings.joined(separator: "  "))
            for mode in modes {
                guard let total = totals[mode] else { continue }
                let loss = total.largestLossCommits == 0
                    ? "0" : "\(total.largestLossCommits) commits, \(String(format: "%.3f", total.largestLossSeconds)) s"
                let cells = [mode, "\(seeds)", "\(total.syncPoints)", "\(total.images)", "\(total.lost)",
                             "\(total.lostBeforeLastSync)", "\(total.refused)", "\(total.bricked)",
                             "\(total.tornSnapshots)", "\(total.tornRecoverOutputs)", "\(total.litterAfterOpen)", loss]
                print(zip(cells, Self.widths).map { cell, width in
                    String(repeating: " ", count: max(0, width - cell.count)) + cell
                }.joined(separator: "  "))
            }
            print(String(format: "%.1f s", elapsed))
        }

        static let headings = [
            "  mode", "seeds", "sync points", "images", "lost", "lost before last sync", "refused", "bricked",
            "torn snapshots", "torn recover outputs", "litter", "largest loss (normal)",
        ]
        static let widths = headings.map(\.count)

        /// Runs this program with `arguments`; its standard output, or a failure for a non-zero exit.
        @discardableResult
        private func child(_ arguments: [String]) throws -> Data {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw Failure("\(arguments[0]) exited \(process.terminationStatus)")
            }
            return output
        }
    }
}

extension ImageCheck.Summary {
    /// Adds another run's figures to these.
    mutating func add(_ other: Self) {
        syncPoints += other.syncPoints
        images += other.images
        lost += other.lost
        lostBeforeLastSync += other.lostBeforeLastSync
        refused += other.refused
        bricked += other.bricked
        tornSnapshots += other.tornSnapshots
        tornRecoverOutputs += other.tornRecoverOutputs
        litterAfterOpen += other.litterAfterOpen
        if other.largestLossCommits > largestLossCommits { largestLossCommits = other.largestLossCommits }
        largestLossSeconds = max(largestLossSeconds, other.largestLossSeconds)
        failures += other.failures
    }
}
