/// What reading one file had to leave out, gathered while replaying its
/// commands and given back as ``BrowserImport/skipped`` lines, each starting
/// with the file's name.
struct ChromiumReadNotes: Sendable {
    /// The file's name, at the start of every line.
    let fileName: String
    /// How many commands of each unknown id were skipped.
    private(set) var unknownIDs: [UInt8: Int] = [:]
    /// Commands whose payload could not be read: a few words each.
    private(set) var malformed: [String] = []
    /// Other lines, in the order they were noted.
    private(set) var other: [String] = []

    /// Creates empty notes for `fileName`.
    init(fileName: String) {
        self.fileName = fileName
    }

    /// Counts a command of an id the reader does not know.
    mutating func unknown(_ command: SNSSCommand) {
        unknownIDs[command.id, default: 0] += 1
    }

    /// Counts a command whose payload could not be read.
    mutating func malformed(_ command: SNSSCommand, _ error: MalformedPayload) {
        malformed.append("id \(command.id) at byte \(command.offset): \(error.reason)")
    }

    /// Adds a line of its own.
    mutating func note(_ line: String) {
        other.append(line)
    }

    /// The lines, each prefixed with the file's name.
    var lines: [String] {
        var lines: [String] = []
        if !unknownIDs.isEmpty {
            let count = unknownIDs.values.reduce(0, +)
            let ids = unknownIDs.keys.sorted().map(String.init).joined(separator: ", ")
            lines.append("skipped \(count) \(count == 1 ? "command" : "commands") of unknown "
                + "\(unknownIDs.count == 1 ? "id" : "ids") \(ids)")
        }
        if !malformed.isEmpty {
            let shown = malformed.prefix(3).joined(separator: "; ")
            let more = malformed.count > 3 ? "; and \(malformed.count - 3) more" : ""
            lines.append("skipped \(malformed.count) malformed \(malformed.count == 1 ? "command" : "commands") (\(shown)\(more))")
        }
        lines += other
        return lines.map { "\(fileName): \($0)" }
    }
}
