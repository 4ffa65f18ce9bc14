import CCallgrind

/// Callgrind's client requests: with `--collect-atstart=no`, only what runs inside
/// ``collect(_:)`` is counted, and ``dump(label:)`` writes those counts to a file of
/// their own. Outside valgrind both cost one check of a constant.
enum Callgrind {
    /// Whether this process runs under valgrind.
    static let isRunning = ccallgrind_running() != 0

    /// Starts instrumenting, under `--instr-atstart=no`: the setup before it runs faster.
    static func startInstrumentation() {
        guard isRunning else { return }
        ccallgrind_start_instrumentation()
    }

    /// Runs `body` with the collection of costs on.
    static func collect<T>(_ body: () throws -> T) rethrows -> T {
        guard isRunning else { return try body() }
        ccallgrind_toggle_collect()
        defer { ccallgrind_toggle_collect() }
        return try body()
    }

    /// Dumps the costs collected since the last dump, labelled `label` (the dump's `desc: Trigger:` line).
    static func dump(label: @autoclosure () -> String) {
        guard isRunning else { return }
        ccallgrind_dump_stats_at(label())
    }
}
