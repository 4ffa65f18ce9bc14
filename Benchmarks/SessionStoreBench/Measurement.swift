import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// The bytes this process has passed to `write(2)` so far (`wchar` of `/proc/self/io`):
/// WAL frames, checkpoints into the main file, and whole files for the rewrite baseline.
/// `nil` where the kernel does not expose it.
func writtenBytes() -> UInt64? {
    guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("wchar:") {
        return UInt64(line.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces))
    }
    return nil
}

/// The peak resident set size of this process, in KiB.
///
/// `VmHWM` of `/proc/self/status`, which belongs to the process's own address space;
/// `getrusage`'s `ru_maxrss` is not used because Linux carries it across `execve`, so a
/// child started by a large parent reports the parent's peak.
func peakResidentKiB() -> Int {
    if let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) {
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.dropFirst("VmHWM:".count).filter(\.isNumber)
            if let kib = Int(digits) { return kib }
        }
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

/// Durations and bytes written of repeated runs of one operation.
struct Samples: Sendable {
    private(set) var nanoseconds: [UInt64] = []
    private(set) var bytes: [UInt64] = []

    var isEmpty: Bool { nanoseconds.isEmpty }
    var count: Int { nanoseconds.count }

    /// Runs `body` once, recording its duration and the bytes it wrote.
    mutating func measure<T>(_ body: () throws -> T) rethrows -> T {
        let bytesBefore = writtenBytes()
        let start = monotonicNanoseconds()
        let result = try body()
        let end = monotonicNanoseconds()
        if let bytesBefore, let bytesAfter = writtenBytes() { bytes.append(bytesAfter - bytesBefore) }
        nanoseconds.append(end - start)
        return result
    }

    /// Records a duration measured elsewhere (no bytes).
    mutating func record(nanoseconds duration: UInt64) {
        nanoseconds.append(duration)
    }

    /// The longest duration, in nanoseconds.
    var maximum: Double? { nanoseconds.max().map { Double($0) } }

    /// The nearest-rank percentile of the durations, in nanoseconds.
    func percentile(_ fraction: Double) -> Double? {
        guard !nanoseconds.isEmpty else { return nil }
        let sorted = nanoseconds.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return Double(sorted[min(max(rank, 1), sorted.count) - 1])
    }

    var p50: Double? { percentile(0.50) }
    var p99: Double? { percentile(0.99) }

    /// The mean bytes written per run.
    var meanBytes: Double? {
        guard !bytes.isEmpty else { return nil }
        return Double(bytes.reduce(0, +)) / Double(bytes.count)
    }
}

/// A small, seeded generator, so every subject makes the same random choices.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Now, as the store writes times: UTC text `YYYY-MM-DD HH:MM:SS.SSS`.
func storedTimestamp() -> String {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    var seconds = time.tv_sec
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int32, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2)) "
        + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(time.tv_nsec / 1_000_000), 3))"
}
