/// The goals of issues 7, 14, 31 and 37, checked against the measured figures.
struct Goals {
    var mutations: [Int: [MutationKind: (store: Samples, raw: Samples, rewrite: Samples)]] = [:]
    var restore: [Int: (store: Samples, raw: Samples)] = [:]
    var open: [Int: (store: Samples, raw: Samples)] = [:]
    var bursts: [Int: MediatorBurst.Result] = [:]
    var steady: [Int: Samples] = [:]
    var mainThread: MainThreadUnderLock.Result?
    var asyncCalls: AsyncCallsUnderLock.Result?
    var walSoak: WALSoak.Result?
    var snapshots: SnapshotBesideWriter.Result?
    var firstWindow: FirstWindow.Result?
    var fullMutations: [Int: [MutationKind: (store: Samples, raw: Samples)]] = [:]
    /// The raw client on the first schema only, beside `mutations`.
    var minimalMutations: [Int: [MutationKind: Samples]] = [:]
    /// Median instructions per call (callgrind), by size; empty without `--instructions`.
    var instructions: [Int: InstructionCount.Medians] = [:]

    static func verdict(_ met: Bool) -> String { met ? "MET    " : "NOT MET" }

    /// The store's and raw SQLite's samples of each mutation, without the rewrite's.
    var storeAndRaw: [Int: [MutationKind: (store: Samples, raw: Samples)]] {
        mutations.mapValues { $0.mapValues { ($0.store, $0.raw) } }
    }

    /// The worst store/raw ratio of `metric` (p50 by default) at each size, and whether none is over `limit`.
    /// A size with a mutation not measured on both sides is not met, and says so.
    static func worstRatios(
        _ runs: [Int: [MutationKind: (store: Samples, raw: Samples)]], limit: Double,
        metric: (Samples) -> Double? = { $0.p50 }
    ) -> (met: Bool, text: String) {
        var met = !runs.isEmpty
        var worst: [String] = []
        for size in runs.keys.sorted() {
            var sizeWorst = 0.0
            var worstKind = MutationKind.insert
            var missing: [String] = []
            for kind in MutationKind.allCases {
                guard let run = runs[size]?[kind], let store = metric(run.store), let raw = metric(run.raw), raw > 0
                else {
                    missing.append(kind.name)
                    continue
                }
                if store / raw > sizeWorst { (sizeWorst, worstKind) = (store / raw, kind) }
            }
            met = met && missing.isEmpty && sizeWorst <= limit
            worst.append("\(Report.formatCount(size)): "
                + (missing.count == MutationKind.allCases.count
                    ? "not measured" : "worst \(ratio(sizeWorst)) (\(worstKind.name))")
                + (missing.isEmpty || missing.count == MutationKind.allCases.count
                    ? "" : ", \(missing.joined(separator: "/")) not measured"))
        }
        return (met, runs.isEmpty ? "not measured" : worst.joined(separator: "; "))
    }

    /// Judges each of `sizes` by `judge` (nil: not measured, which is not met), and joins the texts.
    static func eachSize(
        _ sizes: [Int], separator: String = "; ", _ judge: (Int) -> (met: Bool, text: String)?
    ) -> (met: Bool, text: String) {
        var met = !sizes.isEmpty
        var texts: [String] = []
        for size in sizes {
            guard let judged = judge(size) else {
                met = false
                texts.append("\(Report.formatCount(size)): not measured")
                continue
            }
            met = met && judged.met
            texts.append("\(Report.formatCount(size)): \(judged.text)")
        }
        return (met, texts.joined(separator: separator))
    }

    /// The store against raw SQLite opening a file and loading what `pairs` holds (p50 of each), within `limit`, at each size.
    static func openRatios(_ pairs: [Int: (store: Samples, raw: Samples)], sizes: [Int], limit: Double) -> (met: Bool, text: String) {
        eachSize(sizes) { size in
            guard let pair = pairs[size], let store = pair.store.p50, let raw = pair.raw.p50 else { return nil }
            return (store / raw <= limit, "\(Report.duration(store)) vs \(Report.duration(raw)), \(ratio(store / raw))")
        }
    }

    static func ratio(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0fx", value) : String(format: "%.2fx", value)
    }

    func lines() -> [String] {
        let sizes = mutations.keys.sorted()
        guard let smallest = sizes.first, let largest = sizes.last else { return [] }
        var lines: [String] = []

        // Flat in session size: p50 at the largest size over p50 at the smallest.
        var flat: [String] = []
        var flatMet = smallest != largest
        for kind in MutationKind.allCases {
            guard smallest != largest, let small = mutations[smallest]?[kind]?.store.p50,
                  let large = mutations[largest]?[kind]?.store.p50
            else {
                flat.append("\(kind.name) not measured")
                flatMet = false
                continue
            }
            flat.append("\(kind.name) \(Self.ratio(large / small))")
            flatMet = flatMet && large / small <= 1.25
        }
        lines.append("\(Self.verdict(flatMet)) mutation p50 at \(Report.formatCount(largest)) tabs within 1.25x of \(Report.formatCount(smallest)) tabs: "
            + flat.joined(separator: ", "))

        // Within 2x of raw SQLite, at every size (worst ratio shown).
        let raw = Self.worstRatios(storeAndRaw, limit: 2)
        lines.append("\(Self.verdict(raw.met)) mutation p50 within 2x of raw SQLite: " + raw.text)

        // Faster than the full rewrite: 100x at 10,000 tabs, 10x at 1,000.
        for (size, factor) in [(10_000, 100.0), (1_000, 10.0)] {
            guard let runs = mutations[size] else { continue }
            var least = Double.infinity
            var leastKind = MutationKind.insert
            var measured = true
            for kind in MutationKind.allCases {
                guard let run = runs[kind], let store = run.store.p50, let rewrite = run.rewrite.p50 else {
                    measured = false
                    continue
                }
                if rewrite / store < least { (least, leastKind) = (rewrite / store, kind) }
            }
            guard measured else {
                lines.append("NOT MET at least \(Int(factor))x faster than the full rewrite at "
                    + "\(Report.formatCount(size)) tabs: not measured (--subjects without store or rewrite)")
                continue
            }
            lines.append("\(Self.verdict(least >= factor)) at least \(Int(factor))x faster than the full rewrite at "
                + "\(Report.formatCount(size)) tabs: least \(Self.ratio(least)) (\(leastKind.label.split(separator: " ").first!))")
        }

        // Cold restore of tab lists within 2x of raw SQLite.
        let restored = Self.openRatios(restore, sizes: restore.keys.sorted(), limit: 2)
        lines.append("\(Self.verdict(restored.met)) cold restore of tab lists within 2x of raw SQLite: " + restored.text)

        // At most 16 KiB per single-tab mutation, independent of size.
        var bytesMet = true
        var largestBytes: [String] = []
        for size in sizes {
            var most = 0.0
            var mostKind = MutationKind.insert
            for kind in MutationKind.allCases {
                guard let bytes = mutations[size]?[kind]?.store.meanBytes else {
                    bytesMet = false
                    continue
                }
                if bytes > most { (most, mostKind) = (bytes, kind) }
            }
            bytesMet = bytesMet && most <= 16 * 1024
            largestBytes.append("\(Report.formatCount(size)): \(Report.bytes(most)) (\(mostKind.name))")
        }
        lines.append("\(Self.verdict(bytesMet)) at most 16 KiB written per mutation (mean, largest op): "
            + largestBytes.joined(separator: "; "))

        let burstMet = !bursts.isEmpty && bursts.values.allSatisfy { $0.updates <= 10 }
        lines.append("\(Self.verdict(burstMet)) 1,000-mutation burst reaches the consumer as at most 10 updates, the last "
            + "with the final state: " + bursts.keys.sorted().map { size in
                "\(Report.formatCount(size)): \(bursts[size]!.updates) updates"
            }.joined(separator: ", "))
        if let mainThread, let p99 = mainThread.asyncSamples.p99 {
            lines.append("\(Self.verdict(p99 < 1_000_000)) main thread per async command while another process holds "
                + "the write lock, p99 under 1 ms: \(Report.duration(p99)) (sync: \(Report.duration(mainThread.syncSamples.p50)))")
        }
        if let snapshots, let during = snapshots.duringSnapshots.p99, let quiet = snapshots.quiet.p99 {
            lines.append("\(Self.verdict(during - quiet < 5_000_000)) snapshots block writers for at most a few ms: "
                + "activate p99 \(Report.duration(during)) while snapshotting, \(Report.duration(quiet)) without, "
                + "max \(Report.duration(snapshots.duringSnapshots.maximum))")
        }
        if let walSoak {
            lines.append("\(Self.verdict(walSoak.largestBytes <= 8 * 1024 * 1024)) WAL under 8 MiB through "
                + "\(Report.formatCount(walSoak.mutations)) mutations beside a reader and an observation: "
                + "at most \(Report.bytes(Double(walSoak.largestBytes)))")
        }
        return lines
    }

    /// Issue 31's goals: the strip keeps up with the user, and every async call leaves the main thread free.
    func issue31Lines() -> [String] {
        var lines: [String] = []
        let steadyMet = !steady.isEmpty && steady.values.allSatisfy { ($0.p99 ?? .infinity) < 20_000_000 }
        lines.append("\(Self.verdict(steadyMet)) one change every 100 ms reaches the consumer within 20 ms of its commit "
            + "(p99), each on its own: " + steady.keys.sorted().map { size in
                "\(Report.formatCount(size)): p99 \(Report.duration(steady[size]!.p99))"
            }.joined(separator: ", "))
        if let asyncCalls, let p99 = asyncCalls.all.p99 {
            let worst = asyncCalls.calls.max { ($0.samples.p99 ?? 0) < ($1.samples.p99 ?? 0) }
            let met = asyncCalls.calls.allSatisfy { ($0.samples.p99 ?? .infinity) < 1_000_000 } && asyncCalls.failures.isEmpty
            lines.append("\(Self.verdict(met)) main thread per call of every async API (\(asyncCalls.calls.count) kinds, "
                + "close() among them) while another process holds the write lock, each p99 under 1 ms: all p99 "
                + "\(Report.duration(p99)), worst \(worst.map { "\($0.name) \(Report.duration($0.samples.p99))" } ?? "-"); "
                + "\(asyncCalls.completed) completed after the lock, \(asyncCalls.failures.count) failed"
                + (asyncCalls.failures.first.map { " (first: \($0))" } ?? ""))
        }
        return lines
    }
}
