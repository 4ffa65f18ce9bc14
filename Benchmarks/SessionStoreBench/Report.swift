import Foundation

/// One line of the table: one workload at one size, for the store and its baselines.
struct ReportRow {
    var workload: String
    var tabs: Int?
    var store: Samples?
    var raw: Samples?
    var rewrite: Samples?
    /// The raw client on the first schema only (no derived data).
    var minimal: Samples?
    /// Replaces the figures when the line has none (a pending workload, peak memory).
    var text: String?
    /// Shown instead of durations, for memory (KiB of each subject).
    var kib: (store: Int, raw: Int, rewrite: Int)?
}

/// Formats and prints the table and the goals.
enum Report {
    static func duration(_ nanoseconds: Double?) -> String {
        guard let nanoseconds else { return "-" }
        switch nanoseconds {
        case ..<10_000: return String(format: "%.1f us", nanoseconds / 1_000)
        case ..<1_000_000: return String(format: "%.0f us", nanoseconds / 1_000)
        case ..<10_000_000: return String(format: "%.2f ms", nanoseconds / 1_000_000)
        case ..<1_000_000_000: return String(format: "%.1f ms", nanoseconds / 1_000_000)
        default: return String(format: "%.2f s", nanoseconds / 1_000_000_000)
        }
    }

    static func bytes(_ bytes: Double?) -> String {
        guard let bytes else { return "-" }
        switch bytes {
        case ..<1024: return String(format: "%.0f B", bytes)
        case ..<(1024 * 1024): return String(format: "%.1f KiB", bytes / 1024)
        default: return String(format: "%.1f MiB", bytes / (1024 * 1024))
        }
    }

    static func ratio(_ numerator: Double?, _ denominator: Double?) -> String {
        guard let numerator, let denominator, denominator > 0 else { return "-" }
        let value = numerator / denominator
        return value >= 100 ? String(format: "%.0fx", value) : String(format: "%.2fx", value)
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? text + padding : padding + text
    }

    static let header = [
        ("workload", 30), ("tabs", 6), ("store p50", 10), ("store p99", 10), ("raw p50", 10), ("raw p99", 10),
        ("rewrite p50", 12), ("rewrite p99", 12), ("store/raw", 10), ("rewrite/store", 14),
        ("store B/op", 11), ("raw B/op", 10), ("rewrite B/op", 13), ("minimal p50", 12), ("store/minimal", 14),
        ("minimal B/op", 13),
    ]

    static func line(_ row: ReportRow) -> String {
        var cells = [pad(row.workload, header[0].1, left: true), pad(row.tabs.map(formatCount) ?? "", header[1].1)]
        if let text = row.text {
            return cells.joined(separator: " ") + "  " + text
        }
        if let kib = row.kib {
            let values = [
                "\(kib.store / 1024) MiB", "", "\(kib.raw / 1024) MiB", "", "\(kib.rewrite / 1024) MiB", "",
                ratio(Double(kib.store), Double(kib.raw)), ratio(Double(kib.rewrite), Double(kib.store)), "", "", "",
            ]
            for (offset, value) in values.enumerated() { cells.append(pad(value, header[offset + 2].1)) }
            return cells.joined(separator: " ") + "  (peak RSS, fresh child process)"
        }
        let values = [
            duration(row.store?.p50), duration(row.store?.p99), duration(row.raw?.p50), duration(row.raw?.p99),
            duration(row.rewrite?.p50), duration(row.rewrite?.p99),
            ratio(row.store?.p50, row.raw?.p50), ratio(row.rewrite?.p50, row.store?.p50),
            bytes(row.store?.meanBytes), bytes(row.raw?.meanBytes), bytes(row.rewrite?.meanBytes),
            duration(row.minimal?.p50), ratio(row.store?.p50, row.minimal?.p50), bytes(row.minimal?.meanBytes),
        ]
        for (offset, value) in values.enumerated() { cells.append(pad(value, header[offset + 2].1)) }
        return cells.joined(separator: " ")
    }

    static func formatCount(_ count: Int) -> String {
        count >= 1000 ? "\(count / 1000),\(String(format: "%03d", count % 1000))" : "\(count)"
    }

    static func table(_ rows: [ReportRow]) -> String {
        var lines = [
            header.enumerated().map { offset, column in pad(column.0, column.1, left: offset == 0) }.joined(separator: " ")
        ]
        lines.append(String(repeating: "-", count: lines[0].count))
        var previous: String?
        for row in rows {
            let group = row.tabs.map { "\($0)" } ?? row.workload
            if let previous, previous != group, row.tabs != nil { lines.append("") }
            previous = group
            lines.append(line(row))
        }
        return lines.joined(separator: "\n")
    }
}
