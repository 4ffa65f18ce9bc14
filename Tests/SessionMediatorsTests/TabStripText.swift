import SessionConsumers
import SessionModel
import SessionStorage
import SessionTestSupport
@testable import SessionMediators

// Helpers shared by the mediator tests.

extension WebStateListNotation {
    /// Prints a strip in the notation of `format(_:)`: `"a | [ 0 b* c ] d"`.
    func format(_ strip: TabStripSnapshot) -> String {
        strip.notation(
            label: { name(of: $0.id) ?? "_" },
            groupOpening: { ["[", label(of: $0.id) ?? "_"] },
            splitOpening: { ["{", splitLabel(of: $0.id) ?? "_"] })
    }
}

extension TemporaryStore {
    /// The strip a mediator should show for `browser` now, read from the store.
    func strip(_ browser: BrowserID) throws -> TabStripSnapshot {
        TabStripSnapshot(try tabs.snapshot(of: browser))
    }
}

extension RecordingWebStateListConsumer {
    /// Waits for the configuration, and returns it.
    @discardableResult
    func configuration() async throws -> TabStripSnapshot {
        try await log.wait(for: "the configuration") { !$0.isEmpty }
        guard case .configured(let snapshot) = events[0] else {
            throw UnexpectedEvent(description: "expected a configuration first, not \(events[0])")
        }
        return snapshot
    }

    /// Checks that the events are one configuration followed by updates whose diffs,
    /// applied in turn, give each update's strip; returns the problems found.
    func chainProblems() -> [String] {
        var problems: [String] = []
        var previous: TabStripSnapshot?
        for (index, event) in events.enumerated() {
            switch event {
            case .configured(let snapshot):
                if index != 0 { problems.append("configure at \(index)") }
                previous = snapshot
            case .updated(let snapshot, let diff):
                guard let before = previous else {
                    problems.append("update before configure at \(index)")
                    continue
                }
                if snapshot == before { problems.append("unchanged strip delivered at \(index)") }
                do {
                    let applied = try before.applying(diff)
                    if applied != snapshot { problems.append("diff \(index) gives another strip") }
                } catch {
                    problems.append("diff \(index): \(error)")
                }
                previous = snapshot
            case .unavailable(let reason):
                problems.append("unavailable at \(index): \(reason)")
            }
        }
        return problems
    }
}

/// A consumer received something other than what a test expected.
struct UnexpectedEvent: Error, CustomStringConvertible {
    var description: String
}
