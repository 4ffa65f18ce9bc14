import Foundation

/// Which of a profile's session files one import reads.
///
/// Chromium keeps them in `<profile>/Sessions/` (`components/sessions/core/session_constants.cc`:
/// `kSessionsDirectory`), named `Session_<time>` (open windows) and `Tabs_<time>`
/// (recently closed), where `<time>` is microseconds since 1601 (`TimestampToString`
/// in `command_storage_backend.cc`); the newest of each kind is the latest session.
struct ChromiumSessionFiles: Sendable {
    /// The `Session_*` file to read, if any.
    var session: String?
    /// The `Tabs_*` file to read, if any.
    var tabs: String?
    /// Whether the files were found in a directory (rather than named alone).
    var fromDirectory: Bool

    /// The files `path` names: one file (a `Tabs_*` name is read as closed
    /// tabs, any other as open windows), or a directory holding `Session_*`
    /// files itself, in `Sessions/`, or in `Default/Sessions/`.
    ///
    /// - Throws: ``BrowserFileError`` when nothing is at `path`, or a directory
    ///   holds no session file in any of those places.
    static func locate(_ path: String) throws(BrowserFileError) -> ChromiumSessionFiles {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BrowserFileError(path: path, reason: "no such file or directory")
        }
        guard isDirectory.boolValue else {
            let isTabs = (path as NSString).lastPathComponent.hasPrefix("Tabs_")
            return ChromiumSessionFiles(session: isTabs ? nil : path, tabs: isTabs ? path : nil, fromDirectory: false)
        }
        for directory in [path, "\(path)/Sessions", "\(path)/Default/Sessions"] {
            if let session = newest(in: directory, prefix: "Session_") {
                return ChromiumSessionFiles(
                    session: session, tabs: newest(in: directory, prefix: "Tabs_"), fromDirectory: true)
            }
        }
        let encrypted = ["\(path)/Sessions_Encrypted", "\(path)/Default/Sessions_Encrypted"].contains {
            newest(in: $0, prefix: "Session_") != nil
        }
        let hint = encrypted ? " (only in Sessions_Encrypted/, which is encrypted and not read)" : ""
        throw BrowserFileError(
            path: path, reason: "no Session_* file in it, in Sessions/ or in Default/Sessions/\(hint)")
    }

    /// The newest regular file in `directory` whose name starts with `prefix`:
    /// the largest time in its name, then the latest modification.
    static func newest(in directory: String, prefix: String) -> String? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        var best: (key: (Int64, Date, String), path: String)?
        for name in names where name.hasPrefix(prefix) {
            let path = "\(directory)/\(name)"
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            let time = Int64(name.dropFirst(prefix.count)) ?? Int64.min
            let modified = attributes[.modificationDate] as? Date ?? .distantPast
            let key = (time, modified, name)
            if best == nil || key > best!.key { best = (key, path) }
        }
        return best?.path
    }
}
