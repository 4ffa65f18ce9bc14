import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport

/// Opens each image a workload left, as the next launch after a power cut
/// would (in a process that never had the original files open), and judges it.
struct ImageCheck {
    var images: String
    var record: PowerLossWorkload.Record

    /// One line of `manifest.tsv`.
    struct Point {
        var label: Int64
        var kind: Int
        var mark: Int
        var file: String
        var seconds: Double
        var directory: String
    }

    /// What the images showed, summed.
    struct Summary: Codable {
        var synchronous: String
        var syncPoints: Int64 = 0
        var images = 0
        /// Images in which an acknowledged commit is missing.
        var lost = 0
        /// Images that miss a commit acknowledged before the last sync of the store or its WAL
        /// (a checkpoint, or a commit under FULL): what no mode may lose.
        var lostBeforeLastSync = 0
        /// Images the store refused to open.
        var refused = 0
        /// Images whose store opened but `check` found a problem in (or whose state is none the workload had).
        var bricked = 0
        /// Listed snapshots that `restore-snapshot` would refuse.
        var tornSnapshots = 0
        /// `recover` outputs present under their final name but incomplete.
        var tornRecoverOutputs = 0
        /// Temporary files still present after the next open of the store (and the next `recover`, where one was cut).
        var litterAfterOpen = 0
        /// The most acknowledged commits one image lacked, and the seconds since the first of them.
        var largestLossCommits = 0
        var largestLossSeconds = 0.0
        var failures: [String] = []
    }

    static let kindNames = ["drop", "subset", "tear"]

    func points() throws -> [Point] {
        let manifest = try String(contentsOfFile: images + "/manifest.tsv", encoding: .utf8)
        return manifest.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let label = Int64(fields[0]), let kind = Int(fields[1]), let mark = Int(fields[2]),
                  let seconds = Double(fields[4])
            else { return nil }
            return Point(label: label, kind: kind, mark: mark, file: fields[3], seconds: seconds,
                         directory: images + "/\(label)-\(kind)")
        }
    }

    func run(removingImages: Bool) throws -> Summary {
        var summary = Summary(synchronous: record.synchronous, syncPoints: record.syncPoints)
        var configuration = CrashWorkload.configuration
        configuration.synchronous = SessionDatabase.Configuration.Synchronous(rawValue: record.synchronous) ?? .normal
        // The mark at the last sync of the store's file or its WAL before each point:
        // every commit acknowledged by then is on the disk, in any mode.
        var durable: [Int64: Int] = [:]
        var lastDurable = 0
        let points = try points()
        for point in points {
            if durable[point.label] == nil { durable[point.label] = lastDurable }
            if point.file == "store.sqlite" || point.file == "store.sqlite-wal" { lastDurable = max(lastDurable, point.mark) }
        }
        for point in points {
            summary.images += 1
            judge(point, durableMark: durable[point.label] ?? 0, configuration: configuration, into: &summary)
            if removingImages { try? FileManager.default.removeItem(atPath: point.directory) }
        }
        return summary
    }

    private func judge(_ point: Point, durableMark: Int, configuration: SessionDatabase.Configuration, into summary: inout Summary) {
        let name = "sync point \(point.label) (\(Self.kindNames[point.kind]), \(point.file), after \"\(record.states[point.mark].what)\")"
        func fail(_ what: String) { summary.failures.append("\(name): \(what)") }
        let store = point.directory + "/store.sqlite"
        let states = record.states
        defer { countLitter(in: point.directory, store: store, configuration: configuration, into: &summary) }
        if !FileManager.default.fileExists(atPath: store) {
            if states[point.mark].digest != nil && !states[point.mark].what.hasPrefix("recover") {
                summary.lost += 1
                fail("the store file is gone")
                return
            }
            // Cut before the store was made: the next launch makes it, and a half-made one goes.
            do {
                try SessionDatabase.open(atPath: store, configuration: configuration).close()
            } catch {
                summary.refused += 1
                fail("a new store cannot be made where the cut one was being made: \(error)")
            }
            return
        }
        let digest: [String]
        do {
            let database = try SessionDatabase.open(atPath: store, configuration: configuration)
            digest = try SessionDigest(database).lines
            try database.close()
        } catch {
            summary.refused += 1
            fail("the store does not open: \(error)")
            return
        }
        do {
            let problems = try SessionStoreFile.check(atPath: store, configuration: configuration)
            if let first = problems.first {
                summary.bricked += 1
                fail("check finds \(problems.count) problem(s), the first: \(first)")
            }
        } catch {
            summary.bricked += 1
            fail("check fails: \(error)")
        }
        // The newest acknowledged state the image holds: the step under way at the cut may be there or not.
        let newest = min(point.mark + 1, states.count - 1)
        if let held = (0...newest).reversed().first(where: { states[$0].digest == digest }) {
            if held < point.mark {
                summary.lost += 1
                let seconds = point.seconds - states[held + 1].at
                if point.mark - held > summary.largestLossCommits { summary.largestLossCommits = point.mark - held }
                summary.largestLossSeconds = max(summary.largestLossSeconds, seconds)
                if held < durableMark {
                    summary.lostBeforeLastSync += 1
                    fail("holds the state after \"\(states[held].what)\", older than the last sync's (after \"\(states[durableMark].what)\")")
                } else if configuration.synchronous == .full {
                    fail("holds the state after \"\(states[held].what)\": \(point.mark - held) acknowledged step(s) lost")
                }
            }
        } else {
            summary.bricked += 1
            let expected = SessionDigest(lines: states[point.mark].digest ?? [])
            fail("holds a state the workload never had; against the last acknowledged one, "
                + SessionDigest(lines: digest).firstDifference(from: expected))
        }
        for snapshot in (try? SessionStoreFile.snapshots(atPath: store, configuration: configuration)) ?? [] {
            do {
                try SessionStoreFile.checkRestorable(snapshot, configuration: configuration)
            } catch {
                summary.tornSnapshots += 1
                fail("snapshot \(snapshot.name) is listed but cannot be restored: \(error)")
            }
        }
        let recovered = point.directory + "/recovered.sqlite"
        if FileManager.default.fileExists(atPath: recovered) {
            do {
                let output = try SessionDatabase.openReadOnly(atPath: recovered, configuration: configuration)
                let lines = try SessionDigest(output).lines
                try output.close()
                if lines != record.recovered { throw Failure("it differs from the finished output") }
            } catch {
                summary.tornRecoverOutputs += 1
                fail("recover's output is present but incomplete: \(error)")
            }
        }
    }

    /// Counts the temporaries still there after the next open of the store and, where
    /// `recover` was cut, the next `recover` to the same output (what removes its leftovers).
    private func countLitter(
        in directory: String, store: String, configuration: SessionDatabase.Configuration, into summary: inout Summary
    ) {
        func litter() -> [String] {
            ((try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []).filter {
                $0.contains(".creating-") || $0.contains(".recovering-") || $0.contains(".tmp")
            }
        }
        if litter().contains(where: { $0.contains(".recovering-") }) {
            // Refused when the output exists, after sweeping what a cut recover left.
            _ = try? SessionStoreFile.recover(from: store, to: directory + "/recovered.sqlite", configuration: configuration)
        }
        summary.litterAfterOpen += litter().count
    }
}
