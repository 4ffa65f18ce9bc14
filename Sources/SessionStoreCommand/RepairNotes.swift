import Foundation
import SessionStorage

/// Says on stderr, one line each, what a read-only command read around: the
/// tabs and links the store repaired in memory because their rows break a rule.
/// The command shows the repaired list; the file is unchanged.
struct RepairNotes {
    private let path: String
    private var reported = 0

    init(path: String) {
        self.path = path
    }

    /// Prints the repairs `database` made since the last call.
    mutating func report(_ database: SessionDatabase) {
        let repairs = database.repairs()
        for repair in repairs.dropFirst(reported) {
            let line = "sessionstore: note: \(shown(path)): read around damage: \(shown(repair.description)). "
                + "The file is unchanged; run `sessionstore check --db \(shown(path))`.\n"
            StandardError.write(line)
        }
        reported = repairs.count
    }
}
