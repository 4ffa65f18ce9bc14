import Foundation
import SessionModel

/// The identities of the tabs an app-like writer commits in the shared-store
/// suite: each tab's id and URL carry its writer (slot and incarnation) and its
/// sequence number, so any process that reads the store knows, from the rows
/// alone, which commit of which writer it sees.
///
///     let tab = SharedStoreStamp.tab(slot: 2, incarnation: 5, sequence: 17)
///     SharedStoreStamp.parse(tab.rawValue.uuidString)   // (2, 5, 17)
public enum SharedStoreStamp {
    /// One writer's commit: its writer and its sequence number (from 1).
    public struct Commit: Hashable, Sendable, Comparable {
        /// The writer's slot in the schedule.
        public var slot: Int
        /// Which run of that slot (a slot killed and started again is a new incarnation).
        public var incarnation: Int
        /// The commit's number in its incarnation.
        public var sequence: Int

        /// A commit.
        public init(slot: Int, incarnation: Int, sequence: Int) {
            self.slot = slot
            self.incarnation = incarnation
            self.sequence = sequence
        }

        public static func < (a: Commit, b: Commit) -> Bool {
            (a.slot, a.incarnation, a.sequence) < (b.slot, b.incarnation, b.sequence)
        }
    }

    /// The id of commit `sequence` of the writer `slot`/`incarnation`.
    public static func tab(slot: Int, incarnation: Int, sequence: Int) -> WebStateID {
        let text = String(format: "5A4E0000-%04X-%04X-8000-%012X", slot, incarnation, sequence)
        return WebStateID(rawValue: UUID(uuidString: text)!)
    }

    /// The URL the tab navigates to: its commit, readable in `sqlite3`.
    public static func url(of tab: WebStateID) -> String {
        guard let commit = parse(tab.rawValue.uuidString) else { return "https://shared.example/" }
        return "https://shared.example/\(commit.slot)/\(commit.incarnation)/\(commit.sequence)"
    }

    /// The commit a tab id names, in any letter case; `nil` for a tab no writer of the suite made.
    public static func parse(_ id: String) -> Commit? {
        let parts = id.uppercased().split(separator: "-")
        guard parts.count == 5, parts[0] == "5A4E0000", parts[3] == "8000",
              let slot = Int(parts[1], radix: 16), let incarnation = Int(parts[2], radix: 16),
              let sequence = Int(parts[4], radix: 16)
        else { return nil }
        return Commit(slot: slot, incarnation: incarnation, sequence: sequence)
    }
}
