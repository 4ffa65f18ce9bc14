import SessionModel
import Testing
@testable import SessionSync

/// The upload loop's pacing, replayed on a clock of its own: a change after a
/// quiet period leaves at once, a burst's changes are coalesced into a few
/// uploads a second, and no pattern of changes takes more uploads than the
/// server allows (`uploads_per_second`, 10).
@Suite struct UploadPacingTests {
    struct Replay {
        /// Each change's wait from its commit to the start of the upload that carried it.
        var waits: [Duration] = []
        /// When each upload that sent something started.
        var uploads: [ContinuousClock.Instant] = []
    }

    /// Replays commits (milliseconds from the start) through `SyncClient`'s upload
    /// loop: a commit while the loop is idle wakes it, which waits what the pacing
    /// says and uploads what the outbox then holds, in `uploadMilliseconds`; a
    /// commit while it waits or uploads wakes it again once that upload ends (an
    /// upload that finds the outbox empty sends nothing and paces nothing). The
    /// acknowledgement of an upload that leaves records behind is one more change,
    /// as the loop's observation of the outbox sees it.
    static func replay(commits: [Int], uploadMilliseconds: Int = 15, debounce: Duration = .zero) -> Replay {
        let start = ContinuousClock.now
        func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
        var pacing = UploadPacing(debounce: debounce)
        var result = Replay()
        var outbox: [ContinuousClock.Instant] = []
        var woken = false
        var waitingUntil: ContinuousClock.Instant?
        var upload: (start: ContinuousClock.Instant, carried: [ContinuousClock.Instant])?
        var index = 0
        func wake(at now: ContinuousClock.Instant) {
            woken = false
            waitingUntil = now + pacing.wait(at: now)
        }
        while index < commits.count || waitingUntil != nil || upload != nil {
            let commit = index < commits.count ? at(commits[index]) : nil
            let uploadEnd = upload.map { $0.start + .milliseconds(uploadMilliseconds) }
            let next = [commit, waitingUntil, uploadEnd].compactMap { $0 }.min()!
            if let uploadEnd, uploadEnd == next, let current = upload {
                upload = nil
                if !current.carried.isEmpty {
                    pacing.uploaded(at: current.start)
                    result.uploads.append(current.start)
                    result.waits += current.carried.map { $0.duration(to: current.start) }
                }
                if !outbox.isEmpty {
                    pacing.changed(at: uploadEnd)
                    woken = true
                }
                if woken { wake(at: uploadEnd) }
            } else if let until = waitingUntil, until == next {
                waitingUntil = nil
                upload = (until, outbox)
                outbox = []
            } else if let commit {
                index += 1
                outbox.append(commit)
                pacing.changed(at: commit)
                if waitingUntil == nil, upload == nil { wake(at: commit) } else { woken = true }
            }
        }
        return result
    }

    /// Whether the server's token bucket (`rate` a second, holding `rate`) had a token for every upload.
    static func allowed(_ uploads: [ContinuousClock.Instant], rate: Double = 10) -> Bool {
        var tokens = rate
        var last = uploads.first
        for upload in uploads {
            let elapsed = last!.duration(to: upload)
            tokens = min(rate, tokens + (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * rate)
            last = upload
            guard tokens >= 1 else { return false }
            tokens -= 1
        }
        return true
    }

    @Test func aChangeAfterAQuietPeriod_leavesAtOnce() {
        for gap in [250, 400, 1_000, 5_000] {
            let replay = Self.replay(commits: Array(stride(from: 0, to: 50 * gap, by: gap)))
            #expect(replay.uploads.count == 50, "every \(gap) ms")
            #expect(replay.waits.allSatisfy { $0 == .zero }, "every \(gap) ms: \(replay.waits)")
        }
    }

    @Test func theFirstChangeOfABurst_leavesAtOnce_andTheFirstAfterIt_too() {
        let burst = Array(0..<100).map { $0 * 10 }
        let replay = Self.replay(commits: burst + [3_000])
        #expect(replay.waits.first == .zero)
        #expect(replay.waits.last == .zero)
    }

    @Test func tenChangesASecond_waitAtMostTheLongestInterval_andHalfOfItOnAverage() {
        let replay = Self.replay(commits: Array(stride(from: 0, to: 100_000, by: 100)))
        #expect(replay.waits.count == 1_000)
        #expect(replay.waits.allSatisfy { $0 <= UploadPacing.bounds.maximumInterval }, "\(replay.waits.max()!)")
        let mean = replay.waits.reduce(.zero, +) / replay.waits.count
        #expect(mean <= .milliseconds(160), "mean wait \(mean)")
        #expect(Self.allowed(replay.uploads))
    }

    @Test func aBurstOfAHundredChangesASecond_isCoalesced_withinTheServersAllowance() {
        for upload in [15, 60, 300] {
            let replay = Self.replay(commits: Array(stride(from: 0, to: 10_000, by: 10)), uploadMilliseconds: upload)
            #expect(replay.waits.count == 1_000)
            // About 4 uploads a second: 25 changes each.
            #expect(replay.uploads.count <= 45, "\(replay.uploads.count) uploads of \(upload) ms")
            #expect(Self.allowed(replay.uploads), "\(upload) ms uploads")
        }
    }

    @Test func changesAtTheUsersPaceBetweenABurstsUploads_stayWithinTheServersAllowance() {
        // Two commits 1 ms apart every 250 ms (the second a burst's, the next pair's first at the user's
        // pace), and the same every 251 and 300 ms: the rule's worst cases.
        for period in [250, 251, 300] {
            let commits = Array(stride(from: 0, to: 20_000, by: period)).flatMap { [$0, $0 + 1] }
            let replay = Self.replay(commits: commits, uploadMilliseconds: 1)
            let seconds = 20.0
            #expect(Double(replay.uploads.count) / seconds <= 8.1, "\(replay.uploads.count) uploads every \(period) ms")
            #expect(Self.allowed(replay.uploads), "every \(period) ms")
        }
    }

    @Test func anyPatternOfChanges_staysWithinTheServersAllowance() {
        var random = SplitMix64(seed: 36)
        let gaps = [1, 5, 20, 50, 99, 100, 101, 150, 249, 250, 251, 300]
        for _ in 0..<300 {
            var commits: [Int] = []
            var time = 0
            while time < 10_000 {
                time += gaps.randomElement(using: &random)!
                commits.append(time)
            }
            let upload = [1, 15, 60].randomElement(using: &random)!
            let replay = Self.replay(commits: commits, uploadMilliseconds: upload)
            #expect(replay.waits.count == commits.count)
            #expect(Self.allowed(replay.uploads), "\(commits)")
        }
    }

    @Test func aPositiveDebounce_waitsThatLongBeforeEveryUpload() {
        let replay = Self.replay(commits: Array(stride(from: 0, to: 2_000, by: 100)), debounce: .seconds(1))
        #expect(replay.waits.first == .seconds(1))
        // The changes of the first second leave together, the rest a second after the first of them.
        #expect(replay.uploads.count == 2)
    }
}
