/// The goals of issue 14: within 1.5x of raw SQLite, flat to 100,000 tabs, an open that does not grow.
extension Goals {
    private static func short(_ kind: MutationKind) -> String { String(kind.label.split(separator: " ").first!) }

    func issue14Lines() -> [String] {
        let sizes = mutations.keys.sorted()
        guard let smallest = sizes.first else { return [] }
        var lines: [String] = []

        // 1. Every mutation's p50 within 1.5x of raw SQLite, at every size.
        let raw = Self.worstRatios(storeAndRaw, limit: 1.5)
        lines.append("\(Self.verdict(raw.met)) every mutation's p50 within 1.5x of raw SQLite: " + raw.text)

        // 2. Flat: 10,000 tabs within 1.25x and 100,000 within 1.5x of the smallest size.
        for (size, limit) in [(10_000, 1.25), (100_000, 1.5)] {
            guard sizes.contains(size), size != smallest else {
                lines.append("NOT MET mutation p50 at \(Report.formatCount(size)) tabs within \(limit)x of "
                    + "\(Report.formatCount(smallest)) tabs: not measured (add \(size) to --sizes)")
                continue
            }
            var met = true
            var ratios: [String] = []
            for kind in MutationKind.allCases {
                guard let small = mutations[smallest]?[kind]?.store.p50, let large = mutations[size]?[kind]?.store.p50
                else {
                    met = false
                    ratios.append("\(Self.short(kind)) not measured")
                    continue
                }
                ratios.append("\(Self.short(kind)) \(Self.ratio(large / small))")
                met = met && large / small <= limit
            }
            lines.append("\(Self.verdict(met)) mutation p50 at \(Report.formatCount(size)) tabs within \(limit)x of "
                + "\(Report.formatCount(smallest)) tabs: " + ratios.joined(separator: ", "))
        }

        // 3. Opening for use within 2x of raw, at every size.
        let opened = Self.openRatios(open, sizes: open.keys.sorted(), limit: 2)
        lines.append("\(Self.verdict(opened.met)) opening within 2x of raw SQLite: " + opened.text)

        // 5. WAL bytes per call within 1.25x of raw; a close at most 32 KiB on average.
        let bytes = Self.worstRatios(
            storeAndRaw, limit: 1.25, metric: { $0.meanBytes })
        var closeMet = true
        var closes: [String] = []
        for size in sizes {
            if let close = mutations[size]?[.close]?.store.meanBytes {
                closeMet = closeMet && close <= 32 * 1024
                closes.append("\(Report.formatCount(size)): \(Report.bytes(close))")
            } else {
                closeMet = false
                closes.append("\(Report.formatCount(size)): not measured")
            }
        }
        lines.append("\(Self.verdict(bytes.met)) bytes written per mutation within 1.25x of raw SQLite: " + bytes.text)
        lines.append("\(Self.verdict(closeMet)) a close writes at most 32 KiB on average: " + closes.joined(separator: "; "))

        // 4. The first window first: beside many tabs within 1.25x of alone.
        if let firstWindow, let alone = firstWindow.alone.p50, let beside = firstWindow.beside.p50 {
            lines.append("\(Self.verdict(beside / alone <= 1.25)) first strip of a 100-tab browser beside "
                + "\(Report.formatCount(firstWindow.otherTabs)) tabs in nine others within 1.25x of alone: "
                + "\(Report.duration(beside)) vs \(Report.duration(alone)), \(Self.ratio(beside / alone))")
        } else {
            lines.append("NOT MET first window first: not measured (--first-window-tabs 0)")
        }
        // 6. The same ratio at synchronous=FULL.
        if fullMutations.isEmpty {
            lines.append("NOT MET every mutation's p50 within 1.5x of raw at synchronous=FULL: not measured (--no-full-beside)")
        } else {
            let full = Self.worstRatios(fullMutations, limit: 1.5)
            lines.append("\(Self.verdict(full.met)) every mutation's p50 within 1.5x of raw at synchronous=FULL: " + full.text)
        }
        return lines
    }
}
