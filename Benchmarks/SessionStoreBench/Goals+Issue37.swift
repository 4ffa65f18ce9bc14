/// The goals of issue 37: within 1.5x of the same-schema raw client in p50 and in instructions,
/// derived data's cost against a raw client on the first schema, flat to 100,000 tabs.
///
/// Each line judges the four sizes of the issue, which one run must measure: a size or a
/// figure not measured makes the line NOT MET and says so.
extension Goals {
    /// The sizes every goal of issue 37 is judged at.
    static let issue37Sizes = [10, 1_000, 10_000, 100_000]

    /// What a goal compares: the time of a call, or its instructions.
    enum Metric: String {
        case p50
        case instructions
    }

    /// `subject`'s figure (`store`, `raw` or `minimal`) for `kind` at `size`.
    func figure(_ subject: String, _ metric: Metric, size: Int, kind: MutationKind) -> Double? {
        switch metric {
        case .instructions:
            return instructions[size]?[subject]?[kind]
        case .p50:
            switch subject {
            case "store": return mutations[size]?[kind]?.store.p50
            case "raw": return mutations[size]?[kind]?.raw.p50
            default: return minimalMutations[size]?[kind]?.p50
            }
        }
    }

    private static func verdictOrReport(_ met: Bool, limit: Double?) -> String {
        limit == nil ? "REPORT " : verdict(met)
    }

    private static func count(_ figure: Double) -> String {
        figure >= 1e6 ? String(format: "%.2fM", figure / 1e6) : String(format: "%.0fk", figure / 1e3)
    }

    private static func show(_ figure: Double, _ metric: Metric) -> String {
        metric == .p50 ? Report.duration(figure) : count(figure)
    }

    /// The store against `baseline` for `kinds` at every size: each ratio with both figures;
    /// met when all are measured and none is over `limit` (no limit: the ratios are reported).
    func issue37Ratios(
        _ title: String, metric: Metric, baseline: String, kinds: [MutationKind], limit: Double?
    ) -> String {
        var met = true
        var sizes: [String] = []
        for size in Self.issue37Sizes {
            var cells: [String] = []
            for kind in kinds {
                guard let store = figure("store", metric, size: size, kind: kind),
                      let other = figure(baseline, metric, size: size, kind: kind), other > 0
                else {
                    met = false
                    cells.append("\(kind.name) not measured")
                    continue
                }
                if let limit { met = met && store / other <= limit }
                cells.append("\(kind.name) \(Self.ratio(store / other)) (\(Self.show(store, metric)) vs \(Self.show(other, metric)))")
            }
            sizes.append("\(Report.formatCount(size)): " + cells.joined(separator: ", "))
        }
        return "\(Self.verdictOrReport(met, limit: limit)) \(title), \(metric.rawValue): " + sizes.joined(separator: "; ")
    }

    /// The store's 100,000-tab/10-tab ratio of each mutation against the same-schema raw client's own.
    func issue37Flatness(metric: Metric) -> String {
        let (small, large) = (Self.issue37Sizes.first!, Self.issue37Sizes.last!)
        var met = true
        var cells: [String] = []
        for kind in MutationKind.allCases {
            guard let storeSmall = figure("store", metric, size: small, kind: kind),
                  let storeLarge = figure("store", metric, size: large, kind: kind),
                  let rawSmall = figure("raw", metric, size: small, kind: kind),
                  let rawLarge = figure("raw", metric, size: large, kind: kind), storeSmall > 0, rawSmall > 0
            else {
                met = false
                cells.append("\(kind.name) not measured")
                continue
            }
            let (store, raw) = (storeLarge / storeSmall, rawLarge / rawSmall)
            met = met && store <= 1.3 * raw
            cells.append("\(kind.name) \(Self.ratio(store)) (raw \(Self.ratio(raw)))")
        }
        return "\(Self.verdict(met)) flat: the store's \(Report.formatCount(large))/\(Report.formatCount(small))-tab ratio "
            + "within 1.3x of raw's own, \(metric.rawValue): " + cells.joined(separator: ", ")
    }

    func issue37Lines() -> [String] {
        var lines: [String] = []
        let all = MutationKind.allCases
        for metric in [Metric.p50, .instructions] {
            lines.append(issue37Ratios(
                "every mutation within 1.5x of raw SQLite on the same schema", metric: metric, baseline: "raw",
                kinds: all, limit: 1.5))
        }
        for metric in [Metric.p50, .instructions] {
            lines.append(issue37Ratios(
                "move, activate and pin within 2.5x of raw SQLite on the 0001 schema (no derived data)", metric: metric,
                baseline: "minimal", kinds: [.move, .activate, .pin], limit: 2.5))
        }
        for metric in [Metric.p50, .instructions] {
            lines.append(issue37Ratios(
                "insert, close and navigation against raw SQLite on the 0001 schema (derived data's share)",
                metric: metric, baseline: "minimal", kinds: [.insert, .close, .navigate], limit: nil))
        }
        for metric in [Metric.p50, .instructions] { lines.append(issue37Flatness(metric: metric)) }

        // Open: the store opened and the first browser's list loaded, against raw opening the file and reading it.
        let opened = Self.openRatios(restore, sizes: Self.issue37Sizes, limit: 2)
        lines.append("\(Self.verdict(opened.met)) open and load the tab list within 2x of raw SQLite (tab_pages both): "
            + opened.text)

        let closes = Self.eachSize(Self.issue37Sizes) { size in
            guard let bytes = mutations[size]?[.close]?.store.meanBytes else { return nil }
            return (bytes <= 32 * 1024, "\(Report.bytes(bytes)) (raw \(Report.bytes(mutations[size]?[.close]?.raw.meanBytes)))")
        }
        lines.append("\(Self.verdict(closes.met)) a close writes at most 32 KiB on average (write(2) bytes per call): "
            + closes.text)

        let full = Self.worstRatios(fullMutations.filter { Self.issue37Sizes.contains($0.key) }, limit: 1.3)
        let fullMissing = Self.issue37Sizes.filter { fullMutations[$0] == nil }
        lines.append("\(Self.verdict(full.met && fullMissing.isEmpty)) every mutation's p50 within 1.3x of raw at "
            + "synchronous=FULL: " + full.text
            + fullMissing.map { "; \(Report.formatCount($0)): not measured" }.joined())
        lines.append("        the large-session goals at 100,000 tabs: --large --large-sizes 10,1000,10000,100000")
        return lines
    }
}
