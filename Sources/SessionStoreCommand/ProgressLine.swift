import ArgumentParser
import Foundation

/// `--quiet`, for the subcommands that show progress.
struct ProgressOptions: ParsableArguments {
    @Flag(help: "Show no progress line on the terminal.")
    var quiet = false
}

/// A progress line for long work, redrawn in place on stderr at most ten times a
/// second: how much is done, of how much, and an estimate of the time left.
/// Shown only when stderr is a terminal and `--quiet` is not given, and erased
/// when the work ends, so nothing of it is left in a log or a pipe.
final class ProgressLine {
    private let label: String
    private let enabled: Bool
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private var drawn = false

    /// A line for `label` ("export", "import").
    init(_ label: String, options: ProgressOptions) {
        self.label = label
        enabled = !options.quiet && isatty(STDERR_FILENO) == 1
    }

    /// Shows `done` of `total` (if known) in `unit` ("tabs", or "bytes" shown in MiB).
    func update(_ done: Int64, of total: Int64?, unit: String) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = now
        func amount(_ value: Int64) -> String {
            unit == "bytes" ? String(format: "%.1f MiB", Double(value) / 1_048_576) : "\(value) \(unit)"
        }
        var text = "\(label): \(amount(done))"
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            text += " of \(amount(total)) (\(Int(fraction * 100))%)"
            let elapsed = now.timeIntervalSince(started)
            if fraction > 0.01, elapsed > 1 {
                text += ", about \(Int((elapsed / fraction - elapsed).rounded())) s left"
            }
        }
        StandardError.write("\r\u{1B}[K\(text)")
        drawn = true
    }

    /// Erases the line.
    func finish() {
        guard drawn else { return }
        StandardError.write("\r\u{1B}[K")
        drawn = false
    }
}
